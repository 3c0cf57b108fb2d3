import SignpadVocabulary

/// Which strokes a pen's eraser end takes away: whole strokes, those its path passes within
/// `radius` of (a stroke eraser; a signature keeps no partial strokes).
public struct StrokeEraser: Equatable, Sendable {
    /// The eraser's reach (px) beyond the ink's edge; the ink's own half width is added.
    public var radius: Double

    public init(radius: Double = 8) { self.radius = radius }

    /// The indices of the strokes the eraser's move from `a` to `b` touches; `inkWidth` is the
    /// widest the ink is drawn.
    public func strokes(in signature: Signature, touchedFrom a: Point, to b: Point, inkWidth: Double) -> [Int] {
        let reach = radius + inkWidth / 2, reach2 = reach * reach
        return signature.strokes.indices.filter { index in
            let samples = signature.strokes[index]
            guard let first = samples.first?.point else { return false }
            if samples.count == 1 { return first.squaredDistance(toSegment: a, b) <= reach2 }
            return zip(samples, samples.dropFirst()).contains { Self.squaredDistance(a, b, $0.point, $1.point) <= reach2 }
        }
    }

    /// The squared distance between the segments a–b and c–d: zero where they cross, else the
    /// nearest of the four ends to the other segment.
    static func squaredDistance(_ a: Point, _ b: Point, _ c: Point, _ d: Point) -> Double {
        func side(_ p: Point, _ q: Point, _ r: Point) -> Double { (q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x) }
        let d1 = side(c, d, a), d2 = side(c, d, b), d3 = side(a, b, c), d4 = side(a, b, d)
        if ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)) { return 0 }
        return min(a.squaredDistance(toSegment: c, d), b.squaredDistance(toSegment: c, d),
                   c.squaredDistance(toSegment: a, b), d.squaredDistance(toSegment: a, b))
    }
}
