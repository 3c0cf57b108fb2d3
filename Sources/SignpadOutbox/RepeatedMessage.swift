import SignpadVocabulary

/// A notice that can come every few seconds for hours: an export folder that stays unwritable
/// (a failure every `retry_seconds`), a device whose events the kernel keeps dropping. The first
/// one is told, and so is one that says something new; the same again is told at most once per
/// `interval` seconds, with how often it came meanwhile. The journal keeps its other lines in
/// view, and the daemon keeps nothing that grows.
public struct RepeatedMessage: Sendable {
    public let interval: Double
    private var last: Notice?
    private var toldAt = 0.0
    private var heldBack = 0
    /// When the notices began coming, since the last `end`.
    private var firstAt: Double?

    public init(interval: Double) { self.interval = interval }

    /// The notice to tell for this occurrence, or nil when it is held back; one told after some
    /// were held back says how many in its field `repeated`.
    public mutating func notice(_ notice: Notice, now: Double) -> Notice? {
        if firstAt == nil { firstAt = now }
        if notice == last && now - toldAt < interval {
            heldBack += 1
            return nil
        }
        var told = notice
        if notice == last && heldBack > 0 {
            told.fields["repeated"] = "\(heldBack) more time\(heldBack == 1 ? "" : "s") over the last \(Self.duration(now - toldAt))"
        }
        last = notice
        toldAt = now
        heldBack = 0
        return told
    }

    /// The notices have stopped (the folder takes writes again): how long they came, if they
    /// did. The next one is told as new.
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
