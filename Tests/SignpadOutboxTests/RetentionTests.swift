import Foundation
import SignpadExport
@testable import SignpadOutbox
import SignpadTestSupport
import SignpadVocabulary
import Testing

@Suite struct RetentionTests {
    /// A record whose capture ended `daysAgo` days before now.
    static func record(_ name: String, daysAgo: Double) -> SignpadExport.SignatureRecord {
        var old = SignpadTestSupport.record(name)
        old.endedAt = Date().timeIntervalSince1970 - daysAgo * 86_400
        old.startedAt = old.endedAt - 2
        return old
    }

    @Test func signaturesOlderThanTheRetentionAreDeletedEachOneLogged() throws {
        let dir = scratch()
        defer { removeScratch(dir) }
        let exports = dir + "/signatures"
        try FileManager.default.createDirectory(atPath: exports, withIntermediateDirectories: true)
        for (name, age) in [("old", 31.0), ("recent", 29.0)] {
            let files = try SignatureEncoder.files(for: Self.record(name, daysAgo: age), options: ExportOptions(formats: [.png, .json]), evidence: testEvidence)
            try FolderWriter(directory: exports).write(files.map { ($0.name, $0.bytes) })
        }
        // Not a signature's: a file someone else put there stays.
        #expect(FileManager.default.createFile(atPath: exports + "/notes.txt", contents: Data("kept".utf8)))
        let events = CollectedLog()
        let exporter = Exporter(directory: exports, options: ExportOptions(formats: [.json]), evidence: testEvidence, retrySeconds: 0.05, spool: nil,
                                retention: Retention(days: 30) { events.append("\($0)") })
        defer { exporter.stop() }
        let deadline = Date(timeIntervalSinceNow: 10)
        while !events.text.contains("deleted") && Date() < deadline { usleep(10_000) }
        #expect(names(exports) == ["20261121T170502Z-recent.json", "20261121T170502Z-recent.meta.json", "20261121T170502Z-recent.meta.json.sig",
                                   "20261121T170502Z-recent.png", "notes.txt"])
        #expect(events.text == "\(Retention.Event.deleted(id: "20261121T170502Z-old", from: exports))", "\(events.text)")
    }

    /// A signature still waiting for its folder past the retention goes too, from the spool.
    @Test func aSignatureWaitingPastTheRetentionIsDeletedFromTheSpool() throws {
        let dir = scratch()
        defer { removeScratch(dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let spool = SignatureSpool(directory: dir + "/spool")
        try FileManager.default.createDirectory(atPath: spool.directory, withIntermediateDirectories: true)
        for (name, age) in [("old", 8.0), ("recent", 1.0)] {
            let record = Self.record(name, daysAgo: age)
            try spool.keep(SealedSignature(id: record.id, files: try SignatureEncoder.files(for: record, options: ExportOptions(), evidence: testEvidence)))
        }
        #expect(FileManager.default.createFile(atPath: dir + "/not-a-folder", contents: Data()))
        let events = CollectedLog()
        let exporter = Exporter(directory: dir + "/not-a-folder/out", options: ExportOptions(), evidence: testEvidence, retrySeconds: 60,
                                spool: spool, retention: Retention(days: 7) { events.append("\($0)") })
        #expect(try exporter.recoverSpool(olderFilesAs: CaptureSettings()).count == 2)
        let deadline = Date(timeIntervalSinceNow: 10)
        while !events.text.contains("deleted(id: \"20261121T170502Z-old\"") && Date() < deadline { usleep(10_000) }
        exporter.stop()
        #expect(names(spool.directory) == ["20261121T170502Z-recent.spool.json"], "\(events.text)")
        #expect(exporter.pending == 1)
    }
}
