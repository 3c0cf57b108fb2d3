import FoundationEssentials
import Glibc

/// The kernel's host name: the kiosk's name in each signature when `export.kiosk_name` is empty.
public enum HostName {
    /// Read without Foundation's `ProcessInfo.hostName`, which asks DNS and may wait on a network
    /// that is down. The unit's ProtectHostname= gives signpad its own copy of the name at start,
    /// so a machine renamed later is seen after a restart, not a reload. "" if the kernel says none.
    public static func ofThisMachine() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
