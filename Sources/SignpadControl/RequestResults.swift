import Foundation
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
    /// The uid that asked, whose result it is (nil in a book from before: root's alone).
    public var owner: UInt32?

    /// The reply's fields (`RequestSignature`'s last reply, `GetResult`).
    public var parameters: [String: JSONValue] {
        var out: [String: JSONValue] = ["id": .string(id), "reference": .string(reference)]
        if let status { out["status"] = .string(status.rawValue) }
        if let reason { out["reason"] = .string(reason) }
        if let stored { out["stored"] = .string(stored.rawValue) }
        if let files {
            out["files"] = .array(files.map { ["name": .string($0.name), "bytes": .number(Double($0.bytes)), "sha256": .string($0.sha256)] })
        }
        return out
    }
}

/// The results of the last requests, kept in a file across restarts so that a point of sale that
/// lost its connection (or restarted) asks for one again: the last `keepCount`, and all of the
/// last `keepSeconds`. A request under way when signpad stopped is `failed` at the next start.
public struct RequestResults {
    public static let keepCount = 100
    public static let keepSeconds = 24 * 3600.0

    public let path: String
    private(set) var entries: [RequestResult] = []

    /// Reads the file (none yet: no results); what cannot be read is reported and started afresh.
    public init(path: String, now: Double) throws(RequestResultsError) {
        self.path = path
        guard let data = FileManager.default.contents(atPath: path) else { return }
        do {
            entries = try JSONDecoder().decode([RequestResult].self, from: data)
        } catch {
            throw RequestResultsError(path: path, reason: "expected a JSON list of request results: \(error)")
        }
        let count = entries.count
        var changed = false
        for index in entries.indices where entries[index].status == nil {
            entries[index].status = .failed
            entries[index].reason = "signpad stopped while the request was under way (a restart, a crash or a power cut); nothing was saved for it"
            entries[index].endedAt = now
            changed = true
        }
        prune(now: now)
        if changed || entries.count != count { try save() }
    }

    /// An empty book at `path` (when the file could not be read).
    public init(emptyAt path: String) { self.path = path }

    public func result(_ id: String) -> RequestResult? { entries.last { $0.id == id } }

    /// Adds or replaces the entry with `result.id`, prunes, and writes the file.
    public mutating func record(_ result: RequestResult, now: Double) throws(RequestResultsError) {
        entries.removeAll { $0.id == result.id }
        entries.append(result)
        prune(now: now)
        try save()
    }

    /// Keeps the last `keepCount`, and any that ended within `keepSeconds`.
    private mutating func prune(now: Double) {
        let recent = Set(entries.suffix(Self.keepCount).map(\.id))
        entries.removeAll { entry in !recent.contains(entry.id) && (entry.endedAt ?? now) < now - Self.keepSeconds }
    }

    private func save() throws(RequestResultsError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            // Written whole and renamed into place: a power cut leaves the old list or the new.
            try encoder.encode(entries).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw RequestResultsError(path: path, reason: "cannot write it: \(error.localizedDescription)")
        }
    }
}

public struct RequestResultsError: Error, CustomStringConvertible {
    public var path: String
    public var reason: String

    public var description: String { "request results \(path): \(reason)" }
}
