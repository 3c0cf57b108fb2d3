import Synchronization
import Logging

/// Every message logged, for tests to read; appended from any thread.
public final class CollectedLog: Sendable {
    private let messages = Mutex<[String]>([])

    public init() {}

    public var text: String { messages.withLock { $0.joined(separator: "\n") } }

    public func logger() -> Logger {
        Logger(label: "test") { _ in CollectingHandler(log: self) }
    }

    public func append(_ message: String) { messages.withLock { $0.append(message) } }
}

private struct CollectingHandler: LogHandler {
    let log: CollectedLog
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// The level, the message, then its metadata in key order, as the journal's line has them all.
    func log(event: LogEvent) {
        let fields = (event.metadata ?? [:]).merging(metadata) { own, _ in own }.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
        log.append("\(event.level): \(event.message)\(fields)")
    }
}
