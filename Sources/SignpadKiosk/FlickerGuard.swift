import SignpadVocabulary

/// Water or dirt on the glass can make and break contact over and over at one place. Every
/// contact is a tap, and every tap a touch event, so such a phantom would hold the idle timeout
/// off for as long as it flickers, and the last customer's unconfirmed signature would stay on
/// screen for the next. A person does not tap one spot again and again while doing nothing else.
///
/// A touch is *still* while it stays within `radius` of where it landed; its moves within `radius`
/// of where it landed or last moved away to are jitter. The place where still touches landed is
/// remembered, with how many did, until `memorySeconds` have passed since one last landed there.
/// A touch that lands where `phantomLandings − 1` still touches did may be a phantom's: `land`
/// says how long ago the last one landed, and the kiosk judges by its clocks (`Kiosk`): a phantom
/// can hold a clock off only by landing again before that clock runs out. Such a landing refreshes
/// the place, so the place is remembered for as long as it flickers.
///
/// It holds at most `capacity` places in storage reserved at creation: a touch allocates nothing.
public struct FlickerGuard: Sendable {
    /// How far (px) a tap wanders, and how far apart two taps count as one place.
    public static let radius = StrokeEvent.stillRadius
    /// Landings at one place that make it a phantom's: two may be a person's double tap.
    public static let phantomLandings = 3
    /// Places remembered at once; a new one replaces the one touched longest ago.
    static let capacity = 8

    struct Place: Sendable {
        var point: Point
        var lastSeen: Double
        var landings: Int
        /// The phantom here has been reported (`firstReport`).
        var reported = false
    }

    public let memorySeconds: Double
    private var places: [Place] = []
    private var landing: Point?
    /// Where the touch last moved away to: a move within `radius` of it is jitter.
    private var anchor = Point(0, 0)
    private var still = true
    /// The place the touch down now landed on, when still touches keep landing there.
    private var phantomPlace: Int?

    public init(memorySeconds: Double) {
        self.memorySeconds = memorySeconds
        places.reserveCapacity(Self.capacity)
    }

    /// A touch lands. When still touches keep landing here: the seconds since one last did.
    public mutating func land(at point: Point, now: Double) -> Double? {
        landing = point
        anchor = point
        still = true
        phantomPlace = nil
        places.removeAll { now - $0.lastSeen > memorySeconds }
        guard let index = place(near: point), places[index].landings >= Self.phantomLandings - 1 else { return nil }
        let gap = now - places[index].lastSeen
        places[index].lastSeen = now
        phantomPlace = index
        return gap
    }

    /// The touch moves; true when it moves away: more than `radius` from where it landed or last
    /// moved away to. A contact left on the glass that jitters (water that wobbles, a noisy
    /// controller) is then as still as one that reports nothing.
    public mutating func move(to point: Point) -> Bool {
        guard landing != nil, anchor.distance(to: point) > Self.radius else { return false }
        anchor = point
        still = false
        return true
    }

    /// The touch lifts or is let go of; false when no touch was down. A still touch counts as a
    /// landing at its place: water that stayed down until let go of may flicker next.
    @discardableResult
    public mutating func lift(now: Double) -> Bool {
        guard let landing else { return false }
        defer {
            self.landing = nil
            phantomPlace = nil
        }
        if still {
            if let index = place(near: landing) {
                places[index].landings += 1
                places[index].lastSeen = now
            } else {
                remember(landing, now: now)
            }
        }
        return true
    }

    /// Where the phantom whose touch is down now is, the first time it is asked for that place.
    public mutating func firstReport() -> Point? {
        guard let index = phantomPlace, !places[index].reported else { return nil }
        places[index].reported = true
        return places[index].point
    }

    private func place(near point: Point) -> Int? {
        places.firstIndex { $0.point.distance(to: point) <= Self.radius }
    }

    private mutating func remember(_ point: Point, now: Double) {
        guard memorySeconds > 0 else { return }
        if places.count == Self.capacity, let oldest = places.indices.min(by: { places[$0].lastSeen < places[$1].lastSeen }) {
            places.remove(at: oldest)
        }
        places.append(Place(point: point, lastSeen: now, landings: 1))
    }
}
