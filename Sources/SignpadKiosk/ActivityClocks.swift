/// The kiosk's two clocks: the idle timeout's (an unconfirmed signature wiped, a touch still
/// down let go of, a request timed out) and sleep's (the screen switched off). Each runs from
/// the last activity that counts for it: a touch landing, lifting or moving away, or a pen
/// moving above the glass. A touch that lands where a phantom flickers (`FlickerGuard`) counts
/// for a clock only if that clock would have run out since the phantom last landed there.
public struct ActivityClocks: Sendable {
    /// Seconds to the idle timeout (0: never).
    public let idleTimeout: Double
    /// Seconds to sleep (0: never).
    public let sleepAfter: Double
    /// When the idle clock last restarted.
    public private(set) var lastActivity = 0.0
    /// When the sleep clock last restarted.
    public private(set) var lastWaking = 0.0
    /// Whether the touch down now counts for each clock.
    public private(set) var touchCounts = (idle: true, sleep: true)

    public init(idleTimeout: Double, sleepAfter: Double) {
        self.idleTimeout = idleTimeout
        self.sleepAfter = sleepAfter
    }

    /// A touch landed `gap` seconds after a still touch last landed at that place (nil: none
    /// did): it counts for a clock only if that clock would have run out meanwhile.
    public mutating func touchLanded(gap: Double?) {
        touchCounts = (idle: !(gap.map { $0 < idleTimeout } ?? false), sleep: !(gap.map { $0 < sleepAfter } ?? false))
    }

    /// The touch down now is a person's after all: it counts for both clocks from now on.
    public mutating func touchIsAPersons() { touchCounts = (idle: true, sleep: true) }

    /// The touch down now acts (lands or lifts): the clocks it counts for restart.
    public mutating func touchActs(now: Double) { restart(now: now, idle: touchCounts.idle, sleep: touchCounts.sleep) }

    /// Activity that counts for both clocks.
    public mutating func activity(now: Double) { restart(now: now, idle: true, sleep: true) }

    public var idleTimeoutRuns: Bool { idleTimeout > 0 }

    public func idleIsUp(now: Double) -> Bool { idleTimeout > 0 && now - lastActivity >= idleTimeout }

    /// When the idle clock runs out, counted from `since` (the last activity by default).
    public func idleDeadline(since: Double? = nil) -> Double { (since ?? lastActivity) + idleTimeout }

    public func sleepIsDue(now: Double) -> Bool { now - lastWaking >= sleepAfter }

    public var sleepDeadline: Double { lastWaking + sleepAfter }

    private mutating func restart(now: Double, idle: Bool, sleep: Bool) {
        if idle { lastActivity = now }
        if sleep { lastWaking = now }
    }
}
