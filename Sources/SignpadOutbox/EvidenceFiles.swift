import Foundation
import SignpadCrypto
import SignpadExport

extension EvidenceOptions {
    /// The back office's certificate, read and checked (valid now, a key CMS can encrypt to);
    /// nil when none is set. `SystemCheck` refuses the configuration when it fails.
    public func recipient(now: Double = Date().timeIntervalSince1970) throws(EvidenceError) -> RecipientCertificate? {
        try recipientCertificate.map { path throws(EvidenceError) in try RecipientCertificateFile.load(path, now: now) }
    }

    /// What the exports need: the signing key at `keyPath` (`export.signing_key` when nil),
    /// made if missing, and the recipient certificate.
    public func load(keyPath: String? = nil) throws(EvidenceError) -> (evidence: Evidence, createdKey: Bool) {
        let recipient = try recipient()
        let (key, created) = try SigningKeyFile(path: keyPath ?? signingKey).loadOrCreate()
        return (Evidence(signingKey: key, recipient: recipient, encryptsImages: encryptImages), created)
    }
}
