import Dispatch
import FoundationEssentials
import Glibc
import SignpadCrypto
import SignpadExport
import SignpadVocabulary

/// Writes signatures on a thread of its own, so ink stays live while files are written. A
/// failed signature is kept and retried until it is written; results come back through `results()`.
/// With a spool, a second thread keeps each signature on local disk as soon as it is confirmed,
/// until its exports are written. So it survives an exit, a crash or a power cut while the export
/// folder fails, and also while a write to it hangs (a network share that stopped answering):
/// the writer may wait on the folder, the spool never waits on the writer.
public final class Exporter: @unchecked Sendable {
    public struct Result: Equatable, Sendable {
        /// The kiosk's id for it; nil for a signature recovered from the spool at start.
        public var exportID: Int?
        public var recordID: String
        /// nil when written; else why not (it will be retried).
        public var error: String?
        /// Why the spool could not keep (or let go of) it; nil when all went well.
        public var spoolError: String?
        /// Its files as the manifest lists them; empty if they could not be made.
        public var files: [ExportedFile] = []
        /// The spool held it when the write ended (on a failure: it is kept there).
        public var spooled = false
        /// Its PNG, when it has one, for a point of sale that asked for the image.
        public var image: [UInt8]?
        /// The answer to `lookUp`, not a write: `error` nil when the folder holds its manifest
        /// (`files` from it), else why not.
        public var lookedUp = false

        public init(exportID: Int?, recordID: String, error: String?, spoolError: String? = nil, files: [ExportedFile] = [], spooled: Bool = false,
                    image: [UInt8]? = nil) {
            self.image = image
            self.exportID = exportID
            self.recordID = recordID
            self.error = error
            self.spoolError = spoolError
            self.files = files
            self.spooled = spooled
        }
    }

    /// One file of a signature, as its `.meta.json` lists it.
    public struct ExportedFile: Equatable, Sendable {
        public var name: String
        public var bytes: Int
        public var sha256: String
    }

    private struct Job {
        var exportID: Int?
        var id: String
        /// What the files are made from; nil for a signature the spool kept as files.
        var record: SignatureRecord?
        /// Its files, made once: a seal is new each time it is made, so the spool and the folder
        /// must get the same one.
        var files: [ExportFile]?
        var spooled: Bool
        /// The spool has been tried (or there is none): the writer may take the job. Writing
        /// only after the spool has had its go keeps a signature on disk before it is sent anywhere.
        var spoolTried: Bool
        /// Why the last try to spool it failed; reported with its next write.
        var spoolError: String?
        /// It waits behind a write that failed or hangs, and has had a result saying so.
        var answered = false
    }

    private let writer: FolderWriter
    /// The folder write, and the folder's preparation; a test can put ones that hang in their place.
    private let writeFiles: ([ExportFile]) throws -> Void
    private let prepareFolder: () throws -> Void
    private let spool: SignatureSpool?
    /// Where each confirmed signature is kept until written; nil: memory only.
    public var spoolDirectory: String? { spool?.directory }
    private let options: ExportOptions
    /// What files are made with; a reload may bring new (`reseal`). Read under the lock.
    private var evidence: Evidence
    public let retrySeconds: Double
    private let retention: Retention?
    /// Asks for each written signature's time stamp; nil without an authority.
    private let timeStamper: TimeStamper?
    /// When (`clock.uptime`) the writer next deletes what `retention` no longer keeps: at once,
    /// then hourly.
    private var nextSweep = -Double.infinity
    static let sweepInterval = 3600.0
    private let condition = Condition()
    private var queue: [Job] = []
    private var finished: [Result] = []
    /// What the writer thread is doing and since when (`clock.uptime`): writing a job, or
    /// preparing the folder (no job).
    private var busy: (job: Job?, since: Double, files: [ExportedFile])?
    private let clock: TimeSource
    /// A preparation of the folder the writer thread is to run before its next write, with what
    /// to call on its failure (see `prepareBeforeWriting`).
    private var preparation: (@Sendable (Error) -> Void)?
    private var stopping = false
    /// The last write failed: which signature, and why. Those queued behind it are answered
    /// (`answerWaiting`) rather than left without a result until the folder comes back.
    private var writeFailure: (id: String, reason: String)?
    /// Ids to look for in the export folder before the next write (`lookUp`).
    private var lookUps: [String] = []
    /// The writer thread, and the spool thread if there is a spool, have returned.
    private var writerDone = false
    private var spoolerDone = false
    /// Called on the export's threads when results are waiting (the daemon's loop wakes for them).
    private let resultsWaiting: @Sendable () -> Void

    /// `resultsWaiting` is called, on another thread, whenever `results()` has news; `clock` is
    /// where the time is read (the files' stamps, stalls, retries, retention).
    public convenience init(directory: String, options: ExportOptions, evidence: Evidence, retrySeconds: Double, spool: SignatureSpool? = nil,
                            retention: Retention? = nil, timeStamper: TimeStamper? = nil, clock: TimeSource = .system,
                            resultsWaiting: @escaping @Sendable () -> Void = {}) {
        self.init(directory: directory, options: options, evidence: evidence, retrySeconds: retrySeconds, spool: spool, retention: retention,
                  timeStamper: timeStamper, write: nil, clock: clock, resultsWaiting: resultsWaiting)
    }

    init(directory: String, options: ExportOptions, evidence: Evidence, retrySeconds: Double, spool: SignatureSpool?, retention: Retention? = nil,
         timeStamper: TimeStamper? = nil, write: (([ExportFile]) throws -> Void)?, prepare: (() throws -> Void)? = nil, clock: TimeSource = .system,
         resultsWaiting: @escaping @Sendable () -> Void = {}) {
        self.resultsWaiting = resultsWaiting
        self.timeStamper = timeStamper
        self.retention = retention
        self.clock = clock
        let writer = FolderWriter(directory: directory, group: options.group, createsFolder: options.createsFolder, role: "the export folder")
        self.writer = writer
        self.evidence = evidence
        // The manifest and its signature go in once every file they name is durable.
        writeFiles = write ?? { try writer.write($0.map { ($0.name, $0.bytes) }, durableBeforeLast: SignatureEncoder.sealCount) }
        prepareFolder = prepare ?? { try writer.prepare() }
        self.spool = spool
        spoolerDone = spool == nil
        self.options = options
        self.retrySeconds = retrySeconds
        // The threads hold the exporter until stop() lets them finish.
        WorkerThread.start(name: "signpad-export") { self.writeLoop() }
        if let spool { WorkerThread.start(name: "signpad-spool") { self.spoolLoop(spool) } }
    }

    /// The export folder.
    public var directory: String { writer.directory }

    /// Removes temporary files a crash left behind; reports a folder that cannot be used.
    public func prepare() throws { try prepareFolder() }

    /// The same on the writer's thread, before its next write, so that a folder that does not
    /// answer (a network share whose server is down at boot) holds up nothing but the writes: the
    /// caller goes on, and signatures confirmed meanwhile go to the spool. `failed` is called on
    /// that thread.
    public func prepareBeforeWriting(failed: @escaping @Sendable (Error) -> Void) {
        condition.lock()
        preparation = failed
        condition.broadcast()
        condition.unlock()
    }

    /// The evidence a reload brings, for the signatures whose files could not be made (the
    /// certificate ended before they were sealed): made with it now, kept by the spool and
    /// written, so that none is held in memory only when signpad starts again. Files made before
    /// stay as they are: they were sealed and signed already.
    public func reseal(with evidence: Evidence) {
        condition.lock()
        self.evidence = evidence
        for i in queue.indices where queue[i].files == nil && queue[i].record != nil {
            queue[i].spoolTried = spool == nil
        }
        condition.broadcast()
        condition.unlock()
    }

    public func submit(_ record: SignatureRecord, exportID: Int) {
        enqueue(Job(exportID: exportID, id: record.id, record: record, spooled: false, spoolTried: spool == nil))
    }

    /// Queues the signatures an earlier run left in the spool; returns how many, their files by id, and the spool
    /// files that could not be read (set aside, see `SignatureSpool.recover`). `olderFilesAs`:
    /// the settings for files from a signpad that kept none, those running now.
    public func recoverSpool(olderFilesAs settings: CaptureSettings) throws -> (count: Int, files: [String: [ExportedFile]], problems: [SpoolError]) {
        guard let spool else { return (0, [:], []) }
        let (kept, problems) = try spool.recover(olderFilesAs: settings)
        let jobs = kept.map { item in
            switch item {
            case .sealed(let sealed): return Job(exportID: nil, id: sealed.id, files: sealed.files, spooled: true, spoolTried: true)
            case .record(let record): return Job(exportID: nil, id: record.id, record: record, spooled: true, spoolTried: true)
            }
        }
        condition.lock()
        queue += jobs
        // What retention keeps no longer is deleted before it is written.
        if retention != nil { nextSweep = -.infinity }
        condition.broadcast()
        condition.unlock()
        var files: [String: [ExportedFile]] = [:]
        for item in kept {
            guard case .sealed(let sealed) = item else { files[item.id] = []; continue }
            files[item.id] = sealed.files.map { ExportedFile(name: $0.name, bytes: $0.bytes.count, sha256: SHA256.hex($0.bytes)) }
        }
        return (kept.count, files, problems)
    }

    /// Asks, on the writer's thread, whether the export folder holds each signature's manifest:
    /// what a request confirmed before a crash became, when the spool no longer holds it. Each
    /// gets a result with `lookedUp`; while the folder cannot be read they are asked again
    /// every `retrySeconds`.
    public func lookUp(_ ids: [String]) {
        guard !ids.isEmpty else { return }
        condition.lock()
        lookUps += ids
        condition.broadcast()
        condition.unlock()
    }

    /// The manifest's files as it lists them, then its signature and itself; nil when the folder
    /// holds no manifest for `id`. Throws when the folder cannot be read (the answer is unknown).
    private func lookUpFiles(_ id: String) throws -> [ExportedFile]? {
        let manifestName = id + ".meta.json"
        var info = stat()
        guard stat(writer.directory, &info) == 0 else {
            throw ExportError(path: writer.directory, operation: "looking for \(manifestName)", errno: errno)
        }
        let path = "\(writer.directory)/\(manifestName)"
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw ExportError(path: path, operation: "looking for it", errno: errno)
        }
        // A manifest is a few KiB; one larger is not one signpad wrote.
        guard let bytes = try? BoundedFile.read(path, limit: BoundedFile.manifestBytes),
              let manifest = try? JSONDecoder().decode(SignatureMetadata.self, from: Data(bytes)), manifest.id == id else { return nil }
        var files = manifest.files.keys.sorted().map { ExportedFile(name: $0, bytes: manifest.files[$0]!.bytes, sha256: manifest.files[$0]!.sha256) }
        if let signature = try? BoundedFile.read(path + Evidence.signatureSuffix, limit: BoundedFile.signatureBytes) {
            files.append(ExportedFile(name: manifestName + Evidence.signatureSuffix, bytes: signature.count, sha256: SHA256.hex(signature)))
        }
        files.append(ExportedFile(name: manifestName, bytes: bytes.count, sha256: SHA256.hex(bytes)))
        return files
    }

    private func enqueue(_ job: Job) {
        condition.lock()
        queue.append(job)
        condition.broadcast()
        condition.unlock()
    }

    public func results() -> [Result] {
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

    /// What has kept the folder from answering for longer than `seconds`.
    public enum Stall: Equatable, Sendable {
        /// A signature's write, or the preparation it waits behind: its files (when made) and
        /// whether the spool holds it.
        case signature(exportID: Int?, recordID: String, files: [ExportedFile], spooled: Bool)
        /// The preparation of the folder, with no signature waiting on it yet (see `prepareBeforeWriting`).
        case preparing
    }

    /// The folder call that has run longer than `seconds`, if one has. A share that stopped
    /// answering returns no error, so this is how staff and the journal learn of it.
    public func stall(longerThan seconds: Double) -> Stall? {
        condition.lock()
        defer { condition.unlock() }
        guard let busy, clock.uptime() - busy.since > seconds else { return nil }
        guard let job = busy.job ?? queue.first else { return .preparing }
        answerWaiting(behind: job.id, reason: "\(writer.directory): no answer for \(Int(seconds)) s")
        let spooled = queue.first { $0.id == job.id }?.spooled ?? job.spooled
        return .signature(exportID: job.exportID, recordID: job.id, files: busy.job == nil ? [] : busy.files, spooled: spooled)
    }

    /// Waits until everything is written, or `timeout` seconds pass; true when nothing is left.
    public func waitUntilIdle(timeout: Double) -> Bool {
        let deadline = clock.uptime() + timeout
        condition.lock()
        defer { condition.unlock() }
        while !queue.isEmpty || busy != nil {
            if !wait(until: deadline) { return false }
        }
        return true
    }

    /// Lets the threads finish what they are doing (the spool takes every signature it does not
    /// hold yet) and waits at most `timeout` seconds for them to quit; a signature not yet
    /// written stays in the spool, if there is one.
    public func stop(timeout: Double = 5) {
        let deadline = clock.uptime() + timeout
        condition.lock()
        defer { condition.unlock() }
        stopping = true
        condition.broadcast()
        while !(writerDone && spoolerDone) {
            if !wait(until: deadline) { return }
        }
    }

    /// Waits, holding the condition's lock, for a broadcast or until `deadline` on `clock.uptime`;
    /// false once the deadline has passed. The condition sleeps on the system's clock, for as long
    /// as `clock` says is left.
    @discardableResult
    private func wait(until deadline: Double) -> Bool {
        let left = deadline - clock.uptime()
        guard left > 0 else { return false }
        return condition.wait(seconds: left)
    }

    /// Keeps every queued signature the spool does not hold yet; after a failure, tries again
    /// every `retrySeconds`.
    private func spoolLoop(_ spool: SignatureSpool) {
        var lastFailure: Double?
        condition.lock()
        while true {
            let untried = queue.contains { !$0.spoolTried }
            let retryAt = queue.contains { !$0.spooled } ? lastFailure.map { $0 + retrySeconds } : nil
            if !untried && !(retryAt.map { $0 <= clock.uptime() } ?? false) {
                if stopping { break }
                if let retryAt { wait(until: retryAt) } else { condition.wait() }
                continue
            }
            let jobs = queue.filter { !$0.spooled }
            let evidence = evidence
            condition.unlock()
            var failures: [String: String] = [:], made: [String: [ExportFile]] = [:]
            for job in jobs {
                do {
                    let files = try job.files ?? makeFiles(job, evidence: evidence)
                    made[job.id] = files
                    try spool.keep(SealedSignature(id: job.id, files: files))
                } catch {
                    failures[job.id] = "\(error)"
                }
            }
            condition.lock()
            lastFailure = failures.isEmpty ? nil : clock.uptime()
            for job in jobs {
                guard let i = queue.firstIndex(where: { $0.id == job.id }) else {
                    // Written while it was being kept: the spool's copy is not needed.
                    if failures[job.id] == nil { try? spool.release(job.id) }
                    continue
                }
                if queue[i].files == nil { queue[i].files = made[job.id] }
                queue[i].spoolTried = true
                queue[i].spooled = failures[job.id] == nil
                queue[i].spoolError = failures[job.id].map {
                    "\(failures.count) signature(s) not kept in the spool \(spool.directory), held in memory only: \($0)"
                }
            }
            if let writeFailure { answerWaiting(behind: writeFailure.id, reason: writeFailure.reason) }
            condition.broadcast()
        }
        spoolerDone = true
        condition.broadcast()
        condition.unlock()
    }

    /// Deletes what `retention` keeps no longer: from the export folder, and signatures still
    /// waiting to be written (and their spool files), whose capture ended before the cutoff.
    /// Called and returns with the lock held.
    private func deleteExpired(_ retention: Retention) {
        let cutoff = retention.cutoff(now: clock.wall())
        condition.unlock()
        retention.sweep(writer, cutoff: cutoff)
        condition.lock()
        let expired = queue.filter { job in (job.record?.endedAt ?? job.files.flatMap(Retention.captureEnd(of:)) ?? .infinity) < cutoff }
        guard !expired.isEmpty else { return }
        queue.removeAll { job in expired.contains { $0.id == job.id } }
        condition.broadcast()
        condition.unlock()
        for job in expired {
            if job.spooled, let spool {
                do { try spool.release(job.id) } catch { retention.report(.failed("\(error)")) }
                retention.report(.deleted(id: job.id, from: spool.directory))
            } else {
                retention.report(.deleted(id: job.id, from: "memory"))
            }
        }
        condition.lock()
    }

    /// Answers each signature queued behind `headID`, whose write failed or hangs, once the spool
    /// has had its go at it: its request ends now (kept in the spool, or held in memory), not
    /// when the folder answers. Its real result follows when it is written. Called with the lock held.
    private func answerWaiting(behind headID: String, reason: String) {
        var any = false
        for i in queue.indices where queue[i].id != headID && queue[i].spoolTried && !queue[i].answered && queue[i].exportID != nil {
            queue[i].answered = true
            let job = queue[i]
            let listed = (job.files ?? []).map { ExportedFile(name: $0.name, bytes: $0.bytes.count, sha256: SHA256.hex($0.bytes)) }
            finished.append(Result(exportID: job.exportID, recordID: job.id, error: "waiting to be written behind \(headID): \(reason)",
                                   spoolError: job.spoolError, files: listed, spooled: job.spooled))
            any = true
        }
        if any { wake() }
    }

    /// Results are waiting.
    private func wake() { resultsWaiting() }

    /// The files to write, less a signed document already in the folder as these bytes, with
    /// its time-stamp token or not yet (written before a crash, then written again from the
    /// spool): the time stamper, which may be stamping it this moment, is not overwritten, so
    /// the document keeps its token rather than going back to B-B and being asked for another.
    private func keepingStampedDocument(_ files: [ExportFile], id: String) -> [ExportFile] {
        let name = "\(id).\(SignatureEncoder.documentSuffix)"
        guard let document = files.first(where: { $0.name == name }),
              let existing = try? BoundedFile.read(writer.directory + "/" + name, limit: BoundedFile.exportedFileBytes),
              existing == document.bytes || (try? DocumentTimeStamp.asSigned(existing)).map({ $0.token != nil && $0.signed == document.bytes }) == true
        else { return files }
        return files.filter { $0.name != name }
    }

    /// A job's files, made from its record (a job without files has one).
    private func makeFiles(_ job: Job, evidence: Evidence) throws -> [ExportFile] {
        guard let record = job.record else { throw ExportError(path: job.id, operation: "making its files (nothing to make them from)", errno: EINVAL) }
        return try SignatureEncoder.files(for: record, options: options, evidence: evidence, timeStampAuthority: timeStamper?.authority.url, now: clock.wall())
    }

    /// Writes the oldest signature, once the spool has had its go at it; after a failure, waits
    /// `retrySeconds` and tries it again.
    private func writeLoop() {
        condition.lock()
        while true {
            if let failed = preparation, !(stopping && queue.isEmpty) {
                preparation = nil
                busy = (nil, clock.uptime(), [])
                condition.unlock()
                do { try prepareFolder() } catch { failed(error) }
                condition.lock()
                busy = nil
                condition.broadcast()
                continue
            }
            if !lookUps.isEmpty, !stopping {
                let ids = lookUps
                lookUps.removeAll()
                condition.unlock()
                var answers: [Result] = [], unanswered: [String] = []
                for id in ids {
                    do {
                        let files = try lookUpFiles(id)
                        var answer = Result(exportID: nil, recordID: id, error: files == nil ? "not in \(writer.directory)" : nil, files: files ?? [])
                        answer.lookedUp = true
                        answers.append(answer)
                    } catch {
                        unanswered.append(id)
                    }
                }
                condition.lock()
                finished += answers
                if !answers.isEmpty { wake() }
                if !unanswered.isEmpty {
                    // Asked again once the folder may answer; the writes go on meanwhile.
                    let retry = retrySeconds
                    DispatchQueue.global().asyncAfter(deadline: .now() + retry) { [weak self, unanswered] in self?.lookUp(unanswered) }
                }
                continue
            }
            if let retention, !stopping, clock.uptime() >= nextSweep {
                nextSweep = clock.uptime() + Self.sweepInterval
                deleteExpired(retention)
                continue
            }
            guard let job = queue.first, job.spoolTried else {
                // Stopping, the writer still empties the queue; it waits only for the spool's go.
                if stopping && (queue.isEmpty || spoolerDone) { break }
                // Stopping, no sweep is due: a sweep's deadline already past would not wait, and
                // the writer would spin holding the lock the spool needs to give its go.
                if retention != nil && !stopping { wait(until: nextSweep) } else { condition.wait() }
                continue
            }
            busy = (job, clock.uptime(), [])
            let evidence = evidence
            condition.unlock()
            var failure: String?
            var listed: [ExportedFile] = []
            var image: [UInt8]?
            var manifestSignature: [UInt8]?
            do {
                let files = try job.files ?? makeFiles(job, evidence: evidence)
                manifestSignature = files.first { $0.name == job.id + SignatureEncoder.manifestSuffix + Evidence.signatureSuffix }?.bytes
                image = files.first { $0.name.hasSuffix(".png") }?.bytes
                listed = files.map { ExportedFile(name: $0.name, bytes: $0.bytes.count, sha256: SHA256.hex($0.bytes)) }
                condition.lock()
                busy?.files = listed
                if let i = queue.firstIndex(where: { $0.id == job.id }), queue[i].files == nil { queue[i].files = files }
                condition.unlock()
                try writeFiles(keepingStampedDocument(files, id: job.id))
                // Before the spool lets it go: what awaits a token is on disk from now on.
                if let timeStamper, let manifestSignature {
                    let document = files.first { $0.name == "\(job.id).\(SignatureEncoder.documentSuffix)" }
                    timeStamper.submit(id: job.id, manifestSignature: manifestSignature, document: document?.bytes)
                }
            } catch {
                failure = "\(error)"
            }
            condition.lock()
            busy = nil
            let index = queue.firstIndex { $0.id == job.id }
            let spooledNow = index.map { queue[$0].spooled } ?? job.spooled
            var spoolError = index.flatMap { queue[$0].spoolError }
            if failure == nil, let index {
                // Read now, not when the write began: the spool may have kept it meanwhile.
                let spooled = queue[index].spooled
                queue.remove(at: index)
                if spooled, let spool {
                    condition.unlock()
                    do {
                        try spool.release(job.id)
                    } catch {
                        spoolError = "written, but still in the spool \(spool.directory) (it will be written again, identically, at the next start): \(error)"
                    }
                    condition.lock()
                }
            }
            finished.append(Result(exportID: job.exportID, recordID: job.id, error: failure, spoolError: spoolError,
                                   files: listed, spooled: spooledNow, image: image))
            writeFailure = failure.map { (job.id, $0) }
            if let failure { answerWaiting(behind: job.id, reason: failure) }
            wake()
            condition.broadcast()
            if failure != nil {
                if stopping { break }
                wait(until: clock.uptime() + retrySeconds)
            }
        }
        writerDone = true
        condition.broadcast()
        condition.unlock()
    }
}
