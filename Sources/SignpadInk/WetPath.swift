import SignpadVocabulary
/// The provisional "wet" tail: the straight path from the end of the dry ink through the samples
/// still pending to the newest one, each knot with the pen's radius there.
///
/// A new sample usually only lengthens the path, so the renderer draws just the new piece: the
/// path drawn piece by piece covers exactly the pixels it covers drawn whole (per-pixel maximum).
/// It changes otherwise only when a dry curve takes over its start, or a skipped sample is replaced.
public struct WetPath: Sendable, RandomAccessCollection {
    /// The scheme keeps at most four knots pending, and a sample skipped for being too close may
    /// follow them; then the predicted point ahead of the newest (`InkPredictor`).
    public static let capacity = 6
    private var knots: InlineArray<6, FlatPoint>
    public private(set) var count = 0

    public init() {
        let none = FlatPoint(point: Point(0, 0), radius: 0)
        knots = InlineArray(repeating: none)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(index: Int) -> FlatPoint {
        precondition(index >= 0 && index < count, "WetPath index \(index) out of range 0..<\(count)")
        return knots[index]
    }

    public mutating func append(_ knot: FlatPoint) {
        precondition(count < Self.capacity, "a wet path holds at most \(Self.capacity) knots")
        knots[count] = knot
        count += 1
    }

    /// The pieces to draw, as pairs of knot indices: a lone knot is a dot, otherwise each
    /// neighbouring pair is a capsule.
    public var pieces: Range<Int> { count == 1 ? 0..<1 : 0..<Swift.max(count - 1, 0) }

    /// The ends of piece `index` (both the same knot for a dot).
    public func piece(_ index: Int) -> (FlatPoint, FlatPoint) {
        count == 1 ? (knots[0], knots[0]) : (knots[index], knots[index + 1])
    }

    /// The pieces of this path that `shown` has not drawn, if this path only lengthens it. A
    /// dot is not a prefix of a capsule (a narrowing capsule need not cover the dot at its start).
    public func newPieces(after shown: WetPath) -> Range<Int>? {
        guard shown.count >= 2, count > shown.count else { return nil }
        for index in 0..<shown.count where knots[index] != shown.knots[index] { return nil }
        return (shown.count - 1)..<(count - 1)
    }
}

extension WetPath: Equatable {
    public static func == (a: WetPath, b: WetPath) -> Bool {
        guard a.count == b.count else { return false }
        for index in 0..<a.count where a.knots[index] != b.knots[index] { return false }
        return true
    }
}
