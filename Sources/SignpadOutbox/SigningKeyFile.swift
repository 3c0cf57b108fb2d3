#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import SignpadCrypto
import SignpadExport

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
/// `rotate` leaves its public key beside the new one (`<key>.retired-<16 hex digits of its
/// fingerprint>.pem`), so signatures made with it can still be checked.
///
/// What is at the path is checked before a byte is read or written (`checkFile`): whoever can
/// read the key can sign as the kiosk, and whoever can put a file or a link there decides which
/// kiosk it signs as. A key is made only where nothing is, not even a link that leads nowhere:
/// a new key where one was expected changes the kiosk's identity without a word.
public struct SigningKeyFile: Sendable {
    public let path: String
    /// The user the packaged unit runs signpad as. Besides root and the user running now, the
    /// owner the key may have: `signpad key show` run by root reads the service's key.
    public let serviceUser: String

    public init(path: String, serviceUser: String = "signpad") {
        self.path = path
        self.serviceUser = serviceUser
    }

    private var folder: FolderWriter {
        let url = URL(fileURLWithPath: path)
        return FolderWriter(directory: url.deletingLastPathComponent().path, createsFolder: false, fileMode: 0o600, role: "the key's folder")
    }

    private var name: String { URL(fileURLWithPath: path).lastPathComponent }

    /// Checks what is at the key's path without reading or making anything: false when nothing
    /// is there; true for a regular file, not a symbolic link, with no access for its group or
    /// others, owned by root, the service user or the user running now; else why not.
    public func checkFile() throws(EvidenceError) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            let code = errno
            if code == ENOENT { return false }
            throw EvidenceError(path: path, reason: "the signing key cannot be looked at (\(String(cString: strerror(code)))); expected its folder to be open to the user signpad runs as")
        }
        let kind = info.st_mode & S_IFMT
        if kind == S_IFLNK {
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)).map { " to \($0)" } ?? ""
            throw EvidenceError(path: path, reason: "is a symbolic link\(target); expected the signing key itself, a regular file (a link could make this kiosk sign as another, or have a new key made where it leads): put the key file itself here")
        }
        guard kind == S_IFREG else {
            throw EvidenceError(path: path, reason: "is \(kind == S_IFDIR ? "a folder" : "a special file"), not a regular file; expected the signing key, PKCS #8 PEM")
        }
        let mode = info.st_mode & 0o7777
        guard mode & 0o077 == 0 else {
            throw EvidenceError(path: path, reason: "has mode 0\(String(mode, radix: 8)): its group or others may read or replace it; expected 0600, the owner's alone (chmod 600 \(path)); if others have read it, it is no longer this kiosk's alone: signpad key rotate")
        }
        let service = getpwnam(serviceUser).map { $0.pointee.pw_uid }
        guard info.st_uid == 0 || info.st_uid == geteuid() || info.st_uid == service else {
            let owner = getpwuid(info.st_uid).map { " (\(String(cString: $0.pointee.pw_name)))" } ?? ""
            throw EvidenceError(path: path, reason: "is owned by uid \(info.st_uid)\(owner); expected the \(serviceUser) user, root, or the user signpad runs as (uid \(geteuid())): chown \(serviceUser) \(path)")
        }
        return true
    }

    /// The key, its file checked first (`checkFile`); nil when there is no file. Makes nothing.
    public func load() throws(EvidenceError) -> SigningKey? {
        guard try checkFile() else { return nil }
        let bytes: [UInt8]
        do {
            bytes = try BoundedFile.read(path, limit: BoundedFile.keyBytes)
        } catch {
            throw EvidenceError(path: path, reason: "the signing key cannot be read (\(error)); it must be readable by the user signpad runs as")
        }
        do {
            return try SigningKey(pem: bytes)
        } catch {
            throw EvidenceError(path: path, reason: "\(error); move the file away to have a new key made (its signatures then need the old public key to be checked)")
        }
    }

    /// The key, made (and written 0600) if nothing is at its path yet; `created` says it was.
    public func loadOrCreate(_ algorithm: SigningKey.FileAlgorithm = .ed25519) throws(EvidenceError) -> (key: SigningKey, created: Bool) {
        if let key = try load() { return (key, false) }
        return (try makeNew(algorithm), true)
    }

    /// Replaces the key with a new one; the old public key is kept first, beside it. Returns the
    /// new key and the retired public key's path (nil when there was no key).
    /// The new key keeps the old one's owner: rotated by root, it is still the signpad user's to read.
    public func rotate(to algorithm: SigningKey.FileAlgorithm = .ed25519) throws(EvidenceError) -> (key: SigningKey, retired: String?) {
        var retired: String?
        var info = stat()
        let owner = stat(path, &info) == 0 ? (uid: info.st_uid, gid: info.st_gid) : nil
        if let old = try load() {
            let retiredName = "\(name).retired-\(old.publicKey.fingerprint.prefix(16)).pem"
            do {
                try FolderWriter(directory: folder.directory, createsFolder: false, fileMode: 0o644, owner: owner, role: "the key's folder")
                    .write([(retiredName, Array(old.publicKey.pem.utf8))])
            } catch {
                throw EvidenceError(path: path, reason: "the old public key cannot be kept beside it, so the key was not replaced: \(error)")
            }
            retired = "\(folder.directory)/\(retiredName)"
        }
        guard retired != nil else { return (try makeNew(algorithm), nil) }
        return (try writeNew(algorithm, failing: "the new key cannot be written", owner: owner), retired)
    }

    /// A new key, written where nothing is: to a temporary file, then linked to its name, which
    /// fails if anything (a link to nowhere included) appeared there meanwhile.
    private func makeNew(_ algorithm: SigningKey.FileAlgorithm) throws(EvidenceError) -> SigningKey {
        let (key, pem) = try generate(algorithm)
        let directory = folder.directory
        func failed(_ doing: String, _ code: Int32) -> EvidenceError {
            let why = code == ENOENT ? "its folder \(directory) is missing" : code == EACCES || code == EROFS ? "its folder \(directory) is not writable" : String(cString: strerror(code))
            return EvidenceError(path: path, reason: "no signing key yet, and it cannot be made (\(doing): \(why))")
        }
        let temporary = "\(directory)/\(FolderWriter.temporaryPrefix)\(name)-\(getpid())"
        unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failed("creating \(temporary)", errno) }
        defer { unlink(temporary) }
        var written = 0
        while written < pem.count {
            let n = pem[written...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                let code = errno
                close(fd)
                throw failed("writing \(temporary)", code)
            }
            written += n
        }
        guard fsync(fd) == 0 else {
            let code = errno
            close(fd)
            throw failed("writing \(temporary)", code)
        }
        close(fd)
        guard link(temporary, path) == 0 else {
            let code = errno
            if code == EEXIST { throw EvidenceError(path: path, reason: "something appeared at the key's path while a new key was made; nothing was replaced: start again") }
            throw failed("linking it in place", code)
        }
        let folderFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderFD >= 0 {
            fsync(folderFD)
            close(folderFD)
        }
        return key
    }

    /// A new key, written in place of the one `rotate` retired (owned by `owner` when given);
    /// `failing` says what a failed write means.
    private func writeNew(_ algorithm: SigningKey.FileAlgorithm, failing: String, owner: (uid: uid_t, gid: gid_t)? = nil) throws(EvidenceError) -> SigningKey {
        let (key, pem) = try generate(algorithm)
        do {
            try FolderWriter(directory: folder.directory, createsFolder: false, fileMode: 0o600, owner: owner, role: "the key's folder").write([(name, pem)])
        } catch {
            throw EvidenceError(path: path, reason: "\(failing): \(error)")
        }
        return key
    }

    /// A new key and its file's bytes.
    private func generate(_ algorithm: SigningKey.FileAlgorithm) throws(EvidenceError) -> (SigningKey, [UInt8]) {
        do {
            let key = try SigningKey.generate(algorithm)
            guard let pem = key.pem else { throw CryptoError("writing the new key", reason: "it has no PEM form") }
            return (key, pem)
        } catch {
            throw EvidenceError(path: path, reason: "\(error)")
        }
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
            guard let data = try? BoundedFile.read(file, limit: BoundedFile.keyBytes), let key = try? PublicKey.all(inPEM: data).first else { return nil }
            return (file, key)
        }
    }

}

/// The back office's certificate, read and checked as at start.
public enum RecipientCertificateFile {
    public static func load(_ path: String, now: Double = Date().timeIntervalSince1970) throws(EvidenceError) -> RecipientCertificate {
        let data: [UInt8]
        do { data = try BoundedFile.read(path, limit: BoundedFile.certificateBytes) } catch {
            throw EvidenceError(path: path, reason: "the recipient certificate cannot be read (\(error)); expected the back office's X.509 certificate, PEM, readable by signpad")
        }
        do {
            return try RecipientCertificate(pem: data, now: now)
        } catch {
            throw EvidenceError(path: path, reason: "\(error)")
        }
    }
}

/// The signing key's certificate documents are signed under, read and checked against the key.
public enum DocumentCertificateFile {
    public static func load(_ path: String, for key: PublicKey, now: Double = Date().timeIntervalSince1970) throws(EvidenceError) -> SigningCertificate {
        let data: [UInt8]
        do { data = try BoundedFile.read(path, limit: BoundedFile.certificateBytes) } catch {
            throw EvidenceError(path: path, reason: "the document certificate cannot be read (\(error)); expected the signing key's X.509 certificate, PEM, readable by signpad (signpad key certificate makes one)")
        }
        let certificate: SigningCertificate
        do { certificate = try SigningCertificate(pem: data, of: key) } catch { throw EvidenceError(path: path, reason: "\(error)") }
        guard now < certificate.notAfter else {
            throw EvidenceError(path: path, reason: "the document certificate ended \(ISO8601.string(certificate.notAfter)); a document signed under it would not validate: make or ask for a new one (signpad key certificate, signpad key csr)")
        }
        return certificate
    }
}
