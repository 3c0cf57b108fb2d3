/// A position on the screen in pixels; (0, 0) is the top-left corner of the top-left pixel.
/// Its small operations are inlinable, as `PixelRect`'s: every module calls them per event, and
/// a call across modules costs as much as the arithmetic.
public struct Point: Equatable, Hashable, Sendable {
    public var x: Double
    public var y: Double

    @inlinable
    public init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }

    @inlinable public static func + (a: Point, b: Point) -> Point { Point(a.x + b.x, a.y + b.y) }
    @inlinable public static func - (a: Point, b: Point) -> Point { Point(a.x - b.x, a.y - b.y) }
    @inlinable public static func * (a: Point, s: Double) -> Point { Point(a.x * s, a.y * s) }

    @inlinable
    public func distance(to other: Point) -> Double {
        let dx = other.x - x, dy = other.y - y
        return (dx * dx + dy * dy).squareRoot()
    }

    /// The squared distance to the segment from `a` to `b` (to `a` when they coincide).
    @inlinable
    public func squaredDistance(toSegment a: Point, _ b: Point) -> Double {
        let ab = b - a, ap = self - a
        let length2 = ab.x * ab.x + ab.y * ab.y
        let t = length2 > 0 ? min(max((ap.x * ab.x + ap.y * ab.y) / length2, 0), 1) : 0
        let d = self - (a + ab * t)
        return d.x * d.x + d.y * d.y
    }

    @inlinable
    public func midpoint(_ other: Point) -> Point { Point((x + other.x) / 2, (y + other.y) / 2) }

    /// The point a fraction `t` of the way to `other`.
    @inlinable
    public func lerp(_ other: Point, _ t: Double) -> Point { Point(x + (other.x - x) * t, y + (other.y - y) * t) }
}

/// An integer pixel rectangle, half-open: it covers minX..<maxX × minY..<maxY.
public struct PixelRect: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var minX: Int
    public var minY: Int
    public var maxX: Int
    public var maxY: Int

    @inlinable
    public init(minX: Int, minY: Int, maxX: Int, maxY: Int) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    @inlinable
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.init(minX: x, minY: y, maxX: x + width, maxY: y + height)
    }

    @inlinable public var width: Int { maxX - minX }
    @inlinable public var height: Int { maxY - minY }
    @inlinable public var isEmpty: Bool { maxX <= minX || maxY <= minY }
    @inlinable public var area: Int { isEmpty ? 0 : width * height }
    public var description: String { "\(width)x\(height)+\(minX)+\(minY)" }

    @inlinable
    public func intersection(_ other: PixelRect) -> PixelRect {
        PixelRect(minX: max(minX, other.minX), minY: max(minY, other.minY),
                  maxX: min(maxX, other.maxX), maxY: min(maxY, other.maxY))
    }

    @inlinable
    public func union(_ other: PixelRect) -> PixelRect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        return PixelRect(minX: min(minX, other.minX), minY: min(minY, other.minY),
                         maxX: max(maxX, other.maxX), maxY: max(maxY, other.maxY))
    }

    /// True when the two share a pixel or touch along an edge or corner.
    @inlinable
    public func touches(_ other: PixelRect) -> Bool {
        minX <= other.maxX && other.minX <= maxX && minY <= other.maxY && other.minY <= maxY
    }

    @inlinable
    public func contains(x: Int, y: Int) -> Bool { x >= minX && x < maxX && y >= minY && y < maxY }
}

/// floor(x) as an Int. Baseline x86-64 has no rounding instruction, so `rounded(.down)` is a
/// call into libm, and the first call of a process binds it lazily: microseconds on the first stroke.
@inlinable @inline(__always)
public func floorInt(_ x: Double) -> Int {
    let truncated = Int(x)
    return Double(truncated) > x ? truncated - 1 : truncated
}

/// ceil(x) as an Int, without a libm call (see `floorInt`).
@inlinable @inline(__always)
public func ceilInt(_ x: Double) -> Int {
    let truncated = Int(x)
    return Double(truncated) < x ? truncated + 1 : truncated
}
