import FoundationEssentials
import SignpadCrypto
import SignpadVocabulary

/// Everything one signature becomes: the chosen formats, then the metadata file naming them.
public enum SignatureEncoder {
    public static func newID(at seconds: Double) -> String {
        ISO8601.basic(seconds) + "-" + UUID().uuidString.lowercased()
    }

    /// What the PNG and the SVG say of themselves, so one filed apart from its metadata still
    /// says what it is: PNG's registered keywords where one fits (Title, Creation Time, Source:
    /// the device), and Kiosk.
    static func imageText(_ record: SignatureRecord) -> [(keyword: String, value: String)] {
        var text = [("Title", record.id), ("Creation Time", ISO8601.string(record.startedAt)), ("Source", record.device), ("Kiosk", record.settings.kiosk)]
        if let request = record.request {
            text.append(("Reference", request.reference))
            if let title = request.title { text.append(("Shown", ([title] + request.lines).joined(separator: "\n"))) }
            else if !request.lines.isEmpty { text.append(("Shown", request.lines.joined(separator: "\n"))) }
            if let signer = request.signer { text.append(("Author", signer)) }
            if let reason = request.reason { text.append(("Reason", reason)) }
            if let hash = request.documentSha256 { text.append(("Document SHA-256", hash)) }
        }
        return text
    }

    /// Files in the order they must appear: the manifest's signature and the manifest last
    /// (`sealCount` of them), so a reader that sees the manifest sees all. `now` (seconds since
    /// 1970) is when they are sealed: a recipient certificate expired then is refused.
    /// `timeStampAuthority`, the URL a token will be asked of, is named in the manifest.
    public static func files(for record: SignatureRecord, options: ExportOptions, evidence: Evidence, timeStampAuthority: String? = nil,
                             now: Double = Date().timeIntervalSince1970) throws -> [ExportFile] {
        let recipient = try evidence.recipient(forSealingAt: now)
        var files: [ExportFile] = []
        let image = SignatureImage(record.signature, pen: record.settings.pen, options: options, inkArea: record.inkArea)
        let ink = record.settings.inkColor
        lazy var isoRecord = ISOSignatureEncoder.record(record).bytes()
        for format in options.formats {
            var bytes: [UInt8]
            switch format {
            case .png: bytes = image.png(transparent: options.transparent, ink: ink, text: imageText(record))
            case .svg: bytes = Array(SVGEncoder.encode(image, ink: ink, transparent: options.transparent, text: imageText(record)).utf8)
            case .inkml: bytes = Array(InkMLEncoder.encode(record).utf8)
            case .json: bytes = try SignaturePadJSON.encode(record)
            case .iso19794_7: bytes = isoRecord
            case .cbeff: bytes = Array(CBEFFRecord.xml(wrapping: isoRecord, record: record).utf8)
            }
            var name = "\(record.id).\(format.fileSuffix)"
            if evidence.seals(format), let recipient {
                bytes = try recipient.envelope(bytes)
                name += Evidence.envelopeSuffix
            }
            files.append(ExportFile(name: name, bytes: bytes))
        }
        // The document is signed once it was taken, read through and tried; should it fail here
        // all the same, the signature is not lost with it: its other files go out, and the
        // manifest says why there is no PDF.
        var documentNotSigned: String?
        if let document = record.document {
            do {
                guard let certificate = evidence.documentCertificate else { throw DocumentCertificateMissing() }
                let signed = try DocumentSigner.sign(document.bytes, placement: document.placement, record: record, key: evidence.signingKey, certificate: certificate,
                                                     recipient: recipient, signedAt: record.endedAt)
                files.append(ExportFile(name: "\(record.id).\(documentSuffix)", bytes: signed))
            } catch {
                documentNotSigned = "\(error)"
            }
        }
        let metadata = SignatureMetadata(
            id: record.id, kiosk: record.settings.kiosk, captureStart: ISO8601.string(record.startedAt), captureEnd: ISO8601.string(record.endedAt),
            device: record.device, screen: .init(width: record.screenWidth, height: record.screenHeight),
            strokes: record.signature.strokes.count, samples: record.signature.sampleCount,
            files: Dictionary(uniqueKeysWithValues: files.map { ($0.name, SignatureMetadata.FileEntry(sha256: SHA256.hex($0.bytes), bytes: $0.bytes.count)) }),
            request: record.request,
            signingKey: .init(algorithm: evidence.signingKey.publicKey.algorithm.rawValue, sha256: evidence.signingKey.publicKey.fingerprint),
            encryptedTo: evidence.recipient.map { .init(sha256: $0.fingerprint, subject: $0.subject, cipher: SignatureMetadata.Recipient.aes256CBC) },
            timeStampAuthority: timeStampAuthority,
            documentTimeStampAuthority: files.contains { $0.name == "\(record.id).\(documentSuffix)" } ? timeStampAuthority : nil,
            documentNotSigned: documentNotSigned,
            documentShown: record.document?.review)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let manifest = Array(try encoder.encode(metadata))
        let name = record.id + manifestSuffix
        files.append(ExportFile(name: name + Evidence.signatureSuffix, bytes: try evidence.signingKey.sign(manifest)))
        files.append(ExportFile(name: name, bytes: manifest))
        return files
    }

    /// The manifest's name after the signature's id.
    public static let manifestSuffix = ".meta.json"

    /// The signed document's name after the signature's id and a dot.
    public static let documentSuffix = "pdf"

    /// The files at the end of `files(for:)` that go in only once every file before them is durable.
    public static let sealCount = 2
}

/// One file of a signature, as it goes into the export folder.
public struct ExportFile: Equatable, Sendable {
    public var name: String
    public var bytes: [UInt8]

    public init(name: String, bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
    }
}

/// A record with a document, and no certificate to sign it under (`export.document_certificate`).
public struct DocumentCertificateMissing: Error, CustomStringConvertible {
    public var description: String { "the signature has a document to sign, and export.document_certificate is not set" }
}
