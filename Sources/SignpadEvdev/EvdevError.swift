#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// Something went wrong with an input device; names the device and what to do.
public struct EvdevError: Error, CustomStringConvertible, Equatable {
    public var path: String
    public var operation: String
    public var errno: Errno
    public var hint: String

    public var description: String {
        var text = "\(path): \(operation) failed: \(errno)"
        if !hint.isEmpty { text += " (\(hint))" }
        return text
    }

    static func hint(for errno: Errno) -> String {
        switch errno {
        case .permissionDenied, .notPermitted: return "add the user to the 'input' group, or allow char-input in the unit's DeviceAllow"
        case .noSuchFileOrDirectory, Errno(rawValue: ENODEV): return "the device is not there; was it unplugged?"
        case .resourceBusy: return "another process has grabbed it"
        default: return ""
        }
    }
}
