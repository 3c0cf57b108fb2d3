#if canImport(Glibc)
import Glibc
#endif
import Foundation
import SignpadCrypto

/// Why the kiosk's key or the back office's certificate cannot be used: the file, and what to do.
public struct EvidenceError: Error, CustomStringConvertible, Equatable {
    public var path: String
    public var reason: String

    public var description: String { "\(path): \(reason)" }

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
}

/// The kiosk's signing key on disk: PKCS #8 PEM, 0600, made at first use. A key replaced by
/// `rotate` leaves its public key beside the new one (`<key>.retired-<fingerprint>.pem`), so
/// signatures made with it can still be checked.
public struct SigningKeyFile: Sendable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    private var folder: FolderWriter {
        let url = URL(fileURLWithPath: path)
        return FolderWriter(directory: url.deletingLastPathComponent().path, createsFolder: false, fileMode: 0o600)
    }

    private var name: String { URL(fileURLWithPath: path).lastPathComponent }

    /// The key; nil when there is no file.
    public func load() throws(EvidenceError) -> SigningKey? {
        let bytes: [UInt8]
        do {
            bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            return nil
        } catch {
            throw EvidenceError(path: path, reason: "the signing key cannot be read (\(Self.reason(error))); it must be readable by the user signpad runs as")
        }
        do {
            return try SigningKey(pem: bytes)
        } catch {
            throw EvidenceError(path: path, reason: "\(error); move the file away to have a new key made (its signatures then need the old public key to be checked)")
        }
    }

    /// The key, made (and written 0600) if there is none yet; `created` says it was.
    public func loadOrCreate() throws(EvidenceError) -> (key: SigningKey, created: Bool) {
        if let key = try load() { return (key, false) }
        return (try writeNew(failing: "no signing key yet, and it cannot be made"), true)
    }

    /// Replaces the key with a new one; the old public key is kept first, beside it. Returns the
    /// new key and the retired public key's path (nil when there was no key).
    /// The new key keeps the old one's owner: rotated by root, it is still the signpad user's to read.
    public func rotate() throws(EvidenceError) -> (key: SigningKey, retired: String?) {
        var retired: String?
        var info = stat()
        let owner = stat(path, &info) == 0 ? (uid: info.st_uid, gid: info.st_gid) : nil
        if let old = try load() {
            let retiredName = "\(name).retired-\(old.publicKey.fingerprint.prefix(16)).pem"
            do {
                try FolderWriter(directory: folder.directory, createsFolder: false, fileMode: 0o644, owner: owner)
                    .write([(retiredName, Array(old.publicKey.pem.utf8))])
            } catch {
                throw EvidenceError(path: path, reason: "the old public key cannot be kept beside it, so the key was not replaced: \(error)")
            }
            retired = "\(folder.directory)/\(retiredName)"
        }
        return (try writeNew(failing: "the new key cannot be written", owner: owner), retired)
    }

    /// A new key, written in place of any other (owned by `owner` when given); `failing` says
    /// what a failed write means.
    private func writeNew(failing: String, owner: (uid: uid_t, gid: gid_t)? = nil) throws(EvidenceError) -> SigningKey {
        let key: SigningKey
        do { key = try SigningKey.generate() } catch { throw EvidenceError(path: path, reason: "\(error)") }
        do {
            try FolderWriter(directory: folder.directory, createsFolder: false, fileMode: 0o600, owner: owner).write([(name, key.pem)])
        } catch {
            throw EvidenceError(path: path, reason: "\(failing): \(error)")
        }
        return key
    }

    /// The public keys of the keys `rotate` replaced, the oldest retired first.
    public func retiredKeys() -> [(path: String, key: PublicKey)] {
        let prefix = "\(name).retired-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.directory) else { return [] }
        func retiredAt(_ name: String) -> Date {
            (try? FileManager.default.attributesOfItem(atPath: "\(folder.directory)/\(name)")[.modificationDate] as? Date) ?? .distantPast
        }
        let retired = names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".pem") }.map { ($0, retiredAt($0)) }
        return retired.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.map(\.0).compactMap { name in
            let file = "\(folder.directory)/\(name)"
            guard let data = FileManager.default.contents(atPath: file), let key = try? PublicKey.all(inPEM: Array(data)).first else { return nil }
            return (file, key)
        }
    }

    static func reason(_ error: Error) -> String {
        if let cocoa = error as? CocoaError, let underlying = cocoa.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return "\(error.localizedDescription)"
    }
}

/// The back office's certificate, read and checked as at start.
public enum RecipientCertificateFile {
    public static func load(_ path: String, now: Double = Date().timeIntervalSince1970) throws(EvidenceError) -> RecipientCertificate {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw EvidenceError(path: path, reason: "the recipient certificate cannot be read (missing, or not readable by signpad); expected the back office's X.509 certificate, PEM")
        }
        do {
            return try RecipientCertificate(pem: Array(data), now: now)
        } catch {
            throw EvidenceError(path: path, reason: "\(error)")
        }
    }
}
