import SignpadVocabulary
/// A point of a flattened curve with the pen's radius there.
public struct FlatPoint: Equatable, Sendable {
    public var point: Point
    public var radius: Double

    public init(point: Point, radius: Double) {
        self.point = point
        self.radius = radius
    }
}

/// Turns ink pieces into anti-aliased coverage.
///
/// Curves are flattened adaptively until no control point is more than `tolerance` from its chord
/// (the curve lies within the hull of its controls, so the polyline is within that too). Each
/// piece of the polyline is a capsule whose coverage at a pixel centre is
/// clamp(radius + 0.5 − distance, 0, 1): analytic, so the same piece always gives the same
/// bytes. Capsules meet the canvas's levels by per-pixel maximum, so joints never double-darken
/// and drawing order does not matter.
public struct InkRasterizer: Sendable {
    /// Maximum distance (px) between a dry curve and its polyline.
    public static let tolerance = 0.1
    private static let maxDepth = 16

    /// Scratch polyline of the last flattened piece, reused so the hot path does not allocate.
    public private(set) var polyline: [FlatPoint] = []
    private var controlLimit = tolerance / 0.75

    /// With capacity 0 (a placeholder) nothing is allocated: reserving even zero gives the shared
    /// empty array a buffer of its own.
    public init(capacity: Int = 256) {
        if capacity > 0 { polyline.reserveCapacity(capacity) }
    }

    public mutating func flatten(_ piece: InkPiece, tolerance: Double = InkRasterizer.tolerance) {
        // A cubic strays from its chord by at most 3/4 of its farthest control point's distance.
        controlLimit = tolerance / 0.75
        polyline.removeAll(keepingCapacity: true)
        switch piece {
        case .dot(let center, let diameter):
            polyline.append(FlatPoint(point: center, radius: diameter / 2))
        case .cubic(let s):
            polyline.append(FlatPoint(point: s.p0, radius: s.startWidth / 2))
            subdivide(s.p0, s.c1, s.c2, s.p3, t0: 0, t1: 1, segment: s, depth: 0)
        }
    }

    private mutating func subdivide(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point,
                                    t0: Double, t1: Double, segment: CubicSegment, depth: Int) {
        if depth >= Self.maxDepth || Self.isFlat(p0, p1, p2, p3, limit: controlLimit) {
            let radius = (segment.startWidth + (segment.endWidth - segment.startWidth) * t1) / 2
            polyline.append(FlatPoint(point: p3, radius: radius))
            return
        }
        let p01 = p0.midpoint(p1), p12 = p1.midpoint(p2), p23 = p2.midpoint(p3)
        let p012 = p01.midpoint(p12), p123 = p12.midpoint(p23)
        let mid = p012.midpoint(p123)
        let tm = (t0 + t1) / 2
        subdivide(p0, p01, p012, mid, t0: t0, t1: tm, segment: segment, depth: depth + 1)
        subdivide(mid, p123, p23, p3, t0: tm, t1: t1, segment: segment, depth: depth + 1)
    }

    /// Compares squared distances: the same test without a square root per control point.
    static func isFlat(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, limit: Double) -> Bool {
        let limit2 = limit * limit
        return p1.squaredDistance(toSegment: p0, p3) <= limit2 && p2.squaredDistance(toSegment: p0, p3) <= limit2
    }

    /// The pixels a capsule from `a` to `b` can touch: its pen radius plus the 1 px of antialiasing.
    @inline(__always)
    public static func bounds(_ a: FlatPoint, _ b: FlatPoint) -> PixelRect {
        let r = max(a.radius, b.radius) + 0.5
        return PixelRect(minX: floorInt(min(a.point.x, b.point.x) - r), minY: floorInt(min(a.point.y, b.point.y) - r),
                         maxX: ceilInt(max(a.point.x, b.point.x) + r), maxY: ceilInt(max(a.point.y, b.point.y) + r))
    }

    /// Rasterises the flattened polyline, clipped to `clip`, into the planes' dry ink; returns the piece's bounds.
    @discardableResult
    func draw(clip: PixelRect, planes: Planes) -> PixelRect {
        let count = polyline.count
        guard count > 0 else { return PixelRect(minX: 0, minY: 0, maxX: 0, maxY: 0) }
        var box = Self.bounds(polyline[0], polyline[0])
        if count == 1 {
            CapsuleRaster.draw(polyline[0], polyline[0], clip: clip, layer: .dry, planes: planes)
        }
        for i in 1..<count {
            CapsuleRaster.draw(polyline[i - 1], polyline[i], clip: clip, layer: .dry, planes: planes)
            box = box.union(Self.bounds(polyline[i - 1], polyline[i]))
        }
        return box.intersection(clip)
    }
}
