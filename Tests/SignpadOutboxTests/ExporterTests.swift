import Foundation
import SignpadCrypto
import SignpadExport
@testable import SignpadOutbox
import SignpadTestSupport
import SignpadVocabulary
import Synchronization
import Testing

@Suite struct ExporterSpoolTests {
    @Test func signaturesTheFolderRefusesAreSpooledAndWrittenAtTheNextStart() throws {
        let parent = scratch()
        defer { removeScratch(parent) }
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        let exports = parent + "/mount/signatures", spool = parent + "/spool"  // mount/ is missing: every write fails
        let first = Exporter(directory: exports, options: ExportOptions(), evidence: testEvidence, retrySeconds: 0.05, spool: SignatureSpool(directory: spool))
        var second = record("second")
        second.settings = CaptureSettings(kiosk: "desk A", inkColor: 0x0000C0)
        first.submit(record("first"), exportID: 1)
        first.submit(second, exportID: 2)
        #expect(!first.waitUntilIdle(timeout: 0.3), "the folder keeps failing")
        #expect(first.pending == 2)
        #expect(first.pendingOutsideSpool == 0, "both are on disk although only the first was tried")
        first.stop()
        #expect(names(spool) == ["20261121T170502Z-first.spool.json", "20261121T170502Z-second.spool.json"])

        // The next start, with the folder back.
        try FileManager.default.createDirectory(atPath: exports, withIntermediateDirectories: true)
        let next = Exporter(directory: exports, options: ExportOptions(), evidence: testEvidence, retrySeconds: 0.05, spool: SignatureSpool(directory: spool))
        defer { next.stop() }
        // Renamed and recoloured meanwhile: the signature still says where it was signed, in the ink it was signed in.
        let recovered = try next.recoverSpool(olderFilesAs: CaptureSettings(kiosk: "renamed", inkColor: 0xC00000))
        #expect(recovered.count == 2 && recovered.problems.isEmpty)
        #expect(next.waitUntilIdle(timeout: 10))
        let results = next.results()
        #expect(results.map(\.recordID).sorted() == ["20261121T170502Z-first", "20261121T170502Z-second"])
        #expect(results.allSatisfy { $0.exportID == nil && $0.error == nil && $0.spoolError == nil }, "\(results)")
        #expect(names(spool).isEmpty, "written, so no longer spooled")
        let expected = try SignatureEncoder.files(for: second, options: ExportOptions(), evidence: testEvidence)
        let meta = try JSONDecoder().decode(SignatureMetadata.self, from: try #require(FileManager.default.contents(atPath: exports + "/" + expected.last!.name)))
        #expect(meta.kiosk == "desk A")
        #expect(FileManager.default.contents(atPath: exports + "/" + expected[0].name) == Data(expected[0].bytes),
                "the same bytes as if it had been written the first time")
        #expect(names(exports).filter { $0.hasSuffix(".meta.json") }.count == 2)
    }

    /// The exporter reads the time from its clock, not the system's: after a failure, the spool
    /// is tried again when the clock says `retrySeconds` have passed, however long it really took.
    @Test func theSpoolIsTriedAgainWhenTheClockSays() throws {
        let parent = scratch()
        defer { removeScratch(parent) }
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        let exports = parent + "/mount/signatures", spool = parent + "/spool"  // mount/ is missing: every write fails
        // A file where the spool's folder goes: keeping fails.
        #expect(FileManager.default.createFile(atPath: spool, contents: Data()))
        let uptime = Mutex(1000.0)
        let clock = TimeSource(wall: { 1_795_000_000 }, uptime: { uptime.withLock { $0 } })
        let exporter = Exporter(directory: exports, options: ExportOptions(), evidence: testEvidence, retrySeconds: 0.05,
                                spool: SignatureSpool(directory: spool), clock: clock)
        defer { exporter.stop() }
        exporter.submit(record("later"), exportID: 1)
        Thread.sleep(forTimeInterval: 0.5)
        #expect(exporter.pendingOutsideSpool == 1, "the spool failed")
        try FileManager.default.removeItem(atPath: spool)
        try FileManager.default.createDirectory(atPath: spool, withIntermediateDirectories: true)
        Thread.sleep(forTimeInterval: 0.5)
        #expect(exporter.pendingOutsideSpool == 1, "ten retry times passed on the system's clock, none on the exporter's")
        uptime.withLock { $0 += 1 }
        let deadline = Date(timeIntervalSinceNow: 10)
        while exporter.pendingOutsideSpool > 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        #expect(exporter.pendingOutsideSpool == 0, "kept once the clock moved past the retry")
    }

    /// A stop while the spool is still making a signature's files, with retention on and its
    /// sweep due: the writer waited on the sweep's deadline, already past, which does not wait,
    /// and spun holding the lock, so the spool never gave its go and `stop` never returned.
    @Test func aStopWithASweepDueWhileTheSpoolWorksEnds() throws {
        let parent = scratch()
        defer { removeScratch(parent) }
        let exports = parent + "/signatures", spool = parent + "/spool"
        try FileManager.default.createDirectory(atPath: exports, withIntermediateDirectories: true)
        let uptime = Mutex(1000.0)
        let clock = TimeSource(wall: { Date().timeIntervalSince1970 }, uptime: { uptime.withLock { $0 } })
        let retention = Retention(days: 30, keys: [testSigningKey.publicKey]) { _ in }
        let exporter = Exporter(directory: exports, options: ExportOptions(), evidence: testEvidence, retrySeconds: 0.05,
                                spool: SignatureSpool(directory: spool), retention: retention, clock: clock)
        Thread.sleep(forTimeInterval: 0.3)  // its first sweep, at once
        // A signature whose files take a while to make: a large screen, many samples.
        var large = record("large")
        large.screenWidth = 4000
        large.screenHeight = 3000
        var strokes: [[Sample]] = []
        for s in 0..<200 {
            var stroke: [Sample] = []
            for i in 0..<500 {
                let x = Double(i * 7 % 3900), y = Double((s * 13 + i) % 2900)
                stroke.append(Sample(Point(x, y), time: 5 + Double(s) + Double(i) * 0.001))
            }
            strokes.append(stroke)
        }
        large.signature = Signature(strokes: strokes)
        exporter.submit(large, exportID: 1)
        // The writer back asleep until the next sweep, the spool still making the files; then
        // the sweep comes due, and the stop.
        Thread.sleep(forTimeInterval: 0.2)
        uptime.withLock { $0 += 7200 }
        let stopped = Atomic(false)
        Thread { exporter.stop(timeout: 2); stopped.store(true, ordering: .releasing) }.start()
        let deadline = Date(timeIntervalSinceNow: 20)
        while !stopped.load(ordering: .acquiring) && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        let returned = stopped.load(ordering: .acquiring)
        #expect(returned, "stop returned")
    }

    /// The daemon's loop sleeps until the exporter says it has results: each result is told.
    @Test func theExporterSaysWhenResultsWait() throws {
        let exports = scratch()
        defer { removeScratch(exports) }
        let told = Mutex(0)
        let exporter = Exporter(directory: exports, options: ExportOptions(formats: [.json]), evidence: testEvidence, retrySeconds: 0.05,
                                resultsWaiting: { told.withLock { $0 += 1 } })
        defer { exporter.stop() }
        try exporter.prepare()
        #expect(told.withLock { $0 } == 0)
        exporter.submit(record("told"), exportID: 1)
        #expect(exporter.waitUntilIdle(timeout: 10))
        #expect(told.withLock { $0 } >= 1)
        #expect(exporter.results().map(\.exportID) == [1])
    }

    /// Issue 54, defect 2: a signature queued behind one the folder refuses got no result until
    /// the folder came back, so its request never ended and every later one was Busy. Each now
    /// has its answer once the spool keeps it: kept, with its files.
    @Test func aSignatureBehindAFailingOneIsAnsweredOnceKept() throws {
        let parent = scratch()
        defer { removeScratch(parent) }
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        let exports = parent + "/mount/signatures", spool = parent + "/spool"  // mount/ is missing: every write fails
        let exporter = Exporter(directory: exports, options: ExportOptions(formats: [.json]), evidence: testEvidence, retrySeconds: 30,
                                spool: SignatureSpool(directory: spool))
        defer { exporter.stop() }
        exporter.submit(record("first"), exportID: 1)
        #expect(Self.results(of: exporter, for: [1]).first?.error != nil, "the first is tried and fails")
        exporter.submit(record("second"), exportID: 2)
        let second = Self.results(of: exporter, for: [2])
        #expect(second.count == 1, "the second has its answer while the first waits for its retry in 30 s")
        #expect(second.first?.spooled == true && second.first?.error?.contains("20261121T170502Z-first") == true, "\(second)")
        #expect(second.first?.files.map(\.name) == ["20261121T170502Z-second.json", "20261121T170502Z-second.meta.json.sig", "20261121T170502Z-second.meta.json"])
    }

    /// The same behind a write that hangs: the loop asks `stall`, which answers those waiting.
    @Test func aSignatureBehindAHangingWriteIsAnsweredOnceKept() throws {
        let parent = scratch()
        defer { removeScratch(parent) }
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        let exports = parent + "/signatures", spool = parent + "/spool"
        let entered = DispatchSemaphore(value: 0), answer = DispatchSemaphore(value: 0)
        let exporter = Exporter(directory: exports, options: ExportOptions(formats: [.json]), evidence: testEvidence, retrySeconds: 0.05,
                                spool: SignatureSpool(directory: spool), write: { _ in
                                    entered.signal()
                                    answer.wait()
                                })
        defer {
            for _ in 0..<4 { answer.signal() }
            exporter.stop()
        }
        exporter.submit(record("first"), exportID: 1)
        #expect(entered.wait(timeout: .now() + 5) == .success)
        exporter.submit(record("second"), exportID: 2)
        let deadline = Date(timeIntervalSinceNow: 5)
        var answered: [Exporter.Result] = []
        while answered.isEmpty && Date() < deadline {
            _ = exporter.stall(longerThan: 0)
            answered = exporter.results().filter { $0.exportID == 2 }
            usleep(10_000)
        }
        #expect(answered.count == 1 && answered.first?.spooled == true, "\(answered)")
    }

    /// Issue 54, defect 4: at a start, a request confirmed before a kill is settled by what the
    /// export folder holds, looked up on the writer's thread (the folder may not answer).
    @Test func aLookUpSaysWhetherTheFolderHoldsASignature() throws {
        let parent = scratch()
        defer { removeScratch(parent) }
        let exports = parent + "/signatures"
        try FileManager.default.createDirectory(atPath: exports, withIntermediateDirectories: true)
        let written = try SignatureEncoder.files(for: record("written"), options: ExportOptions(formats: [.json]), evidence: testEvidence)
        try FolderWriter(directory: exports).write(written.map { ($0.name, $0.bytes) })
        let exporter = Exporter(directory: exports, options: ExportOptions(formats: [.json]), evidence: testEvidence, retrySeconds: 0.05)
        defer { exporter.stop() }
        exporter.lookUp(["20261121T170502Z-written", "20261121T170502Z-nowhere"])
        let deadline = Date(timeIntervalSinceNow: 5)
        var found: [Exporter.Result] = []
        while found.count < 2 && Date() < deadline {
            found += exporter.results()
            usleep(10_000)
        }
        let byID = Dictionary(uniqueKeysWithValues: found.map { ($0.recordID, $0) })
        #expect(byID["20261121T170502Z-written"]?.lookedUp == true && byID["20261121T170502Z-written"]?.error == nil)
        #expect(byID["20261121T170502Z-written"]?.files == written.map { Exporter.ExportedFile(name: $0.name, bytes: $0.bytes.count, sha256: SHA256.hex($0.bytes)) })
        #expect(byID["20261121T170502Z-nowhere"]?.lookedUp == true && byID["20261121T170502Z-nowhere"]?.error != nil)
    }

    /// The results for `exportIDs`, waited for up to 5 s.
    static func results(of exporter: Exporter, for exportIDs: Set<Int>) -> [Exporter.Result] {
        let deadline = Date(timeIntervalSinceNow: 5)
        var found: [Exporter.Result] = []
        while Date() < deadline {
            found += exporter.results().filter { $0.exportID.map(exportIDs.contains) == true }
            if Set(found.compactMap(\.exportID)) == exportIDs { break }
            usleep(10_000)
        }
        return found
    }

    @Test func aSignatureConfirmedWhileAWriteHangsIsInTheSpoolAtOnce() throws {
        let parent = scratch()
        defer { removeScratch(parent) }
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        let exports = parent + "/signatures", spool = parent + "/spool"
        // A network share that stopped answering: each write waits until the test lets it go.
        let entered = DispatchSemaphore(value: 0), answer = DispatchSemaphore(value: 0)
        let exporter = Exporter(directory: exports, options: ExportOptions(formats: [.json]), evidence: testEvidence, retrySeconds: 0.05,
                                spool: SignatureSpool(directory: spool), write: { files in
                                    entered.signal()
                                    answer.wait()
                                    try FolderWriter(directory: exports).write(files.map { ($0.name, $0.bytes) })
                                })
        defer { exporter.stop() }
        exporter.submit(record("first"), exportID: 1)
        #expect(entered.wait(timeout: .now() + 5) == .success, "the first write began")
        exporter.submit(record("second"), exportID: 2)
        let deadline = Date(timeIntervalSinceNow: 5)
        while exporter.pendingOutsideSpool > 0 && Date() < deadline { usleep(10_000) }
        #expect(exporter.pendingOutsideSpool == 0, "the second was confirmed while the first's write hung")
        #expect(names(spool) == ["20261121T170502Z-first.spool.json", "20261121T170502Z-second.spool.json"])
        #expect(exporter.pending == 2 && names(exports).isEmpty, "nothing is written yet")

        answer.signal()
        answer.signal()
        #expect(exporter.waitUntilIdle(timeout: 10))
        #expect(exporter.results().map(\.error) == [nil, nil])
        #expect(names(exports).count == 6)
        #expect(names(spool).isEmpty, "written, so no longer spooled")
    }

    @Test func aFolderThatDoesNotAnswerAtStartHoldsUpNothingButTheWrites() throws {
        let parent = scratch()
        defer { removeScratch(parent) }
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        let exports = parent + "/signatures", spool = parent + "/spool"
        // A network share whose server is down at boot: preparing the folder waits until the test lets it go.
        let entered = DispatchSemaphore(value: 0), answer = DispatchSemaphore(value: 0)
        let exporter = Exporter(directory: exports, options: ExportOptions(formats: [.json]), evidence: testEvidence, retrySeconds: 0.05,
                                spool: SignatureSpool(directory: spool), write: nil, prepare: {
                                    entered.signal()
                                    _ = answer.wait(timeout: .now() + 10)
                                    try FolderWriter(directory: exports).prepare()
                                })
        defer { exporter.stop() }
        let failures = CollectedLog()
        exporter.prepareBeforeWriting { failures.append("\($0)") }
        #expect(entered.wait(timeout: .now() + 5) == .success, "the preparation began on the writer's thread")
        #expect(exporter.stall(longerThan: 0) == .preparing, "no signature waits on it yet")

        exporter.submit(record("first"), exportID: 1)
        let deadline = Date(timeIntervalSinceNow: 5)
        while exporter.pendingOutsideSpool > 0 && Date() < deadline { usleep(10_000) }
        #expect(names(spool) == ["20261121T170502Z-first.spool.json"], "confirmed while the folder hung: on disk at once")
        #expect(names(exports).isEmpty)
        // Staff learn that it waits, and a point of sale that the spool holds it; its files are not
        // made yet, as its write waits behind the folder's preparation.
        let stall = exporter.stall(longerThan: 0)
        if case .signature(let exportID, let recordID, let files, let spooled)? = stall {
            #expect(exportID == 1 && recordID == "20261121T170502Z-first")
            #expect(spooled)
            #expect(files.isEmpty, "\(files)")
        } else {
            Issue.record("no stall reported: \(String(describing: stall))")
        }

        answer.signal()
        #expect(exporter.waitUntilIdle(timeout: 10))
        #expect(exporter.results().map(\.error) == [nil])
        #expect(names(exports) == ["20261121T170502Z-first.json", "20261121T170502Z-first.meta.json", "20261121T170502Z-first.meta.json.sig"])
        #expect(names(spool).isEmpty)
        #expect(failures.text.isEmpty)
    }

    @Test func aFolderThatCannotBePreparedIsReportedAndItsWritesRetried() throws {
        let parent = scratch()
        defer { removeScratch(parent) }
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        let exports = parent + "/mount/signatures"  // mount/ is missing until the test makes it
        let exporter = Exporter(directory: exports, options: ExportOptions(formats: [.json]), evidence: testEvidence, retrySeconds: 0.05)
        defer { exporter.stop() }
        let failures = CollectedLog()
        exporter.prepareBeforeWriting { failures.append("\($0)") }
        let deadline = Date(timeIntervalSinceNow: 5)
        while failures.text.isEmpty && Date() < deadline { usleep(10_000) }
        #expect(failures.text == "\(exports): creating the folder: the folder it goes in, \(parent)/mount, is missing (No such file or directory)")

        exporter.submit(record("one"), exportID: 1)
        #expect(!exporter.waitUntilIdle(timeout: 0.2))
        try FileManager.default.createDirectory(atPath: parent + "/mount", withIntermediateDirectories: true)
        #expect(exporter.waitUntilIdle(timeout: 10))
        #expect(names(exports) == ["20261121T170502Z-one.json", "20261121T170502Z-one.meta.json", "20261121T170502Z-one.meta.json.sig"])
        #expect(!failures.text.contains("\n"), "the preparation runs once")
    }

    @Test func aFolderOnAShareThatIsNotMountedIsNotMadeOnLocalDisk() throws {
        let parent = scratch()
        defer { removeScratch(parent) }
        // The mount point is there on local disk; the folder inside the share is not, until it is mounted.
        let mountPoint = parent + "/share", exports = mountPoint + "/signatures", spool = parent + "/spool"
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        let exporter = Exporter(directory: exports, options: ExportOptions(formats: [.json], createsFolder: false), evidence: testEvidence, retrySeconds: 0.05,
                                spool: SignatureSpool(directory: spool))
        defer { exporter.stop() }
        let failures = CollectedLog()
        exporter.prepareBeforeWriting { failures.append("\($0)") }
        exporter.submit(record("one"), exportID: 1)
        #expect(!exporter.waitUntilIdle(timeout: 0.3), "not written while the share is away")
        #expect(names(mountPoint).isEmpty, "nothing made under the mount point")
        #expect(names(spool) == ["20261121T170502Z-one.spool.json"])
        let results = exporter.results()
        #expect(!results.isEmpty && results.allSatisfy { $0.error == "\(exports): writing into it: the export folder is missing (No such file or directory)" }, "\(results)")
        #expect(failures.text.contains("\(exports): opening the folder: the export folder is missing"), "\(failures.text)")

        // The share is mounted: its folder is there.
        try FileManager.default.createDirectory(atPath: exports, withIntermediateDirectories: true)
        #expect(exporter.waitUntilIdle(timeout: 10))
        #expect(names(exports) == ["20261121T170502Z-one.json", "20261121T170502Z-one.meta.json", "20261121T170502Z-one.meta.json.sig"])
        #expect(names(spool).isEmpty)
    }

    @Test func aWrittenSignatureLeavesNothingInTheSpool() throws {
        let parent = scratch()
        defer { removeScratch(parent) }
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        let exporter = Exporter(directory: parent + "/signatures", options: ExportOptions(formats: [.json]), evidence: testEvidence, retrySeconds: 0.05,
                                spool: SignatureSpool(directory: parent + "/spool"))
        defer { exporter.stop() }
        exporter.submit(record("one"), exportID: 1)
        #expect(exporter.waitUntilIdle(timeout: 10))
        #expect(names(parent + "/signatures") == ["20261121T170502Z-one.json", "20261121T170502Z-one.meta.json", "20261121T170502Z-one.meta.json.sig"])
        #expect(names(parent + "/spool").isEmpty)
    }

    @Test func aSpoolThatCannotBeWrittenIsReportedAndTheExportGoesOn() throws {
        let parent = scratch()
        defer { removeScratch(parent) }
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: parent + "/file", contents: Data()))
        // A folder inside a regular file cannot be made, even by root.
        let exporter = Exporter(directory: parent + "/signatures", options: ExportOptions(formats: [.json]), evidence: testEvidence, retrySeconds: 0.05,
                                spool: SignatureSpool(directory: parent + "/file/spool"))
        defer { exporter.stop() }
        exporter.submit(record("one"), exportID: 7)
        #expect(exporter.waitUntilIdle(timeout: 10))
        let results = exporter.results()
        #expect(results.count == 1)
        #expect(results.first?.exportID == 7 && results.first?.error == nil)
        #expect(results.first?.spoolError?.contains(parent + "/file/spool") == true, "\(results)")
        #expect(names(parent + "/signatures").count == 3)
    }
}
