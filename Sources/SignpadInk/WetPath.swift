import SignpadVocabulary
/// The provisional "wet" tail: the straight path from the end of the dry ink through the samples
/// still pending to the newest one, each knot with the pen's radius there.
///
/// A new sample usually only lengthens the path, so the renderer draws just the new piece: the
/// path drawn piece by piece covers exactly the pixels it covers drawn whole (per-pixel maximum).
/// It changes otherwise only when a dry curve takes over its start, or a skipped sample is replaced.
///
/// The path may end ahead of the newest sample (`extendAhead`): that last knot is replaced on
/// every event, so the renderer puts back only its piece and keeps the rest.
public struct WetPath: Sendable, RandomAccessCollection {
    /// The scheme keeps at most four knots pending, and a sample skipped for being too close may
    /// follow them; then the predicted point ahead of the newest (`InkPredictor`).
    public static let capacity = 6
    // Six fields, not an `InlineArray`: reading one element of an `InlineArray` property from a
    // non-mutating method copies all six first, a dozen times an event in the renderer.
    private var k0, k1, k2, k3, k4, k5: FlatPoint
    public private(set) var count = 0
    /// Whether the last knot is predicted, not sampled (see `extendAhead`).
    public private(set) var endsAhead = false

    public init() {
        let none = FlatPoint(point: Point(0, 0), radius: 0)
        (k0, k1, k2, k3, k4, k5) = (none, none, none, none, none, none)
    }

    @inline(__always)
    private func knot(_ index: Int) -> FlatPoint {
        switch index {
        case 0: k0
        case 1: k1
        case 2: k2
        case 3: k3
        case 4: k4
        default: k5
        }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(index: Int) -> FlatPoint {
        precondition(index >= 0 && index < count, "WetPath index \(index) out of range 0..<\(count)")
        return knot(index)
    }

    public mutating func append(_ knot: FlatPoint) {
        precondition(count < Self.capacity, "a wet path holds at most \(Self.capacity) knots")
        precondition(!endsAhead, "a wet path's predicted knot is its last")
        switch count {
        case 0: k0 = knot
        case 1: k1 = knot
        case 2: k2 = knot
        case 3: k3 = knot
        case 4: k4 = knot
        default: k5 = knot
        }
        count += 1
    }

    /// No knots; those stored stay, unread, to be written over.
    public mutating func removeAll() {
        count = 0
        endsAhead = false
    }

    /// Adds a predicted knot ahead of the newest, with its radius, when there is one and room;
    /// returns whether it did.
    @discardableResult
    public mutating func extendAhead(to point: Point) -> Bool {
        guard count > 0, count < Self.capacity, !endsAhead else { return false }
        append(FlatPoint(point: point, radius: knot(count - 1).radius))
        endsAhead = true
        return true
    }

    /// The knots that were sampled: all but a predicted last one.
    public var sampledCount: Int { endsAhead ? count - 1 : count }

    /// The pieces to draw, as pairs of knot indices: a lone knot is a dot, otherwise each
    /// neighbouring pair is a capsule.
    public var pieces: Range<Int> { count == 1 ? 0..<1 : 0..<Swift.max(count - 1, 0) }

    /// The ends of piece `index` (both the same knot for a dot).
    public func piece(_ index: Int) -> (FlatPoint, FlatPoint) {
        count == 1 ? (k0, k0) : (knot(index), knot(index + 1))
    }

    /// Whether the first `n` knots (n ≤ `capacity`) are `other`'s: unrolled, where a loop reads
    /// each knot through a switch.
    @inline(__always)
    private func sharesKnots(_ n: Int, with other: WetPath) -> Bool {
        (n < 1 || k0 == other.k0) && (n < 2 || k1 == other.k1) && (n < 3 || k2 == other.k2)
            && (n < 4 || k3 == other.k3) && (n < 5 || k4 == other.k4) && (n < 6 || k5 == other.k5)
    }

    /// The pieces of this path that `shown` has not drawn, if this path only lengthens it. A
    /// dot is not a prefix of a capsule (a narrowing capsule need not cover the dot at its start).
    public func newPieces(after shown: WetPath) -> Range<Int>? {
        guard shown.count >= 2, count > shown.count, sharesKnots(shown.count, with: shown) else { return nil }
        return (shown.count - 1)..<(count - 1)
    }

    /// The pieces of this path that `shown` has not drawn, if `shown` ends ahead and this path
    /// keeps its sampled knots (and at least one piece of them: a dot is no capsule's prefix).
    /// Only `shown`'s predicted piece is then to be put back.
    public func newPieces(afterAheadOf shown: WetPath) -> Range<Int>? {
        let kept = shown.sampledCount
        guard shown.endsAhead, kept >= 2, count >= kept, sharesKnots(kept, with: shown) else { return nil }
        return (kept - 1)..<Swift.max(count - 1, kept - 1)
    }
}

extension WetPath: Equatable {
    public static func == (a: WetPath, b: WetPath) -> Bool {
        a.count == b.count && a.endsAhead == b.endsAhead && a.sharesKnots(a.count, with: b)
    }
}
