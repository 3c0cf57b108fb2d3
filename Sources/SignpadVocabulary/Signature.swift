/// The samples of a signature as captured, stroke by stroke: what every export format encodes.
public struct Signature: Equatable, Sendable {
    public var strokes: [[Sample]]

    public init(strokes: [[Sample]] = []) { self.strokes = strokes }

    public var isEmpty: Bool { strokes.isEmpty }
    public var sampleCount: Int { strokes.reduce(0) { $0 + $1.count } }

    /// Total length of the ink in pixels.
    public var inkLength: Double {
        strokes.reduce(0) { total, stroke in
            total + zip(stroke, stroke.dropFirst()).reduce(0) { $0 + $1.0.point.distance(to: $1.1.point) }
        }
    }

    /// The smallest box holding every sample, or nil when there are none.
    public var bounds: (min: Point, max: Point)? {
        var lo = Point(.infinity, .infinity), hi = Point(-.infinity, -.infinity)
        for stroke in strokes {
            for s in stroke {
                lo = Point(Swift.min(lo.x, s.point.x), Swift.min(lo.y, s.point.y))
                hi = Point(Swift.max(hi.x, s.point.x), Swift.max(hi.y, s.point.y))
            }
        }
        return lo.x.isFinite ? (lo, hi) : nil
    }

    /// The same signature moved by `offset` and then scaled by `scale`.
    public func transformed(offset: Point, scale: Double) -> Signature {
        Signature(strokes: strokes.map { $0.map { Sample(($0.point + offset) * scale, time: $0.time, pressure: $0.pressure) } })
    }
}
