import FoundationEssentials
import Glibc

/// What stopped a file's read or write, in the system's words ("No such file or directory"),
/// not Foundation's ("The operation could not be completed"): a person reads it in the journal
/// or a Varlink reply.
public enum FileErrorText {
    public static func reason(_ error: Error) -> String {
        if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
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
