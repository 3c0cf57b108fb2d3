import Foundation
import SignpadCrypto
import SignpadExport
import SignpadOutbox
import SignpadPDF
import SignpadTestSupport
import SignpadTimestamp
import Synchronization
import Testing

/// A signed document made PAdES B-T once its files are written: the authority's token goes into
/// the kiosk's signature, which pyHanko, pdfsig and OpenSSL then accept; the manifest still
/// proves the file, and `verify` checks the token.
@Suite struct PDFTimeStampTests {
    typealias Events = Recorded<TimeStamper.Event>

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("pdf/validate_pdf.py").path

    @Test func aWrittenDocumentGetsItsTokenInItsSignatureAndEveryReaderAcceptsIt() throws {
        try requirePeer(.tool("openssl"))
        let folder = try PDFSigningTests.folder()
        defer { removeScratch(folder) }
        let (certificate, certificatePath) = try PDFSigningTests.certificate(in: folder)
        let server = try TestTimeStampServer(TestTimeStampAuthority(in: folder + "/tsa"))
        defer { server.stop() }
        var record = PDFSigningTests.record
        let original = Array(try Data(contentsOf: URL(fileURLWithPath: TestDocuments.cairo(pages: 1, in: folder))))
        record.document = SignedDocument(bytes: original, placement: PDFSignaturePlacement(page: 1, rect: PDFRect(72, 82, 292, 142)))
        let events = Events()
        let stamper = TimeStamper(authority: TimeStampAuthority(url: server.url(), timeoutSeconds: 5), folder: FolderWriter(directory: folder + "/out"),
                                  queueFolder: FolderWriter(directory: folder + "/spool", fileMode: 0o600)) { events.append($0) }
        let exporter = Exporter(directory: folder + "/out", options: ExportOptions(), evidence: Evidence(signingKey: PDFSigningTests.key, documentCertificate: certificate),
                                retrySeconds: 60, spool: SignatureSpool(directory: folder + "/spool"), timeStamper: stamper)
        exporter.submit(record, exportID: 1)
        let pdf = "\(folder)/out/\(record.id).pdf", manifest = "\(folder)/out/\(record.id).meta.json"
        #expect(until(30) { stamper.awaiting == 0 && events.all.contains { if case .documentStamped(record.id, _) = $0 { true } else { false } } }, "\(events.all)")
        exporter.stop()
        stamper.stop()
        #expect(!((try? FileManager.default.contentsOfDirectory(atPath: folder + "/spool")) ?? []).contains { $0.hasSuffix(".tsq") })

        // pyHanko: intact, valid and trusted, PAdES B-T with the authority's CA trusted too.
        let dump = folder + "/dump"
        try FileManager.default.createDirectory(atPath: dump, withIntermediateDirectories: true)
        let hanko = try run("python3", [Self.script, pdf, "--trust", certificatePath, "--trust", server.authority.caPEM, "--save-time-stamp", dump])
        #expect(hanko.status == 0 && hanko.output.contains("\"padesLevel\": \"B-T\""), "\(hanko.output)")
        #expect(hanko.output.contains("\"coverage\": \"ENTIRE_FILE\""), "\(hanko.output)")
        let pdfsig = try run("pdfsig", [pdf])
        #expect(pdfsig.status == 0 && pdfsig.output.contains("Signature is Valid") && pdfsig.output.contains("Total document signed"), "\(pdfsig.output)")
        let qpdf = try run("qpdf", ["--check", pdf])
        #expect(qpdf.status == 0, "\(qpdf.output)")
        // OpenSSL: the token pyHanko found is over this signature's value, by this authority.
        let verified = try run("openssl", ["ts", "-verify", "-data", dump + "/signature-value.bin", "-in", dump + "/token.der", "-token_in",
                                           "-CAfile", server.authority.caPEM])
        #expect(verified.status == 0 && verified.output.contains("Verification: OK"), "\(verified.output)")

        // The manifest lists the document as signed; verify takes the token off to compare,
        // and checks it.
        let ca = Array(try Data(contentsOf: URL(fileURLWithPath: server.authority.caPEM)))
        let check = ManifestCheck.check(manifest: manifest, keys: [PDFSigningTests.key.publicKey], timeStampCA: ca)
        #expect(check.passed && check.documentTimeStamped != nil && check.line.contains("the document time-stamped 20"), "\(check.line)")
        #expect(ManifestCheck.check(manifest: manifest, keys: [PDFSigningTests.key.publicKey]).passed)

        // Another record's token (here the manifest's, over another imprint) in its place fails.
        let stamped = Array(try Data(contentsOf: URL(fileURLWithPath: pdf)))
        let (signed, token) = try DocumentTimeStamp.asSigned(stamped)
        #expect(token != nil && signed.count == stamped.count && signed != stamped)
        let manifestToken = try TimeStampReply(der: Array(try Data(contentsOf: URL(fileURLWithPath: manifest + ".tsr")))).token
        try Data(try DocumentTimeStamp.adding(manifestToken, to: signed)).write(to: URL(fileURLWithPath: pdf))
        let swapped = ManifestCheck.check(manifest: manifest, keys: [PDFSigningTests.key.publicKey], timeStampCA: ca)
        #expect(swapped.problems.contains { if case .documentTimeStampInvalid("\(record.id).pdf", _) = $0 { true } else { false } }, "\(swapped.line)")
        // A byte changed in what was signed is a changed file, token or not.
        var changed = stamped
        changed[10] ^= 1
        try Data(changed).write(to: URL(fileURLWithPath: pdf))
        #expect(ManifestCheck.check(manifest: manifest, keys: [PDFSigningTests.key.publicKey]).problems == [.fileChanged("\(record.id).pdf")])
        // As signed, before its token: the file matches, but the token is missing.
        try Data(signed).write(to: URL(fileURLWithPath: pdf))
        let unstamped = ManifestCheck.check(manifest: manifest, keys: [PDFSigningTests.key.publicKey], timeStampCA: ca)
        #expect(unstamped.problems == [.documentTimeStampMissing("\(record.id).pdf")], "\(unstamped.line)")
    }

    /// The authority is down when the document is written: its imprint waits in the queue file
    /// beside the manifest's, and the next start, with the authority back, stamps both.
    @Test func aDocumentAwaitingItsTokenIsStampedAfterARestart() throws {
        let folder = try PDFSigningTests.folder()
        defer { removeScratch(folder) }
        let (certificate, _) = try PDFSigningTests.certificate(in: folder)
        let server = try TestTimeStampServer(TestTimeStampAuthority(in: folder + "/tsa"))
        defer { server.stop() }
        var record = PDFSigningTests.record
        record.document = SignedDocument(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: TestDocuments.cairo(pages: 1, in: folder)))),
                                         placement: PDFSignaturePlacement(page: 1, rect: PDFRect(72, 82, 292, 142)))
        let events = Events()
        func stamper(_ url: String) -> TimeStamper {
            TimeStamper(authority: TimeStampAuthority(url: url, timeoutSeconds: 1), folder: FolderWriter(directory: folder + "/out"),
                        queueFolder: FolderWriter(directory: folder + "/spool", fileMode: 0o600)) { events.append($0) }
        }
        let down = stamper(server.url("/slow"))
        let exporter = Exporter(directory: folder + "/out", options: ExportOptions(), evidence: Evidence(signingKey: PDFSigningTests.key, documentCertificate: certificate),
                                retrySeconds: 60, spool: SignatureSpool(directory: folder + "/spool"), timeStamper: down)
        exporter.submit(record, exportID: 1)
        let queued = "\(folder)/spool/\(record.id).tsq", pdf = "\(folder)/out/\(record.id).pdf"
        #expect(until(10) { FileManager.default.fileExists(atPath: queued) })
        exporter.stop()
        down.stop()
        let lines = (try String(contentsOfFile: queued, encoding: .utf8)).split(separator: "\n")
        let imprint = try DocumentTimeStamp.imprint(of: Array(try Data(contentsOf: URL(fileURLWithPath: pdf))))
        #expect(lines.count == 2 && lines[1] == Hex.string(imprint)[...], "\(lines)")
        #expect(try DocumentTimeStamp.asSigned(Array(try Data(contentsOf: URL(fileURLWithPath: pdf)))).token == nil)

        let back = stamper(server.url())
        #expect(until(20) { back.awaiting == 0 && events.all.contains { if case .documentStamped(record.id, _) = $0 { true } else { false } } }, "\(events.all)")
        back.stop()
        #expect(!FileManager.default.fileExists(atPath: queued))
        #expect(try DocumentTimeStamp.asSigned(Array(try Data(contentsOf: URL(fileURLWithPath: pdf)))).token != nil)
        #expect(FileManager.default.fileExists(atPath: "\(folder)/out/\(record.id).meta.json.tsr"))
    }

    /// What the authority cannot help with is not retried: a document deleted while its token
    /// was fetched (a back office collecting the folder) is not written back, and one that is
    /// no longer a signed PDF is reported once and let go, its record's own token kept.
    @Test func aDocumentThatCannotTakeItsTokenIsLetGoNotRetriedNorPutBack() throws {
        let folder = try PDFSigningTests.folder()
        defer { removeScratch(folder) }
        let (certificate, _) = try PDFSigningTests.certificate(in: folder)
        let server = try TestTimeStampServer(TestTimeStampAuthority(in: folder + "/tsa"))
        defer { server.stop() }
        let original = Array(try Data(contentsOf: URL(fileURLWithPath: TestDocuments.cairo(pages: 1, in: folder))))
        func record(_ n: Int) -> SignatureRecord {
            var record = sampleRecord()
            record.id = "20261121T170502Z-test-\(n)"
            record.document = SignedDocument(bytes: original, placement: PDFSignaturePlacement(page: 1, rect: PDFRect(72, 82, 292, 142)))
            return record
        }
        let events = Events()
        func stamper(_ path: String) -> TimeStamper {
            TimeStamper(authority: TimeStampAuthority(url: server.url(path), timeoutSeconds: 10), folder: FolderWriter(directory: folder + "/out"),
                        queueFolder: FolderWriter(directory: folder + "/spool", fileMode: 0o600)) { events.append($0) }
        }
        func exporter(_ stamper: TimeStamper) -> Exporter {
            Exporter(directory: folder + "/out", options: ExportOptions(), evidence: Evidence(signingKey: PDFSigningTests.key, documentCertificate: certificate),
                     retrySeconds: 60, spool: SignatureSpool(directory: folder + "/spool"), timeStamper: stamper)
        }
        func unkept(_ id: String, _ reason: String) -> Bool {
            events.all.contains { if case .unkept(id, let said) = $0 { said.contains(reason) } else { false } }
        }

        // Each answer comes 3 s late: the document is taken away while its own is awaited.
        let late = stamper("/late"), first = exporter(late), gone = record(1)
        first.submit(gone, exportID: 1)
        let pdf = "\(folder)/out/\(gone.id).pdf"
        #expect(until(20) { FileManager.default.fileExists(atPath: "\(folder)/out/\(gone.id).meta.json.tsr") })
        try FileManager.default.removeItem(atPath: pdf)
        #expect(until(20) { late.awaiting == 0 }, "\(events.all)")
        #expect(unkept(gone.id, "is gone") && !FileManager.default.fileExists(atPath: pdf), "\(events.all)")

        // The whole record taken (as retention sweeps it) while its first token is awaited:
        // neither token is left behind on its own.
        let swept = record(3)
        first.submit(swept, exportID: 3)
        #expect(until(20) { FileManager.default.fileExists(atPath: "\(folder)/spool/\(swept.id).tsq") })
        for name in try FileManager.default.contentsOfDirectory(atPath: folder + "/out") where name.hasPrefix(swept.id) {
            try FileManager.default.removeItem(atPath: folder + "/out/" + name)
        }
        #expect(until(20) { late.awaiting == 0 }, "\(events.all)")
        #expect(unkept(swept.id, "is gone (retention"), "\(events.all)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/out").filter { $0.hasPrefix(swept.id) } == [])

        // Written while the authority is down, then no longer a signed PDF when it is back.
        late.stop()
        first.stop()
        let down = stamper("/down"), second = exporter(down), broken = record(2)
        second.submit(broken, exportID: 2)
        #expect(until(20) { FileManager.default.fileExists(atPath: "\(folder)/spool/\(broken.id).tsq") })
        second.stop()
        down.stop()
        try Data("not a PDF".utf8).write(to: URL(fileURLWithPath: "\(folder)/out/\(broken.id).pdf"))
        let back = stamper("/")
        #expect(until(20) { back.awaiting == 0 }, "\(events.all)")
        back.stop()
        #expect(unkept(broken.id, "cannot take its time stamp"), "\(events.all)")
        #expect(FileManager.default.fileExists(atPath: "\(folder)/out/\(broken.id).meta.json.tsr"))
        #expect(!FileManager.default.fileExists(atPath: "\(folder)/spool/\(broken.id).tsq"))
    }

    /// Only the token may differ from what was signed, and only as signpad puts it there: the
    /// same CMS in lower-case hex, or bytes after it, are a changed file, though no signed byte
    /// moved; a token that is no token over this signature is named, CA or not.
    @Test func verifyTakesOnlyTheTokenAsSignpadPutsItNotATidiedCopy() throws {
        let folder = try PDFSigningTests.folder()
        defer { removeScratch(folder) }
        let (certificate, _) = try PDFSigningTests.certificate(in: folder)
        var record = PDFSigningTests.record
        record.document = SignedDocument(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: TestDocuments.cairo(pages: 1, in: folder)))),
                                         placement: PDFSignaturePlacement(page: 1, rect: PDFRect(72, 82, 292, 142)))
        let files = try SignatureEncoder.files(for: record, options: ExportOptions(), evidence: Evidence(signingKey: PDFSigningTests.key, documentCertificate: certificate),
                                               timeStampAuthority: "http://tsa.example/")
        for file in files { try Data(file.bytes).write(to: URL(fileURLWithPath: "\(folder)/\(file.name)")) }
        let manifest = "\(folder)/\(record.id).meta.json", pdf = "\(folder)/\(record.id).pdf"
        let signed = Array(try Data(contentsOf: URL(fileURLWithPath: pdf)))
        let authority = try TestTimeStampAuthority(in: folder + "/tsa")
        let token = try TimeStampReply(der: authority.reply(to: TimeStampRequest(sha256: DocumentTimeStamp.imprint(of: signed)).der)).token
        let stamped = try DocumentTimeStamp.adding(token, to: signed)
        let ca = Array(try Data(contentsOf: URL(fileURLWithPath: authority.caPEM)))
        func check(_ bytes: [UInt8]) throws -> ManifestCheck {
            try Data(bytes).write(to: URL(fileURLWithPath: pdf))
            return ManifestCheck.check(manifest: manifest, keys: [PDFSigningTests.key.publicKey], timeStampCA: ca)
        }
        #expect(try check(stamped).problems == [.timeStampMissing])
        #expect(try check(signed).problems == [.timeStampMissing, .documentTimeStampMissing("\(record.id).pdf")])
        let contents = try PDFSignatureContents(of: stamped)
        var lower = stamped
        for i in contents.digits where (65...70).contains(lower[i]) { lower[i] += 32 }
        var junk = stamped
        let after = contents.digits.lowerBound + 2 * (try PAdESTimeStamp.adding(token: token, to: PAdESTimeStamp.split(contents.der).signed)).count
        for i in after..<(after + 40) { junk[i] = UInt8(ascii: "7") }
        let notAToken = try DocumentTimeStamp.adding([0x30, 0x03, 0x04, 0x01, 0x00], to: signed)
        for (name, bytes) in [("lower-case hex", lower), ("bytes after the CMS", junk)] {
            #expect(bytes != stamped && bytes.count == stamped.count, "\(name)")
            #expect(try check(bytes).problems.contains(.fileChanged("\(record.id).pdf")), "\(name)")
        }
        try Data(notAToken).write(to: URL(fileURLWithPath: pdf))
        #expect(ManifestCheck.check(manifest: manifest, keys: [PDFSigningTests.key.publicKey]).problems
                == [.documentTimeStampInvalid("\(record.id).pdf", "it is not a time-stamp token over this document's signature")])
    }

    /// The token goes in and comes off again byte for byte, and OpenSSL reads the result as a
    /// CMS whose signer carries it as an unsigned attribute.
    @Test func theTokenComesOffAgainByteForByte() throws {
        try requirePeer(.tool("openssl"))
        let folder = try PDFSigningTests.folder()
        defer { removeScratch(folder) }
        let (certificate, _) = try PDFSigningTests.certificate(in: folder)
        let signedPath = try PDFSigningTests.sign(TestDocuments.cairo(pages: 1, in: folder), PDFSignaturePlacement(page: 1, rect: PDFRect(72, 82, 292, 142)),
                                                  certificate: certificate)
        let signed = Array(try Data(contentsOf: URL(fileURLWithPath: signedPath)))
        let authority = try TestTimeStampAuthority(in: folder + "/tsa")
        let reply = try TimeStampReply(der: authority.reply(to: TimeStampRequest(sha256: DocumentTimeStamp.imprint(of: signed)).der))
        let stamped = try DocumentTimeStamp.adding(reply.token, to: signed)
        #expect(stamped.count == signed.count)
        let (back, token) = try DocumentTimeStamp.asSigned(stamped)
        let expected = try reply.token
        #expect(back == signed && token == expected)
        #expect(try DocumentTimeStamp.asSigned(signed).token == nil)
        #expect(throws: (any Error).self) { try DocumentTimeStamp.adding(reply.token, to: stamped) }
        // A token larger than the room kept is refused, the document left as it was.
        let huge = [UInt8](repeating: 0x30, count: 20 * 1024)
        #expect(throws: DocumentTimeStamp.Failure.self) { try DocumentTimeStamp.adding(huge, to: signed) }
        let cms = try PDFSignatureContents(of: stamped).der
        try Data(cms).write(to: URL(fileURLWithPath: folder + "/cms.der"))
        let printed = try run("openssl", ["cms", "-cmsout", "-print", "-inform", "DER", "-in", folder + "/cms.der"])
        #expect(printed.status == 0 && printed.output.contains("unsignedAttrs") && printed.output.contains("id-smime-aa-timeStampToken"), "\(printed.output)")
    }
}
