import Foundation
import SignpadCrypto

/// `signpad verify`'s work on one signature: its manifest's signature against the keys a back
/// office pins, then each file the manifest names, by size and SHA-256.
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

        public var description: String {
            switch self {
            case .manifestUnreadable(let reason): return "the manifest cannot be read: \(reason)"
            case .signatureMissing: return "no signature (\(Evidence.signatureSuffix)) beside the manifest"
            case .signatureInvalid: return "the signature does not match the manifest under any key given: the manifest was changed after signing, or another kiosk's key signed it"
            case .namesAnotherKey(let fingerprint): return "the manifest names key \(fingerprint.prefix(16))…, not the key that signed it"
            case .fileMissing(let name): return "\(name) is missing"
            case .fileChanged(let name): return "\(name) does not match its size and SHA-256 in the manifest: changed after signing"
            }
        }
    }

    public var manifest: String
    /// The key that verified the signature, if one did.
    public var key: PublicKey?
    public var files: Int
    public var problems: [Problem]

    public var passed: Bool { problems.isEmpty }

    /// One line: the manifest, then OK and the signing key's fingerprint, or FAILED with each problem and what to do.
    public var line: String {
        if passed { return "OK      \(manifest): signed by \(key?.fingerprint.prefix(16) ?? "")…, \(files) file(s) as signed" }
        let advice: String
        if problems.contains(.signatureInvalid) || problems.contains(.signatureMissing) {
            advice = "do not rely on this record; check it with every key this kiosk has had (signpad key show --all on it)"
        } else {
            advice = "the record is not the one signed: restore the named files from a backup, or treat the signature as unproven"
        }
        return "FAILED  \(manifest): " + problems.map(\.description).joined(separator: "; ") + "; " + advice
    }

    /// Checks the manifest at `path` (its signature is `path + ".sig"`; the files it names lie beside it).
    public static func check(manifest path: String, keys: [PublicKey]) -> ManifestCheck {
        var check = ManifestCheck(manifest: path, key: nil, files: 0, problems: [])
        guard let bytes = FileManager.default.contents(atPath: path).map(Array.init) else {
            check.problems.append(.manifestUnreadable("it is missing or not readable"))
            return check
        }
        if let signature = FileManager.default.contents(atPath: path + Evidence.signatureSuffix).map(Array.init) {
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
        let folder = (path as NSString).deletingLastPathComponent
        check.files = metadata.files.count
        for (name, entry) in metadata.files.sorted(by: { $0.key < $1.key }) {
            // A name that leaves the folder is no file of this signature's.
            guard !name.contains("/"), let data = FileManager.default.contents(atPath: (folder as NSString).appendingPathComponent(name)) else {
                check.problems.append(.fileMissing(name))
                continue
            }
            if data.count != entry.bytes || SHA256.hex(Array(data)) != entry.sha256 { check.problems.append(.fileChanged(name)) }
        }
        return check
    }

    /// The manifests a path stands for: itself, or every `.meta.json` under a folder (sorted).
    public static func manifests(at path: String) -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else { return [path] }
        let found = FileManager.default.enumerator(atPath: path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".meta.json") } ?? []
        return found.sorted().map { (path as NSString).appendingPathComponent($0) }
    }
}
