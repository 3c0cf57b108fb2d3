import Foundation
import SignpadCrypto
import SignpadExport
import SignpadOutbox
import SignpadTestSupport
import SignpadTimestamp
import Synchronization
import Testing

/// Each written signature gets its authority's token beside its manifest, which OpenSSL and
/// `verify` accept; an authority that is down never holds up the signature, and what awaits a
/// token survives a restart.
@Suite struct TimeStamperTests {
    typealias Events = Recorded<TimeStamper.Event>

    static func stamper(_ url: String, dir: String, events: Events) -> TimeStamper {
        TimeStamper(authority: TimeStampAuthority(url: url, timeoutSeconds: 2), folder: FolderWriter(directory: dir + "/out"),
                    queueFolder: FolderWriter(directory: dir + "/spool", fileMode: 0o600)) { events.append($0) }
    }

    @Test func aWrittenSignatureGetsATokenOpenSSLAndVerifyAccept() throws {
        try requirePeer(.tool("openssl"))
        try requirePeer(.pythonModule("rfc3161_client"))
        let dir = scratch()
        defer { removeScratch(dir) }
        let server = try TestTimeStampServer(TestTimeStampAuthority(in: dir + "/tsa"))
        defer { server.stop() }
        let events = Events()
        let stamper = Self.stamper(server.url(), dir: dir, events: events)
        let exporter = Exporter(directory: dir + "/out", options: ExportOptions(), evidence: testEvidence, retrySeconds: 60,
                                spool: SignatureSpool(directory: dir + "/spool"), timeStamper: stamper)
        let record = sampleRecord()
        exporter.submit(record, exportID: 1)
        let manifest = "\(dir)/out/\(record.id).meta.json"
        #expect(until(20) { FileManager.default.fileExists(atPath: manifest + ".tsr") && stamper.awaiting == 0 }, "\(names(dir + "/out"))")
        exporter.stop()
        stamper.stop()
        #expect(stamper.awaiting == 0 && !names(dir + "/spool").contains { $0.hasSuffix(".tsq") }, "\(names(dir + "/spool"))")
        let verified = try run("openssl", ["ts", "-verify", "-data", manifest + ".sig", "-in", manifest + ".tsr", "-CAfile", server.authority.caPEM])
        #expect(verified.status == 0 && verified.output.contains("Verification: OK"), "\(verified.output)")
        // The signed manifest names the authority its token comes from.
        let metadata = try JSONDecoder().decode(SignatureMetadata.self, from: Data(contentsOf: URL(fileURLWithPath: manifest)))
        #expect(metadata.timeStampAuthority == server.url())
        // A second reader, PyPI's rfc3161-client (not OpenSSL): the token is over this signature alone.
        let reader = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("tsa/verify_token.py").path
        let read = try run("python3", [reader, manifest + ".tsr", manifest + ".sig", server.authority.caPEM])
        #expect(read.status == 0 && read.output.hasPrefix("OK 20"), "\(read.output)")
        let another = try run("python3", [reader, manifest + ".tsr", manifest, server.authority.caPEM])
        #expect(another.status == 1 && another.output.contains("FAILED Mismatch between messages"), "\(another.output)")
        let ca = Array(try Data(contentsOf: URL(fileURLWithPath: server.authority.caPEM)))
        let check = ManifestCheck.check(manifest: manifest, keys: [testSigningKey.publicKey], timeStampCA: ca)
        #expect(check.passed && check.timeStamped != nil && check.line.contains("time-stamped 20"), "\(check.line)")
        #expect(events.all.contains { if case .stamped(record.id, _) = $0 { true } else { false } }, "\(events.all)")
    }

    /// The authority is down: the signature is written as quickly as without one, and its token
    /// waits in the spool folder; the next start, with the authority back, fetches it.
    @Test func anAuthorityDownHoldsNothingUpAndItsTokenComesAfterARestart() throws {
        try requirePeer(.tool("openssl"))
        let dir = scratch()
        defer { removeScratch(dir) }
        let server = try TestTimeStampServer(TestTimeStampAuthority(in: dir + "/tsa"))
        defer { server.stop() }
        let events = Events()
        let down = Self.stamper(server.url("/slow"), dir: dir, events: events)
        let exporter = Exporter(directory: dir + "/out", options: ExportOptions(), evidence: testEvidence, retrySeconds: 60,
                                spool: SignatureSpool(directory: dir + "/spool"), timeStamper: down)
        let record = sampleRecord()
        let started = Date()
        exporter.submit(record, exportID: 1)
        let results = EvidenceTests.firstResults(of: exporter)
        // The authority answers after 20 s (and the stamper gives up after 2): a write that waited
        // for it would take that long.
        #expect(results.first?.error == nil && Date().timeIntervalSince(started) < 10, "written without waiting for the authority: \(results)")
        #expect(until(10) { names(dir + "/spool").contains("\(record.id).tsq") }, "\(names(dir + "/spool"))")
        #expect(until(10) { events.all.contains { if case .failing = $0 { true } else { false } } }, "\(events.all)")
        #expect(down.awaiting == 1)
        exporter.stop()
        down.stop()
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/out/\(record.id).meta.json.tsr"))

        let back = Self.stamper(server.url(), dir: dir, events: events)
        #expect(until(20) { FileManager.default.fileExists(atPath: "\(dir)/out/\(record.id).meta.json.tsr") && back.awaiting == 0 })
        back.stop()
        #expect(back.awaiting == 0 && !names(dir + "/spool").contains("\(record.id).tsq"))
        #expect(events.all.contains { if case .stamped = $0 { true } else { false } }, "\(events.all)")
    }

    /// A signature submitted twice (written again after a crash) is asked for once; a reply that
    /// came while the folder failed is written once it is back, with no second token; and a
    /// record that has its token gets no other.
    @Test func oneTokenPerRecordWhateverFails() throws {
        try requirePeer(.tool("openssl"))
        let dir = scratch()
        defer { removeScratch(dir) }
        let server = try TestTimeStampServer(TestTimeStampAuthority(in: dir + "/tsa"))
        defer { server.stop() }
        try FileManager.default.createDirectory(atPath: dir + "/spool", withIntermediateDirectories: true)
        let events = Events()
        // The export folder is not there yet: the token's write fails.
        let stamper = TimeStamper(authority: TimeStampAuthority(url: server.url(), timeoutSeconds: 5),
                                  folder: FolderWriter(directory: dir + "/out", createsFolder: false),
                                  queueFolder: FolderWriter(directory: dir + "/spool", fileMode: 0o600), clock: { Date().timeIntervalSince1970 * 100 }) {
            events.append($0)
        }
        stamper.submit(id: "a", manifestSignature: [1, 2, 3])
        stamper.submit(id: "a", manifestSignature: [1, 2, 3])
        #expect(stamper.awaiting == 1 && names(dir + "/spool") == ["a.tsq"])
        #expect(until(10) { events.all.contains { if case .failing = $0 { true } else { false } } }, "\(events.all)")
        try FileManager.default.createDirectory(atPath: dir + "/out", withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: URL(fileURLWithPath: dir + "/out/a.meta.json"))
        // The clock runs a hundred times fast: the 5 s backoff passes in 50 ms.
        #expect(until(10) { FileManager.default.fileExists(atPath: dir + "/out/a.meta.json.tsr") && stamper.awaiting == 0 }, "\(events.all)")
        #expect(server.queries.count == 1, "one token asked for: \(server.queries)")
        let first = FileManager.default.contents(atPath: dir + "/out/a.meta.json.tsr")
        // Its queue file back (a crash between the token and its removal): nothing is asked again.
        stamper.submit(id: "a", manifestSignature: [1, 2, 3])
        #expect(until(10) { stamper.awaiting == 0 && !names(dir + "/spool").contains("a.tsq") })
        stamper.stop()
        #expect(server.queries.count == 1 && FileManager.default.contents(atPath: dir + "/out/a.meta.json.tsr") == first, "\(server.queries)")
    }

    /// verify with --tsa-ca: a record without its token, or with another record's, fails by name.
    @Test func verifyNamesAMissingOrAnotherRecordsToken() throws {
        try requirePeer(.tool("openssl"))
        let dir = scratch()
        defer { removeScratch(dir) }
        let server = try TestTimeStampServer(TestTimeStampAuthority(in: dir + "/tsa"))
        defer { server.stop() }
        let events = Events()
        let stamper = Self.stamper(server.url(), dir: dir, events: events)
        let exporter = Exporter(directory: dir + "/out", options: ExportOptions(), evidence: testEvidence, retrySeconds: 60, timeStamper: stamper)
        let a = record("a"), b = record("b")
        exporter.submit(a, exportID: 1)
        exporter.submit(b, exportID: 2)
        let path = { (r: SignatureRecord) in "\(dir)/out/\(r.id).meta.json" }
        #expect(until(20) { FileManager.default.fileExists(atPath: path(a) + ".tsr") && FileManager.default.fileExists(atPath: path(b) + ".tsr") })
        exporter.stop()
        stamper.stop()
        let ca = Array(try Data(contentsOf: URL(fileURLWithPath: server.authority.caPEM)))
        try FileManager.default.removeItem(atPath: path(a) + ".tsr")
        let missing = ManifestCheck.check(manifest: path(a), keys: [testSigningKey.publicKey], timeStampCA: ca)
        #expect(missing.problems == [.timeStampMissing] && missing.line.contains("timestampsAwaited"), "\(missing.line)")
        try FileManager.default.copyItem(atPath: path(b) + ".tsr", toPath: path(a) + ".tsr")
        let copied = ManifestCheck.check(manifest: path(a), keys: [testSigningKey.publicKey], timeStampCA: ca)
        #expect(copied.problems.count == 1 && copied.line.contains("the time-stamp token does not verify") && copied.line.contains("do not rely on its time"),
                "\(copied.line)")
        #expect(ManifestCheck.check(manifest: path(b), keys: [testSigningKey.publicKey], timeStampCA: ca).passed)
        #expect(ManifestCheck.check(manifest: path(a), keys: [testSigningKey.publicKey]).passed, "without --tsa-ca the token is not looked at")
    }
}
