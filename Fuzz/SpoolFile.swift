// libFuzzer target for a spool file read back at start: any bytes are a signature, written in
// every format, or a SpoolError naming the file, never a crash. (The file is the signature itself:
// a damaged one must neither take the daemon down nor hold up those behind it.)
// Built by scripts/fuzz with the sources of SignpadInk and SignpadExport in one module.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSpoolFile(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    // The spool reads a file only under its own id's name, so the file is put under it.
    guard let object = try? JSONSerialization.jsonObject(with: bytes) as? [String: Any],
          let id = object["id"] as? String, !id.isEmpty, !id.contains("/"), id.utf8.count < 200 else { return 0 }
    let directory = FuzzSpool.directory
    try? FileManager.default.removeItem(atPath: directory)
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    guard FileManager.default.createFile(atPath: "\(directory)/\(id).spool.json", contents: bytes),
          let (records, _) = try? SignatureSpool(directory: directory).recover(olderFilesAs: CaptureSettings()) else { return 0 }
    // Small, so a screen of 32768 pixels a side exports in a moment: the point is every encoder.
    for record in records { _ = try? SignatureEncoder.files(for: record, options: ExportOptions(margin: 2, scale: 0.02)) }
    return 0
}

enum FuzzSpool {
    /// One folder for the whole run, removed when it ends.
    static let directory: String = {
        atexit { try? FileManager.default.removeItem(atPath: FuzzSpool.directory) }
        return NSTemporaryDirectory() + "signpad-fuzz-spool-\(getpid())"
    }()
}
