import Foundation
@testable import SignpadControl
import SignpadTestSupport
import SignpadCrypto
import SignpadExport
import SignpadPDF
import SignpadVarlink
import SignpadVocabulary
import Testing

@Suite struct ClientLogBudgetTests {
    @Test func aFloodGetsItsLinesAndThenOneCountOfTheRest() {
        var budget = ClientLogBudget(lines: 20, interval: 60)
        let first = (0..<25).map { budget.take(now: Double($0) * 0.01) }
        #expect(first.filter { $0 }.count == 20 && first.prefix(20).allSatisfy { $0 })
        #expect(budget.ended(now: 30) == 0, "nothing is said before the minute ends")
        #expect(budget.ended(now: 61) == 5, "once it ends, how many were held back, with no line after")
        #expect(budget.ended(now: 62) == 0 && budget.take(now: 62))
        for i in 0..<22 { _ = budget.take(now: 63 + Double(i) * 0.01) }
        #expect(budget.drainHeldBack() == 3 && budget.drainHeldBack() == 0, "at a stop, what the minute under way held back")
    }
}

@Suite struct RequestResultsTests {
    @Test func aRequestUnderWayAtAStopIsFailedAtTheNextStartAndTheBookKeepsItsLimits() throws {
        let dir = scratch()
        defer { removeScratch(dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = dir + "/requests.json"
        var book = try RequestResults(path: path, now: 0)
        for i in 0..<(RequestResults.keepCount + 20) {
            var result = RequestResult(id: "r\(i)", reference: "R\(i)", startedAt: 0)
            result.status = .signed
            result.endedAt = 0
            try book.record(result, now: 0)
        }
        try book.record(RequestResult(id: "open", reference: "O", startedAt: 1), now: 1)
        book.flush()
        // A day later, at the next start: the open one left to settle, the old ones beyond the last 100 gone.
        var reopened = try RequestResults(path: path, now: RequestResults.keepSeconds + 10)
        #expect(reopened.unsettled == ["open"])
        // Its signature nowhere (the spool and the folder looked at): failed.
        try reopened.failUnsettled("open", now: RequestResults.keepSeconds + 10)
        #expect(reopened.result("open")?.status == .failed)
        #expect(reopened.result("open")?.reason?.contains("signpad stopped while the request was under way") == true)
        #expect(reopened.result("r0") == nil && reopened.result("r119") != nil)
    }

    /// Issue 54, defect 4: after a kill -9, a request whose customer had pressed Done read as
    /// failed although its signature was on disk. A confirmed one is now left open for the
    /// spool and the export folder to settle; only one never confirmed is failed.
    @Test func aConfirmedRequestOpenAtAStopIsSettledNotFailed() throws {
        let dir = scratch()
        defer { removeScratch(dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = dir + "/requests.json"
        var book = try RequestResults(path: path, now: 0)
        var confirmed = RequestResult(id: "done", reference: "D", startedAt: 1)
        confirmed.confirmed = true
        for result in [RequestResult(id: "open", reference: "O", startedAt: 1), confirmed, RequestResult(id: "spooled", reference: "S", startedAt: 1)] {
            var entry = result
            if entry.id == "spooled" { entry.confirmed = true }
            try book.record(entry, now: 1)
        }
        book.flush()
        var reopened = try RequestResults(path: path, now: 100)
        // Each left to the spool and the folder to settle: a request's answer may have gone out
        // (or its confirmation been written) moments before the book had it.
        #expect(reopened.unsettled.sorted() == ["done", "open", "spooled"])
        try reopened.failUnsettled("open", now: 100)
        #expect(reopened.result("open")?.status == .failed)
        try reopened.settle("spooled", kept: true, files: [], now: 100)
        try reopened.settle("done", kept: false, files: [RequestResult.File(name: "done.png", bytes: 3, sha256: "ab")], now: 100)
        #expect(reopened.result("spooled").map { ($0.status, $0.stored) } ?? (nil, nil) == (.signed, .kept))
        #expect(reopened.result("done").map { ($0.status, $0.stored) } ?? (nil, nil) == (.signed, .saved))
        #expect(reopened.unsettled.isEmpty)
    }

    /// Issue 54, defect 10: 400 request/cancel cycles made the book 38 MB. It is bounded in
    /// entries and bytes, oldest first, whatever the references.
    @Test func theBookIsBoundedInEntriesAndBytes() throws {
        let dir = scratch()
        defer { removeScratch(dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = dir + "/requests.json"
        var book = try RequestResults(path: path, now: 0)
        let long = String(repeating: "ё", count: 64)
        for i in 0..<(RequestResults.maxEntries + 500) {
            var result = RequestResult(id: "\(long)_\(i)", reference: long, startedAt: 0)
            result.status = .cancelled
            result.reason = String(repeating: "r", count: 900)
            result.endedAt = 0
            try book.record(result, now: 0)
        }
        book.flush()
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(size <= RequestResults.maxBytes, "\(size) bytes")
        #expect(book.count <= RequestResults.maxEntries)
        #expect(book.result("\(long)_\(RequestResults.maxEntries + 499)") != nil, "the newest is kept")
        #expect(book.result("\(long)_0") == nil, "the oldest went first")
    }

    /// Issue 54, defect 24: a book that cannot be written said so in Foundation's words ("The
    /// file couldn't be saved…"); it says the system's reason, as every other file error does.
    @Test func aBookThatCannotBeWrittenSaysWhyInTheSystemsWords() throws {
        let dir = scratch()
        var book = RequestResults(emptyAt: dir + "/missing/requests.json")
        try book.record(RequestResult(id: "a", reference: "A", startedAt: 0), now: 0)
        book.flush()
        do {
            try book.record(RequestResult(id: "b", reference: "B", startedAt: 0), now: 0)
            Issue.record("the failed write was not reported")
        } catch {
            #expect(error.description == "request results \(dir)/missing/requests.json: cannot write it: No such file or directory", "\(error)")
        }
    }

    @Test func aFileThatIsNotAListIsAClearError() throws {
        let dir = scratch()
        defer { removeScratch(dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: dir + "/requests.json", contents: Data("{\"not\": \"a list\"}".utf8)))
        #expect(throws: RequestResultsError.self) { try RequestResults(path: dir + "/requests.json", now: 0) }
    }
}

@Suite struct RequestLimitsTests {
    @Test(arguments: [
        ("reference", "", nil, nil, nil),
        ("reference", String(repeating: "x", count: 65), nil, nil, nil),
        ("reference", "a\u{202E}b", nil, nil, nil),
        ("documentSha256", "R", "zz", nil, nil),
        ("timeoutSeconds", "R", nil, 4.9, nil),
        ("timeoutSeconds", "R", nil, Double.nan, nil),
        ("title", "R", nil, nil, String(repeating: "t", count: 201)),
    ] as [(String, String, String?, Double?, String?)])
    func aValueOutOfRangeNamesItsParameter(parameter: String, reference: String, hash: String?, timeout: Double?, title: String?) {
        let request = SignatureRequest(reference: reference, title: title, documentSha256: hash)
        #expect(throws: ControlError.self) { try RequestLimits.checked(request, timeout: timeout) }
        do {
            _ = try RequestLimits.checked(request, timeout: timeout)
        } catch {
            #expect(error.parameters["parameter"] == .string(parameter))
        }
    }
}

/// The kiosk's document certificate ends while signpad runs: no document is taken from then on,
/// as none signed under it would validate, and the refusal says what to do.
@Suite struct DocumentIntakeTests {
    func outcome(certificateEnds: Double?, now: Double) throws -> DocumentIntake.Outcome {
        let folder = scratch()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { removeScratch(folder) }
        let pdf = "%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n"
            + "3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >> endobj\n"
        var body = Array(pdf.utf8)
        let offsets = ["1 0 obj", "2 0 obj", "3 0 obj"].map { pdf.utf8.count - pdf.components(separatedBy: $0)[1].utf8.count - $0.utf8.count }
        let xref = body.count
        body += Array("xref\n0 4\n0000000000 65535 f\r\n".utf8) + offsets.flatMap { Array(String(format: "%010d 00000 n\r\n", $0).utf8) }
        body += Array("trailer\n<< /Size 4 /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n".utf8)
        let path = folder + "/contract.pdf"
        try Data(body).write(to: URL(fileURLWithPath: path))
        let done = DispatchSemaphore(value: 0)
        let intake = DocumentIntake(directory: folder + "/", maxBytes: 1 << 20, certificateEnds: certificateEnds,
                                    time: TimeSource(wall: { now }, uptime: { 0 })) { done.signal() }
        intake.submit(DocumentIntake.Job(ticket: 1, path: path, sha256: SHA256.hex(body), placement: PDFSignaturePlacement(page: 1, rect: PDFRect(72, 82, 292, 142))))
        #expect(done.wait(timeout: .now() + 30) == .success)
        return try #require(intake.outcomes().first?.outcome)
    }

    @Test func aDocumentIsRefusedOnceTheKiosksCertificateHasEnded() throws {
        guard case .taken = try outcome(certificateEnds: 2_000_000_000, now: 1_900_000_000) else { Issue.record("refused before the end"); return }
        guard case .refused(let reason) = try outcome(certificateEnds: 2_000_000_000, now: 2_000_000_001) else { Issue.record("taken after the end"); return }
        #expect(reason.hasPrefix("the kiosk's document certificate ended 2033-05-18T03:33:20"), "\(reason)")
        #expect(reason.contains("signpad key certificate"))
    }
}
