import SignpadCrypto

/// What the evidence takes from the configuration: the kiosk's key and the back office's
/// certificate, by path (`SignpadOutbox` reads them: `load`).
public struct EvidenceOptions: Equatable, Sendable {
    /// The kiosk's key, which signs each manifest (`export.signing_key`): an Ed25519 key file,
    /// made at first start, or a P-256 key a TPM holds (`tpm2:handle:0x81000100`).
    public var signingKey = "/var/lib/signpad/signing.key"
    /// The TPM handle `signingKey` names; nil for a file.
    public var signingKeyTPM: TPMHandle? { TPMHandle(configured: signingKey) }
    /// Whether the file or a --set gave `export.signing_key`: `replay` and `demo` otherwise keep a
    /// key of their own in the output folder.
    public var signingKeyGiven = false
    /// The back office's certificate (PEM) the biometric files are sealed to; nil: none, in clear.
    public var recipientCertificate: String?
    /// The signing key's certificate (PEM, its chain after it) that documents are signed under;
    /// nil: no documents (`export.document_certificate`).
    public var documentCertificate: String?
    /// With a recipient, the PNG and SVG are sealed too (`export.encrypt_images`).
    public var encryptImages = false

    public init() {}
}
