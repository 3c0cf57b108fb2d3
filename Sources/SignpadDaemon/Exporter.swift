import Foundation
import SignpadExport

/// Writes signatures on a thread of its own, so ink stays live while files are written. A
/// failed signature is kept and retried until it is written; results come back through `results()`.
/// With a spool, each signature is also kept on local disk until its exports are written, so it
/// survives an exit, a crash or a power cut while the export folder fails.
public final class Exporter: @unchecked Sendable {
    public struct Result: Equatable, Sendable {
        /// The kiosk's id for it; nil for a signature recovered from the spool at start.
        public var exportID: Int?
        public var recordID: String
        /// nil when written; else why not (it will be retried).
        public var error: String?
        /// Why the spool could not keep (or let go of) it; nil when all went well.
        public var spoolError: String?
    }

    private struct Job {
        var exportID: Int?
        var record: SignatureRecord
        var spooled: Bool
    }

    private let writer: FolderWriter
    private let spool: SignatureSpool?
    private let options: ExportOptions
    private let retrySeconds: Double
    private let condition = NSCondition()
    private var queue: [Job] = []
    private var finished: [Result] = []
    private var busy = false
    private var stopping = false
    /// The writer thread has returned.
    private var quit = false
    private var thread: Thread?
    /// Becomes readable when results are waiting (a pipe), for the daemon's poll loop.
    public let wakeFD: Int32
    private let wakeWriteFD: Int32

    public init(directory: String, options: ExportOptions, retrySeconds: Double, spool: SignatureSpool? = nil) {
        writer = FolderWriter(directory: directory, group: options.group)
        self.spool = spool
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
        enqueue(Job(exportID: exportID, record: record, spooled: false))
    }

    /// Queues the signatures an earlier run left in the spool; returns how many, and the spool
    /// files that could not be read (set aside, see `SignatureSpool.recover`).
    public func recoverSpool() throws -> (count: Int, problems: [SpoolError]) {
        guard let spool else { return (0, []) }
        let (records, problems) = try spool.recover()
        for record in records { enqueue(Job(exportID: nil, record: record, spooled: true)) }
        return (records.count, problems)
    }

    private func enqueue(_ job: Job) {
        condition.lock()
        queue.append(job)
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

    /// Signatures not yet written that the spool does not hold either: lost if signpad stops now.
    public var pendingOutsideSpool: Int {
        condition.lock()
        defer { condition.unlock() }
        return queue.filter { !$0.spooled }.count
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

    /// Lets the writer thread finish what it is writing and waits (at most `timeout` seconds)
    /// for it to quit; a signature not yet written stays in the spool, if there is one.
    public func stop(timeout: Double = 5) {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        stopping = true
        condition.broadcast()
        while !quit {
            if !condition.wait(until: deadline) { return }
        }
    }

    /// Called with the lock held, as the writer thread returns.
    private func finish() {
        quit = true
        condition.broadcast()
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while queue.isEmpty && !stopping { condition.wait() }
            if stopping && queue.isEmpty {
                finish()
                return
            }
            let job = queue[0]
            // Every queued signature goes to the spool first, not only the one being written:
            // those behind a failing one must outlive an exit too.
            let unspooled = queue.filter { !$0.spooled }.map(\.record)
            busy = true
            condition.unlock()

            var spoolError: String?
            var spooled = Set<String>()
            if let spool {
                var failed = 0
                for record in unspooled {
                    do {
                        try spool.keep(record)
                        spooled.insert(record.id)
                    } catch {
                        failed += 1
                        spoolError = "\(failed) signature(s) not kept in the spool \(spool.directory), held in memory only: \(error)"
                    }
                }
            }
            var failure: String?
            do {
                try writer.write(try SignatureEncoder.files(for: job.record, options: options))
            } catch {
                failure = "\(error)"
            }
            if failure == nil, let spool, job.spooled || spooled.contains(job.record.id) {
                do {
                    try spool.release(job.record.id)
                } catch {
                    spoolError = "written, but still in the spool \(spool.directory) (it will be written again, identically, at the next start): \(error)"
                }
            }

            condition.lock()
            for i in queue.indices where spooled.contains(queue[i].record.id) { queue[i].spooled = true }
            if failure == nil { queue.removeFirst() }
            busy = false
            finished.append(Result(exportID: job.exportID, recordID: job.record.id, error: failure, spoolError: spoolError))
            var one: UInt8 = 1
            _ = write(wakeWriteFD, &one, 1)
            condition.broadcast()
            if failure != nil && !stopping { _ = condition.wait(until: Date(timeIntervalSinceNow: retrySeconds)) }
            if stopping && failure != nil {
                finish()
                return
            }
            condition.unlock()
        }
    }

}
