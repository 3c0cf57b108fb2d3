import SignpadCrypto
import SignpadPDF

/// A point of sale's document signed with a signature: one incremental update holding the
/// field's ink, the sealed biometric container associated with it (`BiometricContainer`), and
/// a PAdES B-B signature by the kiosk's P-256 key under its document certificate.
public enum DocumentSigner {
    /// Bytes kept for the CMS: the chain, the signature, and room for a time-stamp token
    /// (`DocumentTimeStamp`), which holds the authority's certificates: public authorities'
    /// tokens run to 6 KiB and more.
    static func reservedBytes(_ certificate: SigningCertificate) -> Int {
        certificate.chain.reduce(0) { $0 + $1.count } + 16 * 1024
    }

    public static func sign(_ document: [UInt8], placement: PDFSignaturePlacement, record: SignatureRecord, key: SigningKey, certificate: SigningCertificate,
                            recipient: RecipientCertificate?, signedAt: Double) throws -> [UInt8] {
        let pdf = try PDFDocument(bytes: document)
        let pages = try pdf.pages()
        let target = try pdf.target(placement, pages: pages)
        let appearance = DocumentAppearance.content(record, box: target.rect, signedAt: signedAt)
        // Without a recipient nothing biometric goes in: only the visible ink.
        let attachment = try recipient.map {
            PDFSignatureContent.Attachment(name: "\(record.id).biometrics.json.p7m", mimeType: "application/pkcs7-mime",
                                           description: "The signature's time series, sealed to the back office's certificate",
                                           bytes: try BiometricContainer(record, documentSha256: SHA256.hex(document), field: target.name).sealed(to: $0))
        }
        let content = PDFSignatureContent(appearance: appearance.bytes, standardFonts: [DocumentAppearance.font: "Helvetica"], signingTime: ISO8601.pdfDate(signedAt),
                                          reason: record.request?.reason, signer: record.request?.signer, location: record.settings.kiosk.isEmpty ? nil : record.settings.kiosk,
                                          attachment: attachment)
        return try PDFSigner.sign(pdf, at: target, pages: pages, content: content, reserved: reservedBytes(certificate)) { before, after in
            try PAdESSignature.signedData(digest: SHA256.digest(parts: [before, after]), key: key, certificate: certificate)
        }
    }
}
