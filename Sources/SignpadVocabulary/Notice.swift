/// What the core tells the journal: a line a person reads at a glance, its level, and the details
/// as fields (the device, the signature, the folder, the reason), which the daemon hands to
/// swift-log as metadata. The core does not import swift-log: the fuzz targets build it alone.
public struct Notice: Sendable, Equatable {
    public enum Level: Sendable, Equatable, Comparable {
        case info, notice, warning, error
    }

    public var level: Level
    /// Short, with no file names or ids: those are `fields`.
    public var message: String
    public var fields: [String: String]

    public init(_ level: Level, _ message: String, _ fields: [String: String] = [:]) {
        self.level = level
        self.message = message
        self.fields = fields
    }

    /// The message and then its fields in key order, as one line (replay's output, the tests).
    public var line: String {
        fields.isEmpty ? message : message + " (" + fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ") + ")"
    }
}
