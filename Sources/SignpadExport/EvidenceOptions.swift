/// What the evidence takes from the configuration: the kiosk's key and the back office's
/// certificate, by path (`SignpadOutbox` reads them: `load`).
public struct EvidenceOptions: Equatable, Sendable {
    /// The kiosk's Ed25519 key, which signs each manifest; made at first start (`export.signing_key`).
    public var signingKey = "/var/lib/signpad/signing.key"
    /// Whether the file or a --set gave `export.signing_key`: `replay` and `demo` otherwise keep a
    /// key of their own in the output folder.
    public var signingKeyGiven = false
    /// The back office's certificate (PEM) the biometric files are sealed to; nil: none, in clear.
    public var recipientCertificate: String?
    /// With a recipient, the PNG and SVG are sealed too (`export.encrypt_images`).
    public var encryptImages = false

    public init() {}
}
