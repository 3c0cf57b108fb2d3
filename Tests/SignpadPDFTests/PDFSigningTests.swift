import Foundation
import SignpadCrypto
import SignpadExport
import SignpadPDF
import SignpadTestSupport
import Testing

/// Documents signed PAdES, checked by other programs: poppler's pdfsig, qpdf and pyHanko.
@Suite struct PDFSigningTests {
    static let key: SigningKey = { try! SigningKey.generate(.p256) }()

    /// The kiosk's key's self-signed certificate, and its PEM file for the validators.
    static func certificate(in folder: String) throws -> (SigningCertificate, String) {
        let pem = try KeyCertificate.selfSigned(key, subject: "Till 3", days: 30, now: Date().timeIntervalSince1970)
        let path = "\(folder)/kiosk.crt"
        try pem.write(toFile: path, atomically: true, encoding: .utf8)
        return (try SigningCertificate(pem: Array(pem.utf8), of: key.publicKey), path)
    }

    /// A back office's certificate and key made by OpenSSL.
    static func recipient(in folder: String) throws -> (RecipientCertificate, key: String, certificate: String) {
        let office = folder + "/office.crt", officeKey = folder + "/office.key"
        let made = try run("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", officeKey, "-out", office, "-days", "30", "-subj", "/CN=Back office"])
        #expect(made.status == 0, "\(made.output)")
        return (try RecipientCertificate(pem: Array(try Data(contentsOf: URL(fileURLWithPath: office))), now: Date().timeIntervalSince1970), officeKey, office)
    }

    static func folder() throws -> String {
        try requirePeer(.pythonModule("pyhanko.sign"))
        for tool in ["pdfsig", "pdfdetach", "qpdf", "pyhanko"] { try requirePeer(.tool(tool)) }
        let path = scratch()
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func sign(_ path: String, _ placement: PDFSignaturePlacement, certificate: SigningCertificate, recipient: RecipientCertificate? = nil) throws -> String {
        let original = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let signed = try DocumentSigner.sign(original, placement: placement, record: Self.record, key: key, certificate: certificate, recipient: recipient,
                                             signedAt: 1_795_000_010)
        #expect(Array(signed.prefix(original.count)) == original, "the original bytes are a prefix")
        let out = path.replacingOccurrences(of: ".pdf", with: "-signed.pdf")
        try Data(signed).write(to: URL(fileURLWithPath: out))
        return out
    }

    static let record: SignatureRecord = {
        var record = sampleRecord()
        record.request = .init(reference: "INV-1", signer: "Dana Example", reason: "I agree to the contract")
        return record
    }()

    /// What pyHanko finds of each signature (`Tests/pdf/validate_pdf.py`), by field.
    static func pyHanko(_ signed: String, trusting certificates: [String]) throws -> [String: [String: Any]] {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("pdf/validate_pdf.py").path
        let result = try run("python3", [script, signed] + certificates.flatMap { ["--trust", $0] })
        #expect(result.status == 0, "\(result.output)")
        var found: [String: [String: Any]] = [:]
        for line in result.output.split(separator: "\n") where line.hasPrefix("{") {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
            found[object["field"] as? String ?? ""] = object
        }
        return found
    }

    /// pdfsig, qpdf and pyHanko accept the signature in `field`, which covers the whole file, at PAdES B-B.
    static func expectValid(_ signed: String, field: String, trusting certificates: [String], signatures: Int = 1) throws {
        let pdfsig = try run("pdfsig", [signed])
        #expect(pdfsig.status == 0, "\(pdfsig.output)")
        #expect(pdfsig.output.components(separatedBy: "Signature is Valid").count - 1 == signatures, "\(pdfsig.output)")
        #expect(pdfsig.output.contains("Signature Field Name: \(field)\n"), "\(pdfsig.output)")
        #expect(pdfsig.output.contains("Total document signed"), "\(pdfsig.output)")
        let qpdf = try run("qpdf", ["--check", signed])
        #expect(qpdf.status == 0 && qpdf.output.contains("No syntax or stream encoding errors found"), "\(qpdf.output)")
        let ours = try pyHanko(signed, trusting: certificates)[field]
        #expect(ours?["intact"] as? Bool == true && ours?["valid"] as? Bool == true && ours?["trusted"] as? Bool == true, "\(ours ?? [:])")
        #expect(ours?["coverage"] as? String == "ENTIRE_FILE", "\(ours ?? [:])")
        #expect(ours?["padesLevel"] as? String == "B-B", "\(ours ?? [:])")
    }

    @Test func aCairoDocumentSignedInANewFieldValidates() throws {
        let folder = try Self.folder()
        let (certificate, certificatePath) = try Self.certificate(in: folder)
        let document = TestDocuments.cairo(pages: 1, in: folder)
        let signed = try Self.sign(document, PDFSignaturePlacement(page: 1, rect: PDFRect(72, 82, 292, 142)), certificate: certificate)
        try Self.expectValid(signed, field: "Signature1", trusting: [certificatePath])
    }

    @Test func aFieldPyHankoAddedIsSignedAndValidates() throws {
        let folder = try Self.folder()
        let (certificate, certificatePath) = try Self.certificate(in: folder)
        let document = try TestDocuments.withField(TestDocuments.cairo(pages: 20, in: folder), name: "Customer", page: 20)
        let signed = try Self.sign(document, PDFSignaturePlacement(field: "Customer"), certificate: certificate)
        try Self.expectValid(signed, field: "Customer", trusting: [certificatePath])
    }

    @Test func aDocumentWithObjectStreamsIsSignedWithACrossReferenceStream() throws {
        let folder = try Self.folder()
        let (certificate, certificatePath) = try Self.certificate(in: folder)
        let plain = try TestDocuments.withField(TestDocuments.cairo(pages: 3, in: folder), name: "Customer", page: 2)
        let packed = folder + "/packed.pdf"
        let qpdf = try run("qpdf", ["--object-streams=generate", plain, packed])
        #expect(qpdf.status == 0, "\(qpdf.output)")
        let document = try PDFDocument(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: packed))))
        #expect(document.usesCrossReferenceStreams)
        let signed = try Self.sign(packed, PDFSignaturePlacement(field: "Customer"), certificate: certificate)
        try Self.expectValid(signed, field: "Customer", trusting: [certificatePath])
    }

    @Test func aSignatureAlreadyInTheDocumentStaysValid() throws {
        let folder = try Self.folder()
        let (certificate, certificatePath) = try Self.certificate(in: folder)
        let clerkKey = folder + "/clerk.key", clerkCertificate = folder + "/clerk.crt"
        let made = try run("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", clerkKey, "-out", clerkCertificate, "-days", "30",
                                       "-subj", "/CN=Clerk", "-addext", "keyUsage=critical,digitalSignature,nonRepudiation"])
        #expect(made.status == 0, "\(made.output)")
        let document = TestDocuments.cairo(pages: 2, in: folder)
        let clerkSigned = folder + "/clerk-signed.pdf"
        let clerk = try run("pyhanko", ["sign", "addsig", "--field", "1/320,82,520,142/Clerk", "--use-pades", "pemder", "--key", clerkKey,
                                        "--cert", clerkCertificate, "--no-pass", document, clerkSigned])
        #expect(clerk.status == 0, "\(clerk.output)")
        // With the biometric container too: it goes in without touching the catalog's /Names,
        // which validators take for a change an earlier signature does not allow.
        let (recipient, _, _) = try Self.recipient(in: folder)
        let signed = try Self.sign(clerkSigned, PDFSignaturePlacement(page: 1, rect: PDFRect(72, 82, 292, 142)), certificate: certificate, recipient: recipient)
        try Self.expectValid(signed, field: "Signature1", trusting: [certificatePath, clerkCertificate], signatures: 2)
        let earlier = try Self.pyHanko(signed, trusting: [certificatePath, clerkCertificate])["Clerk"]
        #expect(earlier?["intact"] as? Bool == true && earlier?["valid"] as? Bool == true && earlier?["bottomLine"] as? Bool == true, "\(earlier ?? [:])")
        #expect(earlier?["coverage"] as? String == "ENTIRE_REVISION", "\(earlier ?? [:])")
        // Signed again by signpad: its own first signature stays valid as well.
        let twice = try Self.sign(signed, PDFSignaturePlacement(page: 2, rect: PDFRect(72, 82, 292, 142)), certificate: certificate, recipient: recipient)
        let all = try Self.pyHanko(twice, trusting: [certificatePath, clerkCertificate])
        for field in ["Clerk", "Signature1", "Signature2"] {
            #expect(all[field]?["bottomLine"] as? Bool == true, "\(field): \(all[field] ?? [:])")
        }
    }

    @Test func theBiometricContainerDecryptsWithOpenSSLToTheInkMLAndTheDocumentsHash() throws {
        let folder = try Self.folder()
        let (certificate, certificatePath) = try Self.certificate(in: folder)
        let (recipient, officeKey, office) = try Self.recipient(in: folder)
        let document = TestDocuments.cairo(pages: 1, in: folder)
        let signed = try Self.sign(document, PDFSignaturePlacement(page: 1, rect: PDFRect(72, 82, 292, 142)), certificate: certificate, recipient: recipient)
        try Self.expectValid(signed, field: "Signature1", trusting: [certificatePath])
        let listed = try run("pdfdetach", ["-list", signed])
        #expect(listed.output.contains("\(Self.record.id).biometrics.json.p7m"), "\(listed.output)")
        let sealed = folder + "/container.p7m"
        let saved = try run("pdfdetach", ["-save", "1", "-o", sealed, signed])
        #expect(saved.status == 0, "\(saved.output)")
        let opened = try run("openssl", ["cms", "-decrypt", "-inform", "DER", "-in", sealed, "-inkey", officeKey, "-recip", office])
        #expect(opened.status == 0, "\(opened.output)")
        let container = try JSONSerialization.jsonObject(with: Data(opened.output.utf8)) as? [String: Any] ?? [:]
        #expect(container["inkml"] as? String == InkMLEncoder.encode(Self.record))
        #expect(container["documentSha256"] as? String == SHA256.hex(Array(try Data(contentsOf: URL(fileURLWithPath: document)))))
        #expect(container["field"] as? String == "Signature1")
        #expect(container["reference"] as? String == "INV-1")
        let iso = Data(base64Encoded: container["iso19794_7"] as? String ?? "") ?? Data()
        #expect(Array(iso.prefix(4)) == Array("SDI\0".utf8))
    }

    @Test func aByteChangedInTheSignedRangeIsCaughtByEveryValidator() throws {
        let folder = try Self.folder()
        let (certificate, certificatePath) = try Self.certificate(in: folder)
        let signed = try Self.sign(TestDocuments.cairo(pages: 1, in: folder), PDFSignaturePlacement(page: 1, rect: PDFRect(72, 82, 292, 142)), certificate: certificate)
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: signed)))
        bytes[10] ^= 1  // the header's binary comment, inside the first range
        try Data(bytes).write(to: URL(fileURLWithPath: signed))
        let pdfsig = try run("pdfsig", [signed])
        #expect(!pdfsig.output.contains("Signature is Valid") && pdfsig.output.contains("Digest Mismatch"), "\(pdfsig.output)")
        let result = try run("python3", [URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("pdf/validate_pdf.py").path,
                                         signed, "--trust", certificatePath])
        #expect(result.status == 1 && result.output.contains("\"intact\": false"), "\(result.output)")
    }

    @Test func aDocumentThatCannotBeSignedAtDoneHoldsBackNoneOfTheSignaturesFiles() throws {
        var record = Self.record
        record.document = SignedDocument(bytes: Array("not a PDF".utf8), placement: PDFSignaturePlacement(page: 1, rect: PDFRect(72, 82, 292, 142)))
        let (certificate, _) = try Self.certificate(in: try Self.folder())
        let files = try SignatureEncoder.files(for: record, options: ExportOptions(), evidence: Evidence(signingKey: Self.key, documentCertificate: certificate))
        #expect(!files.contains { $0.name.hasSuffix(".pdf") })
        #expect(files.count == ExportFormat.defaults.count + SignatureEncoder.sealCount)
        let manifest = try #require(files.last)
        let text = String(decoding: manifest.bytes, as: UTF8.self)
        #expect(text.contains("\"documentNotSigned\" : \"the file does not start with \\\"%PDF-\\\" (at byte 0)\""), "\(text)")
    }

    @Test func withoutARecipientNothingBiometricGoesIn() throws {
        let folder = try Self.folder()
        let (certificate, _) = try Self.certificate(in: folder)
        let signed = try Self.sign(TestDocuments.cairo(pages: 1, in: folder), PDFSignaturePlacement(page: 1, rect: PDFRect(72, 82, 292, 142)), certificate: certificate)
        let listed = try run("pdfdetach", ["-list", signed])
        #expect(listed.status == 0 && listed.output.contains("0 embedded files"), "\(listed.output)")
    }
}
