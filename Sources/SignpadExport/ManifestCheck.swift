import FoundationEssentials
import Glibc
import SignpadCrypto
import SignpadVocabulary

/// `signpad verify`'s work on one signature: its manifest's signature against the keys a back
/// office pins, its name and each file's against its id, then each file it names, by size and
/// SHA-256.
public struct ManifestCheck: Equatable, Sendable {
    public enum Problem: Equatable, Sendable, CustomStringConvertible {
        case manifestUnreadable(String)
        case signatureMissing
        /// No given key verifies the manifest's signature.
        case signatureInvalid
        /// The key that verifies it is not the one the manifest names.
        case namesAnotherKey(String)
        case fileMissing(String)
        case fileChanged(String)
        /// The manifest's own name, or a file it lists, is not `<id>.…`: a signed record copied
        /// under another sale's name, or one claiming another's file.
        case notNamedFromID(name: String, id: String)
        /// Asked to check its time stamp (`--tsa-ca`): none beside the manifest, or one that fails.
        case timeStampMissing
        case timeStampInvalid(String)
        /// Asked to check time stamps: the signed document's own signature carries none (PAdES
        /// B-T), or one that fails.
        case documentTimeStampMissing(String)
        case documentTimeStampInvalid(String, String)

        var isTimeStampMissing: Bool {
            switch self {
            case .timeStampMissing, .documentTimeStampMissing: true
            default: false
            }
        }

        var isTimeStampProblem: Bool {
            switch self {
            case .timeStampMissing, .documentTimeStampMissing, .timeStampInvalid, .documentTimeStampInvalid: true
            default: false
            }
        }

        public var description: String {
            switch self {
            case .manifestUnreadable(let reason): return "the manifest cannot be read: \(reason)"
            case .signatureMissing: return "no signature (\(Evidence.signatureSuffix)) beside the manifest"
            case .signatureInvalid: return "the signature does not match the manifest under any key given: the manifest was changed after signing, or another kiosk's key signed it"
            case .namesAnotherKey(let fingerprint): return "the manifest names key \(fingerprint.prefix(16))…, not the key that signed it"
            case .fileMissing(let name): return "\(name) is missing"
            case .fileChanged(let name): return "\(name) does not match its size and SHA-256 in the manifest: changed after signing"
            case .notNamedFromID(let name, let id): return "\(name) is not named from the manifest's id \(id): renamed, or copied from another record"
            case .timeStampMissing: return "no time-stamp token (\(SignatureEncoder.manifestSuffix)\(ManifestCheck.tokenSuffix)) beside the manifest: not stamped yet, or no authority was set"
            case .timeStampInvalid(let reason): return "the time-stamp token does not verify: \(reason)"
            case .documentTimeStampMissing(let name): return "\(name)'s signature carries no time-stamp token"
            case .documentTimeStampInvalid(let name, let reason): return "\(name)'s time-stamp token does not verify: \(reason)"
            }
        }
    }

    public var manifest: String
    /// The key that verified the signature, if one did.
    public var key: PublicKey?
    public var files: Int
    public var problems: [Problem]
    /// The time its time-stamp token gives, once verified.
    public var timeStamped: Double?
    /// The time the signed document's own token gives, once verified.
    public var documentTimeStamped: Double?

    /// A token's name after its manifest's.
    public static let tokenSuffix = ".tsr"

    public var passed: Bool { problems.isEmpty }

    /// One line: the manifest, then OK and the signing key's fingerprint, or FAILED with each problem and what to do.
    public var line: String {
        if passed {
            return "OK      \(manifest): signed by \(key?.fingerprint.prefix(16) ?? "")…, \(files) file(s) as signed"
                + (timeStamped.map { ", time-stamped \(ISO8601.string($0))" } ?? "")
                + (documentTimeStamped.map { ", the document time-stamped \(ISO8601.string($0))" } ?? "")
        }
        let advice: String
        if problems.contains(.signatureInvalid) || problems.contains(.signatureMissing) {
            advice = "do not rely on this record; check it with every key this kiosk has had (signpad key show --all on it)"
        } else if problems.contains(where: { if case .notNamedFromID = $0 { return true } else { return false } }) {
            advice = "the record is not the one its names say: find the signature its id names, or treat this one as unproven"
        } else if problems.allSatisfy(\.isTimeStampMissing) {
            advice = "its time is unproven until the kiosk has its token (GetStatus gives timestampsAwaited), or it had no time-stamp authority when it was written"
        } else if problems.allSatisfy(\.isTimeStampProblem) {
            advice = "the token is not this record's, or not from that authority: do not rely on its time"
        } else {
            advice = "the record is not the one signed: restore the named files from a backup, or treat the signature as unproven"
        }
        return "FAILED  \(manifest): " + problems.map(\.description).joined(separator: "; ") + "; " + advice
    }

    /// Checks the manifest at `path` (its signature is `path + ".sig"`; the files it names lie
    /// beside it). With `timeStampCA` (the authority's CA certificates, PEM), also its token
    /// (`path + ".tsr"`), over the SHA-256 of the signature, and a signed document's token in
    /// its PAdES signature, when the manifest names an authority for it. A document is as signed
    /// when it is the listed file, or that file with a token over its signature added as
    /// signpad adds it (`DocumentTimeStamp`).
    public static func check(manifest path: String, keys: [PublicKey], timeStampCA: [UInt8]? = nil) -> ManifestCheck {
        var check = ManifestCheck(manifest: path, key: nil, files: 0, problems: [])
        if let timeStampCA { check.checkTimeStamp(caPEM: timeStampCA) }
        let bytes: [UInt8]
        do { bytes = try BoundedFile.read(path, limit: BoundedFile.manifestBytes) } catch {
            check.problems.append(.manifestUnreadable(error.isMissing ? "it is missing" : "\(error)"))
            return check
        }
        if let signature = try? BoundedFile.read(path + Evidence.signatureSuffix, limit: BoundedFile.signatureBytes) {
            check.key = keys.first { $0.verifies(signature, of: bytes) }
            if check.key == nil { check.problems.append(.signatureInvalid) }
        } else {
            check.problems.append(.signatureMissing)
        }
        let metadata: SignatureMetadata
        do {
            metadata = try JSONDecoder().decode(SignatureMetadata.self, from: Data(bytes))
        } catch {
            check.problems.append(.manifestUnreadable("expected a signpad .meta.json (JSON with id, files, …)"))
            return check
        }
        if let key = check.key, let named = metadata.signingKey?.sha256, named != key.fingerprint { check.problems.append(.namesAnotherKey(named)) }
        let folder = PathText.folder(of: path), manifestName = PathText.name(of: path)
        if !isManifest(manifestName, of: metadata.id) { check.problems.append(.notNamedFromID(name: manifestName, id: metadata.id)) }
        check.files = metadata.files.count
        for (name, entry) in metadata.files.sorted(by: { $0.key < $1.key }) {
            guard isNamed(name, from: metadata.id) else {
                check.problems.append(.notNamedFromID(name: name, id: metadata.id))
                continue
            }
            guard let data = try? BoundedFile.read(PathText.join(folder, name), limit: BoundedFile.exportedFileBytes) else {
                check.problems.append(.fileMissing(name))
                continue
            }
            if name.hasSuffix(".\(SignatureEncoder.documentSuffix)") {
                check.checkDocument(name, data, entry, timeStampCA: metadata.documentTimeStampAuthority == nil ? nil : timeStampCA)
            } else if data.count != entry.bytes || SHA256.hex(data) != entry.sha256 {
                check.problems.append(.fileChanged(name))
            }
        }
        return check
    }

    private mutating func checkDocument(_ name: String, _ data: [UInt8], _ entry: SignatureMetadata.FileEntry, timeStampCA: [UInt8]?) {
        let matches = { (bytes: [UInt8]) in bytes.count == entry.bytes && SHA256.hex(bytes) == entry.sha256 }
        guard !matches(data) else {
            if timeStampCA != nil { problems.append(.documentTimeStampMissing(name)) }
            return
        }
        // Only the token may differ from what was signed, put in as signpad puts it.
        guard let (signed, token) = try? DocumentTimeStamp.asSigned(data), let token, matches(signed) else {
            problems.append(.fileChanged(name))
            return
        }
        // Without the authority's CA, at least a token over this signature.
        guard let reply = try? TimeStampReply(token: token), let imprint = try? DocumentTimeStamp.imprint(of: signed), reply.covers(sha256: imprint) else {
            problems.append(.documentTimeStampInvalid(name, "it is not a time-stamp token over this document's signature"))
            return
        }
        guard let timeStampCA else { return }
        do {
            documentTimeStamped = try reply.verify(sha256: imprint, caPEM: timeStampCA)
        } catch {
            problems.append(.documentTimeStampInvalid(name, "\(error)"))
        }
    }

    private mutating func checkTimeStamp(caPEM: [UInt8]) {
        let token: [UInt8]
        do {
            token = try BoundedFile.read(manifest + Self.tokenSuffix, limit: BoundedFile.timeStampBytes)
        } catch {
            problems.append(error.isMissing ? .timeStampMissing : .timeStampInvalid("\(error)"))
            return
        }
        guard let signature = try? BoundedFile.read(manifest + Evidence.signatureSuffix, limit: BoundedFile.signatureBytes) else { return }
        do {
            timeStamped = try TimeStampReply(der: token).verify(sha256: SHA256.digest(signature), caPEM: caPEM)
        } catch {
            problems.append(.timeStampInvalid("\(error)"))
        }
    }

    /// Whether `name` is one of the files signpad makes for the signature `id`: `<id>.<suffix>`,
    /// or sealed, `<id>.<suffix>.p7m` (`ExportFormat.fileSuffix`). Compared byte for byte, as the file system does (Swift's
    /// `==` takes canonically equivalent text as equal). Such a name never leaves the folder.
    public static func isNamed(_ name: String, from id: String) -> Bool {
        guard let format = suffix(of: name, after: id) else { return false }
        let sealed = Array(Evidence.envelopeSuffix.utf8)
        let plain = format.count > sealed.count && format.suffix(sealed.count).elementsEqual(sealed) ? format.dropLast(sealed.count) : format[...]
        return ExportFormat.allCases.contains { plain.elementsEqual($0.fileSuffix.utf8) } || format.elementsEqual(SignatureEncoder.documentSuffix.utf8)
    }

    /// Whether `name` is the manifest of the signature `id`: `<id>.meta.json`.
    public static func isManifest(_ name: String, of id: String) -> Bool {
        suffix(of: name, after: id)?.elementsEqual("meta.json".utf8) ?? false
    }

    /// The bytes of `name` after `id` and a dot; nil when it does not start so, or when the id
    /// could not name a file of this folder.
    private static func suffix(of name: String, after id: String) -> [UInt8]? {
        let id = Array(id.utf8), name = Array(name.utf8)
        guard !id.isEmpty, id.first != UInt8(ascii: "."), !id.contains(UInt8(ascii: "/")), name.count > id.count + 1,
              name.starts(with: id), name[id.count] == UInt8(ascii: ".") else { return nil }
        return Array(name[(id.count + 1)...])
    }

    /// A path that stands for no signature to check: a mistake in the command, not a record that failed.
    public struct NotASignature: Error, CustomStringConvertible, Equatable {
        public var path: String
        public var reason: String

        public var description: String { "\(path): \(reason)" }
    }

    /// The manifests a path stands for: itself, a `.meta.json`, or every `.meta.json` under a folder (sorted).
    public static func manifests(at path: String) throws(NotASignature) -> [String] {
        var isFolder = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw NotASignature(path: path, reason: "there is no such file or folder; expected a signature's .meta.json, or a folder of signatures")
        }
        guard isFolder else {
            guard path.hasSuffix(".meta.json") else {
                throw NotASignature(path: path, reason: "expected a signature's .meta.json (the manifest, beside its .sig and the files it names), or a folder of signatures")
            }
            return [path]
        }
        return manifests(under: path).sorted()
    }

    /// Every `.meta.json` in `folder` and its subfolders. A subfolder that cannot be read (a
    /// root-only lost+found on the export volume) is passed over rather than ending the walk,
    /// and a link to a folder is not followed.
    private static func manifests(under folder: String) -> [String] {
        var found: [String] = []
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            let path = PathText.join(folder, name)
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            if info.st_mode & S_IFMT == S_IFDIR {
                found += manifests(under: path)
            } else if name.hasSuffix(".meta.json") {
                found.append(path)
            }
        }
        return found
    }
}
