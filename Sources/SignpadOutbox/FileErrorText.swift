import FoundationEssentials
import Glibc

/// What stopped a file's read or write, in the system's words ("No such file or directory"),
/// not Foundation's ("The operation could not be completed"): a person reads it in the journal
/// or a Varlink reply.
public enum FileErrorText {
    public static func reason(_ error: Error) -> String {
        if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
        // An encoder's or decoder's error (a result that is no JSON): its one line, not its dump.
        if case .invalidValue(_, let context) = error as? EncodingError { return context.debugDescription }
        if let decoding = error as? DecodingError { return decoding.oneLine }
        guard let cocoa = error as? CocoaError else { return "\(error)" }
        if let posix = cocoa.underlying as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
        if let code = posixCode(cocoa.code) { return String(cString: strerror(code)) }
        return "\(error)"
    }

    /// The errno Foundation folded into its own code, where it says nothing more.
    private static func posixCode(_ code: CocoaError.Code) -> Int32? {
        switch code {
        case .fileNoSuchFile, .fileReadNoSuchFile: ENOENT
        case .fileWriteNoPermission, .fileReadNoPermission: EACCES
        case .fileWriteOutOfSpace: ENOSPC
        case .fileWriteVolumeReadOnly: EROFS
        case .fileWriteFileExists: EEXIST
        default: nil
        }
    }
}

extension DecodingError {
    /// What the decoder said, without the coding path's dump.
    var oneLine: String {
        switch self {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context), .dataCorrupted(let context):
            context.debugDescription
        @unknown default:
            "\(self)"
        }
    }
}
