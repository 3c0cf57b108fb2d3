import Foundation

/// SIGTERM, SIGINT and SIGHUP as a readable fd, so the poll loop handles them between events.
public final class SignalWatcher {
    let fd: Int32
    private let writeFD: Int32
    private var first: Int32?

    public init(_ signals: [Int32]) throws {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw DaemonError(description: "pipe: \(String(cString: strerror(errno)))") }
        for f in fds {
            _ = fcntl(f, F_SETFL, fcntl(f, F_GETFL) | O_NONBLOCK)
            // A reload starts signpad again in this process.
            _ = fcntl(f, F_SETFD, FD_CLOEXEC)
        }
        fd = fds[0]
        writeFD = fds[1]
        SignalWatcher.target.store(writeFD)
        for s in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signal in
                var byte = UInt8(truncatingIfNeeded: signal)
                _ = write(SignalWatcher.target.load(), &byte, 1)
            }
            sigaction(s, &action, nil)
        }
    }

    func take() -> Int32? {
        var byte: UInt8 = 0
        return read(fd, &byte, 1) == 1 ? Int32(byte) : nil
    }

    /// The first signal received so far, without waiting; for loops that do not poll.
    public var received: Int32? {
        if first == nil { first = take() }
        return first
    }

    /// The write end for the handler: a C signal handler cannot capture context.
    static let target = AtomicFD()
}

final class AtomicFD: @unchecked Sendable {
    private var value: Int32 = -1
    func store(_ fd: Int32) { value = fd }
    func load() -> Int32 { value }
}
