import Glibc

/// A pipe a worker thread writes a byte into when it has news, whose read end the daemon's poll
/// loop waits on; both ends non-blocking and close-on-exec, so a reload's exec leaves none open.
public final class WakePipe: Sendable {
    /// Readable once `wake` was called and until `drain`.
    public let fd: Int32
    private let writeFD: Int32

    public init() {
        var fds: [Int32] = [-1, -1]
        _ = pipe(&fds)
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        (fd, writeFD) = (fds[0], fds[1])
    }

    deinit {
        close(fd)
        close(writeFD)
    }

    public func wake() {
        var one: UInt8 = 1
        _ = write(writeFD, &one, 1)
    }

    /// Empties the pipe, allocating nothing: it runs on the loop's turns.
    public func drain() {
        var bytes: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
        while withUnsafeMutableBytes(of: &bytes, { read(fd, $0.baseAddress, $0.count) }) > 0 {}
    }
}
