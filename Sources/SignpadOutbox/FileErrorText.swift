import Foundation

/// What stopped a file's read or write, in the system's words ("No such file or directory"),
/// not Foundation's ("The operation could not be completed"): a person reads it in the journal
/// or a Varlink reply.
public enum FileErrorText {
    public static func reason(_ error: Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
        if let cocoa = error as? CocoaError, let code = posixCode(cocoa.code) { return String(cString: strerror(code)) }
        return nsError.localizedDescription
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
