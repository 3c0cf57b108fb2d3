import FoundationEssentials
import SignpadCrypto
import SignpadExport

/// `export.retention_days`: signatures older than that are deleted, as data minimisation asks of
/// biometric data kept no longer than needed. Only for a folder signpad alone keeps: on a share
/// the back office manages, its own rules decide. Only what the kiosk signed is deleted: anyone
/// who can write a `.meta.json` into the folder could otherwise have a record deleted by naming
/// its files, with an old capture date.
public struct Retention: Sendable {
    public enum Event: Equatable, Sendable {
        /// A signature deleted: its id, and the folder (the export folder or the spool).
        case deleted(id: String, from: String)
        case failed(String)
    }

    public var days: Int
    /// The kiosk's public keys, its current one and those it retired: a manifest is deleted only
    /// when one of them verifies its signature.
    public var keys: [PublicKey]
    /// Told each deletion and each failure, on the exporter's thread.
    public var report: @Sendable (Event) -> Void

    public init(days: Int, keys: [PublicKey], report: @escaping @Sendable (Event) -> Void) {
        self.days = days
        self.keys = keys
        self.report = report
    }

    /// Seconds since 1970 before which a capture's end is too old at `now`.
    func cutoff(now: Double) -> Double { now - Double(days) * 86_400 }

    /// When a signature's capture ended, from its manifest.
    static func captureEnd(manifest bytes: [UInt8]) -> Double? {
        (try? JSONDecoder().decode(SignatureMetadata.self, from: Data(bytes))).flatMap { ISO8601.seconds($0.captureEnd) }
    }

    static func captureEnd(of files: [ExportFile]) -> Double? {
        files.last.flatMap { captureEnd(manifest: $0.bytes) }
    }

    /// Deletes from `folder` every signature whose manifest, signed by one of `keys` and named
    /// from its id, says its capture ended before `cutoff`: the files it names (those named from
    /// its id), then its signature, then the manifest, so what is left of one interrupted is still
    /// found by its manifest next time.
    func sweep(_ folder: FolderWriter, cutoff: Double) {
        let names: [String]
        do { names = try folder.names() } catch { return report(.failed("\(error)")) }
        for name in names where name.hasSuffix(".meta.json") {
            let path = "\(folder.directory)/\(name)"
            guard let bytes = try? BoundedFile.read(path, limit: BoundedFile.manifestBytes),
                  let metadata = try? JSONDecoder().decode(SignatureMetadata.self, from: Data(bytes)),
                  let ended = ISO8601.seconds(metadata.captureEnd) else {
                report(.failed("\(path): kept, as its capture time cannot be read"))
                continue
            }
            guard ended < cutoff else { continue }
            // Checked only for what would go: a folder of years is not verified every hour.
            guard let signature = try? BoundedFile.read(path + Evidence.signatureSuffix, limit: BoundedFile.signatureBytes),
                  keys.contains(where: { $0.verifies(signature, of: bytes) }) else {
                report(.failed("\(path): kept: no key of this kiosk's (current or retired) verifies its signature (\(name)\(Evidence.signatureSuffix))"))
                continue
            }
            guard ManifestCheck.isManifest(name, of: metadata.id) else {
                report(.failed("\(path): kept: its name is not its id's (\(metadata.id).meta.json)"))
                continue
            }
            do {
                for listed in metadata.files.keys.sorted() where ManifestCheck.isNamed(listed, from: metadata.id) { try folder.remove(listed) }
                try folder.remove(name + Evidence.signatureSuffix)
                try folder.remove(name + ManifestCheck.tokenSuffix)
                try folder.remove(name)
                report(.deleted(id: metadata.id, from: folder.directory))
            } catch {
                report(.failed("\(error)"))
            }
        }
    }
}
