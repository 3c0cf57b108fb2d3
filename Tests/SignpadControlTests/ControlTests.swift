import Foundation
@testable import SignpadControl
import SignpadTestSupport
import SignpadExport
import SignpadVarlink
import Testing

@Suite struct ClientLogBudgetTests {
    @Test func aFloodGetsItsLinesAndThenOneCountOfTheRest() {
        var budget = ClientLogBudget(lines: 20, interval: 60)
        let first = (0..<25).map { budget.take(now: Double($0) * 0.01).log }
        #expect(first.filter { $0 }.count == 20 && first.prefix(20).allSatisfy { $0 })
        let next = budget.take(now: 61)
        #expect(next.log && next.heldBack == 5, "the next minute says how many were held back")
        #expect(budget.take(now: 62).heldBack == 0)
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
        // A day later, at the next start: the open one failed, the old ones beyond the last 100 gone.
        let reopened = try RequestResults(path: path, now: RequestResults.keepSeconds + 10)
        #expect(reopened.result("open")?.status == .failed)
        #expect(reopened.result("open")?.reason?.contains("signpad stopped") == true)
        #expect(reopened.result("r0") == nil && reopened.result("r119") != nil)
    }

    @Test func aFileThatIsNotAListIsAClearError() throws {
        let dir = scratch()
        defer { removeScratch(dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: dir + "/requests.json", contents: Data("{\"not\": \"a list\"}".utf8))
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
