import Glibc
import SystemPackage

/// A pipe a worker thread writes a byte into when it has news (`wake`, handed to the exporter and
/// the results book as what they call), whose read end the daemon's poll loop waits on; both ends
/// non-blocking and close-on-exec, so a reload's exec leaves none open.
final class WakePipe: Sendable {
    /// Readable once `wake` was called and until `drain`.
    let readEnd: FileDescriptor
    private let writeEnd: FileDescriptor

    /// Fails only when the process or the system has no descriptor left.
    init() throws(DaemonError) {
        do {
            (readEnd, writeEnd) = try FileDescriptor.pipe(options: [.nonBlocking, .closeOnExec])
        } catch {
            throw DaemonError(description: "cannot make a pipe to wake the loop: \(error)")
        }
    }

    deinit {
        try? readEnd.close()
        try? writeEnd.close()
    }

    @Sendable func wake() {
        var one: UInt8 = 1
        // A full pipe wakes the loop already: the byte not written is not missed.
        _ = write(writeEnd.rawValue, &one, 1)
    }

    /// Empties the pipe, allocating nothing: it runs on the loop's turns.
    func drain() {
        var bytes: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
        while withUnsafeMutableBytes(of: &bytes, { read(readEnd.rawValue, $0.baseAddress, $0.count) }) > 0 {}
    }
}

/// The pipes the daemon's worker threads wake its loop through; the loop drains each it finds
/// readable before it acts on the news.
struct LoopWakes {
    /// The exporter has results (`Exporter.results()`).
    let exports: WakePipe
    /// A write of the results book has ended (`ControlService.bookWritten`).
    let book: WakePipe
    /// A page of a document under review is drawn (`Session.tick` shows it).
    let pages: WakePipe

    init() throws(DaemonError) {
        exports = try WakePipe()
        book = try WakePipe()
        pages = try WakePipe()
    }
}
