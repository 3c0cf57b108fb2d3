import SignpadVocabulary

/// Two short taps outside the box, the second landing soon after and near the first, confirm as
/// Done does, once a quiet as long follows with no touch landing (`KioskRules.doubleTapConfirms`).
/// Water making and breaking contact at one place taps on and on, so it never gets its quiet;
/// a finger taps twice and stops.
public struct DoubleTap: Sendable {
    /// The longest a tap lasts, the longest between the two taps, and the quiet after them.
    public let seconds: Double
    /// How near the first tap the second must land (px).
    public let radius: Double
    /// The taps in a row so far: each within `seconds` and `radius` of the one before.
    private var taps: (count: Int, time: Double, at: Point)?
    /// When the taps confirm, if no touch lands before.
    public private(set) var confirmsAt: Double?

    public init(seconds: Double, radius: Double) {
        self.seconds = seconds
        self.radius = radius
    }

    /// A touch landed: a third tap, or a customer going on, means two taps were not all.
    public mutating func touchLanded() { confirmsAt = nil }

    /// A touch outside the box that landed at `origin` at `start` lifted at `now`: a tap if it
    /// was short and did not move.
    public mutating func lifted(at origin: Point, start: Double, now: Double, moved: Bool) {
        guard !moved && now - start < seconds else { return }
        var count = 1
        if let last = taps, start - last.time < seconds, origin.distance(to: last.at) <= radius { count = last.count + 1 }
        taps = (count, now, origin)
        if count == 2 { confirmsAt = now + seconds }
    }

    /// True once, when the quiet after two taps has passed: confirm now.
    public mutating func confirms(now: Double) -> Bool {
        guard let at = confirmsAt, now >= at else { return false }
        confirmsAt = nil
        taps = nil
        return true
    }
}
