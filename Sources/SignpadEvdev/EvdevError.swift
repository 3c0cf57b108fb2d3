#if canImport(Glibc)
import Glibc
#endif

/// Something went wrong with an input device; names the device and what to do.
public struct EvdevError: Error, CustomStringConvertible, Equatable {
    public var path: String
    public var operation: String
    public var errno: Int32
    public var hint: String

    public var description: String {
        var text = "\(path): \(operation) failed: \(String(cString: strerror(errno)))"
        if !hint.isEmpty { text += " (\(hint))" }
        return text
    }

    static func hint(for errno: Int32) -> String {
        switch errno {
        case EACCES, EPERM: return "add the user to the 'input' group, or allow char-input in the unit's DeviceAllow"
        case ENOENT, ENODEV: return "the device is not there; was it unplugged?"
        case EBUSY: return "another process has grabbed it"
        default: return ""
        }
    }
}
