import Dispatch
import FoundationEssentials
import Glibc
import Synchronization
import SignpadOutbox
import SignpadVarlink

/// How one request ended, as `GetResult` answers it.
public struct RequestResult: Codable, Equatable, Sendable {
    public enum Status: String, Codable, Sendable { case signed, cancelled, timedOut, failed }
    public enum Stored: String, Codable, Sendable { case saved, kept, held }

    public struct File: Codable, Equatable, Sendable {
        public var name: String
        public var bytes: Int
        public var sha256: String

        public init(name: String, bytes: Int, sha256: String) {
            self.name = name
            self.bytes = bytes
            self.sha256 = sha256
        }

        public init(_ file: Exporter.ExportedFile) { self.init(name: file.name, bytes: file.bytes, sha256: file.sha256) }
    }

    public var id: String
    public var reference: String
    /// nil while the request is under way.
    public var status: Status?
    public var reason: String?
    public var stored: Stored?
    public var files: [File]?
    /// Seconds since 1970 when it began, and when it ended.
    public var startedAt: Double
    public var endedAt: Double?
    /// The customer pressed Done: its signature went to the exporter, so a stop before its
    /// answer leaves it to be settled from the spool and the export folder, never failed.
    public var confirmed: Bool?
    /// The uid that asked, whose result it is (nil in a book from before: root's alone).
    public var owner: UInt32?
    /// Where the signed document is (or will be, once the export folder takes it).
    public var documentPath: String?

    /// The reply's fields (`RequestSignature`'s last reply, `GetResult`).
    public var parameters: [String: JSONValue] {
        var out: [String: JSONValue] = ["id": .string(id), "reference": .string(reference)]
        if let status { out["status"] = .string(status.rawValue) }
        if let reason { out["reason"] = .string(reason) }
        if let stored { out["stored"] = .string(stored.rawValue) }
        if let files {
            out["files"] = .array(files.map { ["name": .string($0.name), "bytes": .number(Double($0.bytes)), "sha256": .string($0.sha256)] })
        }
        if let documentPath, let file = files?.first(where: { documentPath.hasSuffix("/" + $0.name) }) {
            out["document"] = .object(["path": .string(documentPath), "sha256": .string(file.sha256)])
        }
        return out
    }
}

/// The results of the last requests, kept in a file across restarts so that a point of sale that
/// lost its connection (or restarted) asks for one again: the last `keepCount`, and all of the
/// last `keepSeconds`, within `maxEntries` and `maxBytes` (oldest dropped first). A request under
/// way when signpad stopped is `failed` at the next start, unless the customer had confirmed it:
/// that one is `unsettled` until the spool and the export folder say where its signature is.
/// The file is written off the caller's thread (`BookWriter`): the daemon's loop never waits on it.
public struct RequestResults {
    public static let keepCount = 100
    public static let keepSeconds = 24 * 3600.0
    public static let maxEntries = 1000
    public static let maxBytes = 1 << 20

    public let path: String
    private(set) var entries: [RequestResult] = []
    /// Each entry's size in the file, to keep it within `maxBytes` without encoding it whole.
    private var sizes: [Int] = []
    private let writer: BookWriter

    /// Reads the file (none yet: no results); what cannot be read is reported and started afresh.
    /// `written` is called, on the writing thread, whenever a write has ended.
    public init(path: String, now: Double, written: @escaping @Sendable () -> Void = {}) throws(RequestResultsError) {
        self.path = path
        writer = BookWriter(path: path, written: written)
        var info = stat()
        if stat(path, &info) == 0, info.st_size > Self.maxBytes * 2 {
            throw RequestResultsError(path: path, reason: "expected at most \(Self.maxBytes * 2) bytes, found \(info.st_size); not read")
        }
        guard let data = FileManager.default.contents(atPath: path) else { return }
        do {
            entries = try JSONDecoder().decode([RequestResult].self, from: data)
        } catch {
            throw RequestResultsError(path: path, reason: "expected a JSON list of request results: \(error)")
        }
        sizes = entries.map(Self.size)
        prune(now: now)
        try writer.writeNow(entries)
    }

    /// An empty book at `path` (when the file could not be read).
    public init(emptyAt path: String, written: @escaping @Sendable () -> Void = {}) {
        self.path = path
        writer = BookWriter(path: path, written: written)
    }

    public var count: Int { entries.count }

    public func result(_ id: String) -> RequestResult? { entries.last { $0.id == id } }

    /// Requests under way when signpad stopped (read from the file, before any request of this
    /// run): each one's signature is in the spool, in the export folder, or nowhere.
    public var unsettled: [String] { entries.filter { $0.status == nil }.map(\.id) }

    /// Requests answered `kept` (their signature in the spool): a stop after the write that took
    /// it out of the spool, before the book had it saved, leaves them to be looked for.
    public var kept: [String] { entries.filter { $0.status == .signed && $0.stored == .kept }.map(\.id) }

    /// Adds or replaces the entry with `result.id`, prunes, and has the file written. Returns its
    /// ticket: the file holds it once `writtenThrough` reaches it.
    @discardableResult
    public mutating func record(_ result: RequestResult, now: Double) throws(RequestResultsError) -> Int {
        if let index = entries.lastIndex(where: { $0.id == result.id }) {
            entries.remove(at: index)
            sizes.remove(at: index)
        }
        entries.append(result)
        sizes.append(Self.size(result))
        prune(now: now)
        let (ticket, failure) = writer.write(entries)
        if let failure { throw failure }
        return ticket
    }

    /// The last ticket whose list the file holds (or whose write failed, which the next `record`
    /// reports): an answer that must outlive a crash is sent once its ticket is through.
    public var writtenThrough: Int { writer.writtenThrough }

    /// Settles an unsettled request: signed, in the spool (`kept`) or the export folder.
    public mutating func settle(_ id: String, kept: Bool, files: [RequestResult.File], now: Double) throws(RequestResultsError) {
        guard var entry = result(id), entry.status == nil else { return }
        entry.status = .signed
        entry.stored = kept ? .kept : .saved
        entry.files = files
        entry.reason = kept ? "signpad stopped before the export folder answered; the signature is written from the spool" : nil
        entry.endedAt = entry.endedAt ?? now
        try record(entry, now: now)
    }

    /// Fails an unsettled request whose signature is nowhere: signpad stopped before the customer
    /// confirmed it, or within moments of Done.
    public mutating func failUnsettled(_ id: String, now: Double) throws(RequestResultsError) {
        guard var entry = result(id), entry.status == nil else { return }
        entry.status = .failed
        entry.reason = entry.confirmed == true
            ? "signpad stopped moments after Done, before the signature was kept; nothing was saved for it"
            : "signpad stopped while the request was under way (a restart, a crash or a power cut); nothing was saved for it"
        entry.endedAt = now
        try record(entry, now: now)
    }

    /// Waits until the file holds the last `record`.
    public func flush() { writer.flush() }

    /// Keeps the last `keepCount`, and any that ended within `keepSeconds`, then drops the
    /// oldest past `maxEntries` and `maxBytes`. Unsettled and open ones are dropped last.
    private mutating func prune(now: Double) {
        let recent = entries.count - Self.keepCount
        var kept = 0
        for index in entries.indices {
            let entry = entries[index]
            guard index >= recent || entry.status == nil || (entry.endedAt ?? now) >= now - Self.keepSeconds else { continue }
            entries[kept] = entry
            sizes[kept] = sizes[index]
            kept += 1
        }
        entries.removeLast(entries.count - kept)
        sizes.removeLast(sizes.count - kept)
        var bytes = sizes.reduce(2, +)
        while entries.count > 1, entries.count > Self.maxEntries || bytes > Self.maxBytes {
            let oldest = entries.firstIndex { $0.status != nil } ?? 0
            bytes -= sizes[oldest]
            entries.remove(at: oldest)
            sizes.remove(at: oldest)
        }
    }

    /// An entry's bytes in the file, with the comma after it.
    private static func size(_ entry: RequestResult) -> Int {
        ((try? BookWriter.encoder.encode(entry).count) ?? 0) + 1
    }
}

/// Writes the results book on a thread of its own, the newest list only: a request's two
/// records in one turn are one write, and a slow disk holds up no reply or ink.
final class BookWriter: Sendable {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    let path: String
    private let queue = DispatchQueue(label: "signpad-results")
    private struct State {
        var waiting: (entries: [RequestResult], ticket: Int)?
        var lastTicket = 0
        var writtenThrough = 0
        /// Why the last write failed, reported by the next `write`.
        var failure: RequestResultsError?
    }
    private let state = Mutex(State())
    /// Called once a write has ended.
    private let written: @Sendable () -> Void

    init(path: String, written: @escaping @Sendable () -> Void) {
        self.path = path
        self.written = written
    }

    /// Has `entries` written; returns its ticket, and why an earlier write failed, if one did
    /// since the last call.
    func write(_ entries: [RequestResult]) -> (ticket: Int, failure: RequestResultsError?) {
        let (ticket, scheduled, failure) = state.withLock { state -> (Int, Bool, RequestResultsError?) in
            let scheduled = state.waiting != nil
            state.lastTicket += 1
            state.waiting = (entries, state.lastTicket)
            defer { state.failure = nil }
            return (state.lastTicket, scheduled, state.failure)
        }
        if !scheduled {
            queue.async { [self] in
                guard let latest = state.withLock({ state in defer { state.waiting = nil }; return state.waiting }) else { return }
                var failure: RequestResultsError?
                do throws(RequestResultsError) { try writeNow(latest.entries) } catch { failure = error }
                state.withLock { state in
                    state.writtenThrough = latest.ticket
                    if let failure { state.failure = failure }
                }
                written()
            }
        }
        return (ticket, failure)
    }

    var writtenThrough: Int { state.withLock { $0.writtenThrough } }

    func flush() { queue.sync {} }

    /// Written whole and renamed into place: a power cut leaves the old list or the new.
    func writeNow(_ entries: [RequestResult]) throws(RequestResultsError) {
        do {
            try Self.encoder.encode(entries).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw RequestResultsError(path: path, reason: "cannot write it: \(FileErrorText.reason(error))")
        }
    }
}

public struct RequestResultsError: Error, CustomStringConvertible {
    public var path: String
    public var reason: String

    public var description: String { "request results \(path): \(reason)" }
}
