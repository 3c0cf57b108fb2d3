import Foundation
import SignpadConfig
import SignpadExport
import SignpadOutbox

/// The defaults, with no control socket (the API's tests make their own) and a signing key of the
/// tests' own.
public func quietConfig(_ overrides: [String] = []) throws -> Config {
    try Config.load(text: "", file: "(test)", overrides: ["control.socket=\"\"", "export.signing_key=\"\(testKeyFolder)/signing.key\""] + overrides)
}

/// Where the tests' signing key is made: never the system's.
public let testKeyFolder: String = {
    let folder = NSTemporaryDirectory() + "signpad-test-key-\(getpid())"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder
}()

/// A record's files as the spool keeps them.
public func sealed(_ record: SignatureRecord) throws -> SealedSignature {
    SealedSignature(id: record.id, files: try SignatureEncoder.files(for: record, options: ExportOptions(), evidence: testEvidence))
}
