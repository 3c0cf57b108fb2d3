/// A message that can come every few seconds for hours: an export folder that stays unwritable
/// (a failure every `retry_seconds`), a device whose events the kernel keeps dropping. The first
/// one is logged, and so is one that says something new; the same again is logged at most once
/// per `interval` seconds, with how often it came meanwhile. The journal keeps its other lines in
/// view, and the daemon keeps nothing that grows.
public struct RepeatedMessage: Sendable {
    public let interval: Double
    private var last: String?
    private var loggedAt = 0.0
    private var heldBack = 0
    /// When the messages began coming, since the last `end`.
    private var firstAt: Double?

    public init(interval: Double) { self.interval = interval }

    /// The line to log for this occurrence of `message`, or nil when it is held back.
    public mutating func line(for message: String, now: Double) -> String? {
        if firstAt == nil { firstAt = now }
        if message == last && now - loggedAt < interval {
            heldBack += 1
            return nil
        }
        let again = message == last && heldBack > 0
            ? " (the same \(heldBack) more time\(heldBack == 1 ? "" : "s") over the last \(Self.duration(now - loggedAt)))" : ""
        last = message
        loggedAt = now
        heldBack = 0
        return message + again
    }

    /// The messages have stopped (the folder takes writes again): how long they came, if they
    /// did. The next one is logged as new.
    public mutating func end(now: Double) -> String? {
        defer {
            last = nil
            heldBack = 0
            firstAt = nil
        }
        return firstAt.map { Self.duration(now - $0) }
    }

    /// "40 s", "12 min", "3 h 5 min".
    public static func duration(_ seconds: Double) -> String {
        let s = Int(max(seconds, 0).rounded())
        if s < 120 { return "\(s) s" }
        if s < 7200 { return "\(s / 60) min" }
        return "\(s / 3600) h \(s % 3600 / 60) min"
    }
}
