import Foundation
import SignpadExport

/// Writes signatures on a thread of its own, so ink stays live while files are written. A
/// failed signature is kept and retried until it is written; results come back through `results()`.
public final class Exporter: @unchecked Sendable {
    public struct Result: Equatable, Sendable {
        public var exportID: Int
        public var recordID: String
        /// nil when written; else why not (it will be retried).
        public var error: String?
    }

    private let writer: FolderWriter
    private let options: ExportOptions
    private let retrySeconds: Double
    private let condition = NSCondition()
    private var queue: [(Int, SignatureRecord)] = []
    private var finished: [Result] = []
    private var busy = false
    private var stopping = false
    private var thread: Thread?
    /// Becomes readable when results are waiting (a pipe), for the daemon's poll loop.
    public let wakeFD: Int32
    private let wakeWriteFD: Int32

    public init(directory: String, options: ExportOptions, retrySeconds: Double) {
        writer = FolderWriter(directory: directory, group: options.group)
        self.options = options
        self.retrySeconds = retrySeconds
        var fds: [Int32] = [-1, -1]
        _ = pipe(&fds)
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        wakeFD = fds[0]
        wakeWriteFD = fds[1]
        // The thread holds the exporter until stop() lets it finish.
        let thread = Thread { self.work() }
        thread.name = "signpad-export"
        self.thread = thread
        thread.start()
    }

    deinit {
        close(wakeFD)
        close(wakeWriteFD)
    }

    /// Removes temporary files a crash left behind; reports a folder that cannot be used.
    public func prepare() throws { try writer.prepare() }

    public func submit(_ record: SignatureRecord, exportID: Int) {
        condition.lock()
        queue.append((exportID, record))
        condition.signal()
        condition.unlock()
    }

    public func results() -> [Result] {
        var drain = [UInt8](repeating: 0, count: 64)
        while read(wakeFD, &drain, drain.count) > 0 {}
        condition.lock()
        defer { condition.unlock() }
        let out = finished
        finished.removeAll()
        return out
    }

    /// Signatures accepted and not yet written.
    public var pending: Int {
        condition.lock()
        defer { condition.unlock() }
        return queue.count  // the signature being written stays queued until it is written
    }

    /// Waits until everything is written, or `timeout` seconds pass; true when nothing is left.
    public func waitUntilIdle(timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !queue.isEmpty || busy {
            if !condition.wait(until: deadline) { return false }
        }
        return true
    }

    public func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while queue.isEmpty && !stopping { condition.wait() }
            if stopping && queue.isEmpty {
                condition.unlock()
                return
            }
            let (exportID, record) = queue[0]
            busy = true
            condition.unlock()

            var failure: String?
            do {
                try writer.write(try SignatureEncoder.files(for: record, options: options))
            } catch {
                failure = "\(error)"
            }

            condition.lock()
            if failure == nil { queue.removeFirst() }
            busy = false
            finished.append(Result(exportID: exportID, recordID: record.id, error: failure))
            var one: UInt8 = 1
            _ = write(wakeWriteFD, &one, 1)
            condition.broadcast()
            if failure != nil && !stopping { _ = condition.wait(until: Date(timeIntervalSinceNow: retrySeconds)) }
            let quit = stopping && failure != nil
            condition.unlock()
            if quit { return }
        }
    }

}
