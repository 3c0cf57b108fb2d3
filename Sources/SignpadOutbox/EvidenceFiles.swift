import FoundationEssentials
import SignpadCrypto
import SignpadExport

extension EvidenceOptions {
    /// The back office's certificate, read and checked (valid now, a key CMS can encrypt to);
    /// nil when none is set. `SystemCheck` refuses the configuration when it fails.
    public func recipient(now: Double = Date().timeIntervalSince1970) throws(EvidenceError) -> RecipientCertificate? {
        try recipientCertificate.map { path throws(EvidenceError) in try RecipientCertificateFile.load(path, now: now) }
    }

    /// What the exports need: the signing key at `keyPath` (`export.signing_key` when nil),
    /// made if missing, the recipient certificate and the document certificate, the key's.
    public func load(keyPath: String? = nil) throws(EvidenceError) -> (evidence: Evidence, createdKey: Bool) {
        let recipient = try recipient()
        let (key, created) = try Self.signingKey(at: keyPath ?? signingKey)
        let document = try documentCertificate.map { path throws(EvidenceError) in try DocumentCertificateFile.load(path, for: key.publicKey) }
        return (Evidence(signingKey: key, recipient: recipient, encryptsImages: encryptImages, documentCertificate: document), created)
    }

    /// The key `location` names: a TPM's (`tpm2:handle:…`), which must answer, as a file is
    /// never put in its place; or a file's, made if missing (`SigningKeyFile`).
    public static func signingKey(at location: String) throws(EvidenceError) -> (key: SigningKey, created: Bool) {
        guard let handle = TPMHandle(configured: location) else { return try SigningKeyFile(path: location).loadOrCreate() }
        do {
            return (try SigningKey(tpm: handle), false)
        } catch {
            throw EvidenceError(path: location, reason: "\(error)")
        }
    }

    /// The public keys of the keys `key rotate` replaced, oldest first; none for a TPM's key,
    /// which is not rotated.
    public var retiredKeys: [(path: String, key: PublicKey)] {
        signingKeyTPM == nil ? SigningKeyFile(path: signingKey).retiredKeys() : []
    }
}
