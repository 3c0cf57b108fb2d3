import SignpadCrypto

/// What makes a signature's files evidence: the kiosk's signature over the manifest, and the
/// back office's certificate that the biometric data (and, if asked, the images) is sealed to.
public struct Evidence: Sendable {
    public var signingKey: SigningKey
    /// nil: every file in clear.
    public var recipient: RecipientCertificate?
    /// With a recipient, the PNG and SVG are sealed too.
    public var encryptsImages: Bool
    /// The certificate of the signing key that documents are signed under; nil: no documents.
    public var documentCertificate: SigningCertificate?

    public init(signingKey: SigningKey, recipient: RecipientCertificate? = nil, encryptsImages: Bool = false, documentCertificate: SigningCertificate? = nil) {
        self.signingKey = signingKey
        self.recipient = recipient
        self.encryptsImages = encryptsImages
        self.documentCertificate = documentCertificate
    }

    /// The recipient to seal to at `now` (seconds since 1970): nil for none; one that has expired
    /// is refused, as the back office may no longer hold its key, and nothing is written in clear instead.
    public func recipient(forSealingAt now: Double) throws(CertificateExpired) -> RecipientCertificate? {
        guard let recipient else { return nil }
        guard now < recipient.notAfter else { throw CertificateExpired(subject: recipient.subject, notAfter: recipient.notAfter) }
        return recipient
    }

    /// Whether a format's file is sealed to the recipient. InkML, signature_pad JSON and the ISO
    /// record (bare or in CBEFF) hold the pen's path in time (x, y, t, pressure): biometric data.
    public func seals(_ format: ExportFormat) -> Bool {
        guard recipient != nil else { return false }
        switch format {
        case .inkml, .json, .iso19794_7, .cbeff: return true
        case .png, .svg: return encryptsImages
        }
    }

    /// The name a sealed file gets after its own.
    public static let envelopeSuffix = ".p7m"
    /// The name of a manifest's detached signature after the manifest's.
    public static let signatureSuffix = ".sig"
}
