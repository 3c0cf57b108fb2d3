import FoundationEssentials
import Glibc

/// A whole file read within a bound: a manifest in a shared folder, a key, a certificate, a
/// configuration. A file of any size costs at most its bound, and one past it is named, unread.
public enum BoundedFile {
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case unreadable(errno: Int32)
        case tooLarge(limit: Int)

        public var isMissing: Bool { self == .unreadable(errno: ENOENT) }

        public var description: String {
            switch self {
            case .unreadable(let code): String(cString: strerror(code))
            case .tooLarge(let limit): "larger than the \(BoundedFile.describe(limit)) such a file can be; not read"
            }
        }
    }

    /// Limits for what signpad reads; each well above what it writes.
    public static let manifestBytes = 1 << 20
    public static let signatureBytes = 4 << 10
    public static let keyBytes = 64 << 10
    public static let certificateBytes = 1 << 20
    /// A time-stamp authority's reply, as much as the daemon takes from one.
    public static let timeStampBytes = 1 << 20
    public static let configurationBytes = 1 << 20
    public static let recordingBytes = 512 << 20
    /// A signature's exported file (a PNG at scale 4 of a 4K screen is a few MiB).
    public static let exportedFileBytes = 256 << 20

    public static func read(_ path: String, limit: Int) throws(Failure) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .unreadable(errno: errno) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadable(errno: errno) }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw .unreadable(errno: EISDIR) }
        if info.st_size > limit { throw .tooLarge(limit: limit) }
        // A file that grows while it is read, or reports no size (a pipe), is still held to the bound.
        var bytes = [UInt8](repeating: 0, count: min(Int(info.st_size), limit) + 1)
        var count = 0
        while true {
            if count == bytes.count {
                guard count <= limit else { throw .tooLarge(limit: limit) }
                bytes += [UInt8](repeating: 0, count: min(max(count, 4096), limit + 1 - count))
            }
            let got = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, $0.count - count) }
            if got < 0 {
                if errno == EINTR { continue }
                throw .unreadable(errno: errno)
            }
            if got == 0 { break }
            count += got
        }
        guard count <= limit else { throw .tooLarge(limit: limit) }
        bytes.removeLast(bytes.count - count)
        return bytes
    }

    static func describe(_ bytes: Int) -> String {
        bytes >= 1 << 20 ? "\(bytes >> 20) MiB" : "\(bytes >> 10) KiB"
    }
}
