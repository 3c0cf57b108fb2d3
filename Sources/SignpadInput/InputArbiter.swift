import SignpadVocabulary

/// Several devices, one signature: decides which device's stroke events reach the kiosk.
///
/// A panel often has its touchscreen and its pen as two event devices, and signpad reads both.
/// Only one stroke is drawn at a time: the first contact to land owns the paper until it lifts,
/// and a second device's contact meanwhile is ignored until it lifts too. The pen comes first:
/// while a pen is near the glass (in proximity), and for `palmSeconds` after it leaves, the hand
/// that holds it is resting there, so touches are ignored; a touch stroke in progress when the pen
/// comes near, or touches, is the hand too, and the caller takes it back (libinput's touch
/// arbitration cancels such a touch). A pen that lies still near the glass for `restingSeconds`
/// has been put down, on the panel or beside it: nobody's hand is there, so touches draw again
/// until it moves.
///
/// Devices are named by number (the pipeline's, for each device it reads): compared at every
/// stroke event and pen frame, where a path would be retained, released and compared as text.
public struct InputArbiter: Sendable {
    /// How long touches stay ignored after the pen leaves proximity: the hand lifts after the pen.
    public static let palmSeconds = 1.0
    /// A pen near the glass that has moved no more than `restingDistance` px for this long lies
    /// there: a hand that holds a pen above the glass never keeps it that still.
    public static let restingSeconds = 5.0
    public static let restingDistance = 2.0

    /// What to do with one stroke event.
    public enum Route: Equatable, Sendable {
        case pass
        case drop
        /// Take back the stroke in progress (another device's touch), then pass this event.
        case withdrawOwnerThenPass
    }

    /// Whose stroke is on the paper: a touch's gives way to a pen landing or moving near the
    /// glass, a pen's to nothing.
    private enum Holder: Sendable {
        case touch(Int)
        case pen(Int)

        var source: Int {
            switch self {
            case .touch(let source), .pen(let source): source
            }
        }
    }

    private var holder: Holder?
    /// The device whose stroke is on the paper now.
    public var owner: Int? { holder?.source }
    private var heldByTouch: Bool { if case .touch = holder { true } else { false } }
    /// A pen in proximity: where it last moved to, and when.
    private struct NearPen: Sendable {
        let source: Int
        var anchor: Point?
        var since: Double

        /// A pen whose position is unknown is never taken as put down.
        func isResting(now: Double) -> Bool { anchor != nil && now - since >= InputArbiter.restingSeconds }
    }

    /// Pens in proximity now: a panel has one or two, so a list, looked through, where a table
    /// would hash on every frame of a hovering pen.
    private var nearPens: [NearPen] = []
    /// When the last pen left proximity (monotonic seconds).
    private var penLeftAt = -Double.infinity

    public init() {
        // The first pens to come near do not allocate on their event.
        nearPens.reserveCapacity(4)
    }

    /// Whether a touch landing at `now` would be ignored because a pen is, or just was, near (and
    /// held: one lying still does not count).
    public func touchesIgnored(now: Double) -> Bool {
        nearPens.contains { !$0.isResting(now: now) } || now < penLeftAt + Self.palmSeconds
    }

    /// Whether a pen is in proximity, held or lying still.
    public var penNear: Bool { !nearPens.isEmpty }

    /// Routes one stroke event of `source` (a device's number), of a device of `kind`.
    public mutating func route(_ event: StrokeEvent, from source: Int, kind: DeviceKind, now: Double) -> Route {
        switch event {
        case .down:
            let isPen = kind == .pen
            if holder == nil {
                if !isPen && touchesIgnored(now: now) { return .drop }
                holder = isPen ? .pen(source) : .touch(source)
                return .pass
            }
            // A pen landing during a touch stroke: the touch is the hand, not the signature.
            if isPen && heldByTouch && owner != source {
                holder = .pen(source)
                return .withdrawOwnerThenPass
            }
            if owner == source { return .pass }
            return .drop
        case .move:
            return owner == source ? .pass : .drop
        case .up, .cancel, .withdraw:
            guard owner == source else { return .drop }
            holder = nil
            return .pass
        }
    }

    /// A pen's proximity and position (screen px; nil if unknown) as its decoder reads them after
    /// each batch of its events. True when a touch stroke is in progress and the pen is held: the
    /// stroke is the hand's, which the caller takes back.
    public mutating func pen(_ source: Int, near: Bool, at position: Point?, now: Double) -> Bool {
        let index = nearPens.firstIndex { $0.source == source }
        guard near else {
            if let index {
                nearPens.remove(at: index)
                penLeftAt = now
            }
            return false
        }
        let resting: Bool
        if let index {
            resting = Self.move(&nearPens[index], to: position, now: now)
        } else {
            nearPens.append(NearPen(source: source, anchor: position, since: now))
            resting = nearPens[nearPens.count - 1].isResting(now: now)
        }
        guard heldByTouch, !resting else { return false }
        holder = nil
        return true
    }

    /// A near pen seen at `position`: anchored anew once it moves; whether it now rests.
    private static func move(_ pen: inout NearPen, to position: Point?, now: Double) -> Bool {
        if let position, pen.anchor.map({ position.distance(to: $0) > restingDistance }) ?? true {
            pen.anchor = position
            pen.since = now
        }
        return pen.isResting(now: now)
    }

    /// The stroke on the paper is let go of (the kiosk gave it up): the paper is free for the next
    /// contact of any device. Returns the device that held it.
    public mutating func letGo() -> Int? {
        defer { holder = nil }
        return owner
    }

    /// The device `source` is gone (closed or unplugged). True when its stroke was in progress
    /// (the caller sends `.cancel` for it).
    public mutating func remove(_ source: Int, now: Double) -> Bool {
        if let index = nearPens.firstIndex(where: { $0.source == source }) {
            nearPens.remove(at: index)
            penLeftAt = now
        }
        guard owner == source else { return false }
        holder = nil
        return true
    }
}
