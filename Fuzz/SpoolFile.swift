// libFuzzer target for a spool file read back at start: any bytes are a signature, written in
// every format, or a SpoolError naming the file, never a crash. (The file is the signature itself:
// a damaged one must neither take the daemon down nor hold up those behind it.)
// Built by scripts/fuzz with the sources of the modules it needs in one module.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSpoolFile(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    // The spool reads a file only under its own id's name: an older signpad's record names its
    // id, a file of files is read as "a".
    guard let object = try? JSONSerialization.jsonObject(with: bytes) as? [String: Any] else { return 0 }
    let id = object["id"] as? String ?? "a"
    guard !id.isEmpty, !id.contains("/"), id.utf8.count < 200 else { return 0 }
    let directory = FuzzSpool.directory
    try? FileManager.default.removeItem(atPath: directory)
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    guard FileManager.default.createFile(atPath: "\(directory)/\(id).spool.json", contents: bytes),
          let (kept, _) = try? SignatureSpool(directory: directory).recover(olderFilesAs: CaptureSettings()) else { return 0 }
    for item in kept {
        switch item {
        case .record(let record):
            // Small, so a screen of 32768 pixels a side exports in a moment: the point is every encoder.
            _ = try? SignatureEncoder.files(for: record, options: ExportOptions(formats: ExportFormat.allCases, margin: 2, scale: 0.02), evidence: FuzzSpool.evidence)
        case .sealed(let sealed):
            // What verify would read of it, written as the folder gets it.
            try? FolderWriter(directory: directory + "/out").write(sealed.files.map { ($0.name, $0.bytes) })
            _ = ManifestCheck.check(manifest: directory + "/out/\(id).meta.json", keys: [FuzzSpool.evidence.signingKey.publicKey])
            try? FileManager.default.removeItem(atPath: directory + "/out")
        }
    }
    return 0
}

enum FuzzSpool {
    /// One folder for the whole run, removed when it ends.
    static let directory: String = {
        atexit { try? FileManager.default.removeItem(atPath: FuzzSpool.directory) }
        return NSTemporaryDirectory() + "signpad-fuzz-spool-\(getpid())"
    }()

    static let evidence: Evidence = {
        do { return Evidence(signingKey: try SigningKey.generate()) } catch { fatalError("\(error)") }
    }()
}
