import FoundationEssentials
import Glibc
import Synchronization
import SystemPackage

/// SIGTERM, SIGINT and SIGHUP as a readable fd, so the poll loop handles them between events.
public final class SignalWatcher {
    /// The read end, to poll.
    public let fd: FileDescriptor
    private let writeFD: Int32
    private var first: Int32?

    public init(_ signals: [Int32]) throws {
        // Close-on-exec: a reload starts signpad again in this process.
        let ends: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
        do {
            ends = try FileDescriptor.pipe(options: [.nonBlocking, .closeOnExec])
        } catch {
            throw DaemonError(description: "pipe: \(error)")
        }
        fd = ends.readEnd
        writeFD = ends.writeEnd.rawValue
        SignalWatcher.target.store(writeFD, ordering: .releasing)
        for s in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signal in
                var byte = UInt8(truncatingIfNeeded: signal)
                _ = write(SignalWatcher.target.load(ordering: .acquiring), &byte, 1)
            }
            sigaction(s, &action, nil)
        }
        // A mask inherited blocked (from a test runner or a supervisor that forgot to reset it)
        // would leave the handlers unreached and signpad deaf to SIGTERM. Threads started after
        // this (the exporter's) take the mask of this one.
        var watched = sigset_t()
        sigemptyset(&watched)
        for s in signals { sigaddset(&watched, s) }
        pthread_sigmask(SIG_UNBLOCK, &watched, nil)
    }

    public func take() -> Int32? {
        var byte: UInt8 = 0
        return read(fd.rawValue, &byte, 1) == 1 ? Int32(byte) : nil
    }

    /// The first signal received so far, without waiting; for loops that do not poll.
    public var received: Int32? {
        if first == nil { first = take() }
        return first
    }

    /// The write end for the handler: a C signal handler cannot capture context. A real atomic,
    /// lock-free and so safe in a signal handler, as the handler may run on any thread.
    static let target = Atomic<Int32>(-1)
}
