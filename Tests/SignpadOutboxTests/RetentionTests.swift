import Foundation
import SignpadCrypto
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
                                retention: Retention(days: 30, keys: [testSigningKey.publicKey]) { events.append("\($0)") })
        defer { exporter.stop() }
        let deadline = Date(timeIntervalSinceNow: 10)
        while !events.text.contains("deleted") && Date() < deadline { usleep(10_000) }
        #expect(names(exports) == ["20261121T170502Z-recent.json", "20261121T170502Z-recent.meta.json", "20261121T170502Z-recent.meta.json.sig",
                                   "20261121T170502Z-recent.png", "notes.txt"])
        #expect(events.text == "\(Retention.Event.deleted(id: "20261121T170502Z-old", from: exports))", "\(events.text)")
    }

    /// Retention deletes only what the kiosk signed: a manifest no key of its signed, however old
    /// it says it is, deletes nothing, and one it signed deletes only the files named from its id.
    /// A signature signed with a retired key is the kiosk's too.
    @Test func onlyAManifestTheKiosksKeysSignedDeletesAndOnlyItsOwnFiles() throws {
        let dir = scratch()
        defer { removeScratch(dir) }
        let exports = dir + "/signatures"
        try FileManager.default.createDirectory(atPath: exports, withIntermediateDirectories: true)
        let retiredKey = try SigningKey.generate()
        let recent = Self.record("recent", daysAgo: 1)
        let recentFiles = try SignatureEncoder.files(for: recent, options: ExportOptions(formats: [.png, .json]), evidence: testEvidence)
        let old = try SignatureEncoder.files(for: Self.record("old", daysAgo: 40), options: ExportOptions(formats: [.png]),
                                             evidence: Evidence(signingKey: retiredKey))
        try FolderWriter(directory: exports).write((recentFiles + old).map { ($0.name, $0.bytes) })
        let manifest = try JSONDecoder().decode(SignatureMetadata.self, from: Data(try #require(recentFiles.last?.bytes)))
        /// A manifest 60 days old naming one of the recent signature's files, signed by `key` (none: unsigned).
        func claim(_ id: String, _ file: String, signedBy key: SigningKey?) throws {
            var forged = manifest
            forged.id = id
            forged.captureStart = ISO8601.string(Date().timeIntervalSince1970 - 60 * 86_400)
            forged.captureEnd = forged.captureStart
            forged.files = [file: try #require(manifest.files[file])]
            let bytes = Array(try JSONEncoder().encode(forged))
            var files = [(id + ".meta.json", bytes)]
            if let key { files.append((id + ".meta.json.sig", try key.sign(bytes))) }
            try FolderWriter(directory: exports).write(files)
        }
        try claim("20261121T170502Z-unsigned", "\(recent.id).png", signedBy: nil)
        try claim("20261121T170502Z-stranger", "\(recent.id).png", signedBy: try SigningKey.generate())
        try claim("20261121T170502Z-greedy", "\(recent.id).json", signedBy: testSigningKey)
        let events = CollectedLog()
        let exporter = Exporter(directory: exports, options: ExportOptions(formats: [.json]), evidence: testEvidence, retrySeconds: 0.05, spool: nil,
                                retention: Retention(days: 30, keys: [testSigningKey.publicKey, retiredKey.publicKey]) { events.append("\($0)") })
        let deadline = Date(timeIntervalSinceNow: 10)
        while !events.text.contains("-old\"") && Date() < deadline { usleep(10_000) }
        exporter.stop()
        #expect(ManifestCheck.check(manifest: "\(exports)/\(recent.id).meta.json", keys: [testSigningKey.publicKey]).passed, "\(events.text)")
        #expect(names(exports) == ["20261121T170502Z-recent.json", "20261121T170502Z-recent.meta.json", "20261121T170502Z-recent.meta.json.sig",
                                   "20261121T170502Z-recent.png", "20261121T170502Z-stranger.meta.json", "20261121T170502Z-stranger.meta.json.sig",
                                   "20261121T170502Z-unsigned.meta.json"], "\(events.text)")
        #expect(events.text.contains("\(Retention.Event.deleted(id: "20261121T170502Z-old", from: exports))"), "\(events.text)")
        #expect(events.text.contains("20261121T170502Z-unsigned.meta.json: kept"), "\(events.text)")
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
                                spool: spool, retention: Retention(days: 7, keys: [testSigningKey.publicKey]) { events.append("\($0)") })
        #expect(try exporter.recoverSpool(olderFilesAs: CaptureSettings()).count == 2)
        let deadline = Date(timeIntervalSinceNow: 10)
        while !events.text.contains("deleted(id: \"20261121T170502Z-old\"") && Date() < deadline { usleep(10_000) }
        exporter.stop()
        #expect(names(spool.directory) == ["20261121T170502Z-recent.spool.json"], "\(events.text)")
        #expect(exporter.pending == 1)
    }
}
