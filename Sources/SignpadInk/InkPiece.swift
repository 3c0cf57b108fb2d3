import SignpadVocabulary
/// A cubic Bezier whose width changes linearly in t from `startWidth` to `endWidth`.
public struct CubicSegment: Equatable, Sendable {
    public var p0: Point
    public var c1: Point
    public var c2: Point
    public var p3: Point
    public var startWidth: Double
    public var endWidth: Double

    public init(p0: Point, c1: Point, c2: Point, p3: Point, startWidth: Double, endWidth: Double) {
        self.p0 = p0
        self.c1 = c1
        self.c2 = c2
        self.p3 = p3
        self.startWidth = startWidth
        self.endWidth = endWidth
    }

    public func point(at t: Double) -> Point {
        let u = 1 - t
        let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
        return Point(a * p0.x + b * c1.x + c * c2.x + d * p3.x, a * p0.y + b * c1.y + c * c2.y + d * p3.y)
    }
}

/// One drawable piece of ink: a smoothed curve, or the round dot of a tap.
public enum InkPiece: Equatable, Sendable {
    case cubic(CubicSegment)
    case dot(center: Point, diameter: Double)

    public var endPoint: Point {
        switch self {
        case .cubic(let segment): return segment.p3
        case .dot(let center, _): return center
        }
    }

    /// Pixels the piece can reach: a cubic lies within its control points' hull, and its ink
    /// within half its widest width (and a pixel of antialiasing) of the curve.
    public var reach: PixelRect {
        switch self {
        case .cubic(let s):
            let r = max(s.startWidth, s.endWidth) / 2 + 1
            let minX = min(s.p0.x, s.c1.x, s.c2.x, s.p3.x) - r, maxX = max(s.p0.x, s.c1.x, s.c2.x, s.p3.x) + r
            let minY = min(s.p0.y, s.c1.y, s.c2.y, s.p3.y) - r, maxY = max(s.p0.y, s.c1.y, s.c2.y, s.p3.y) + r
            return PixelRect(minX: floorInt(minX), minY: floorInt(minY), maxX: floorInt(maxX) + 1, maxY: floorInt(maxY) + 1)
        case .dot(let c, let d):
            let r = d / 2 + 1
            return PixelRect(minX: floorInt(c.x - r), minY: floorInt(c.y - r), maxX: floorInt(c.x + r) + 1, maxY: floorInt(c.y + r) + 1)
        }
    }
}

/// At most two pieces, held inline so the per-sample path allocates nothing.
public struct InkPieces: Equatable, Sendable, RandomAccessCollection {
    private var first: InkPiece?
    private var second: InkPiece?
    public private(set) var count = 0

    public init() {}

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(index: Int) -> InkPiece {
        precondition(index >= 0 && index < count, "InkPieces index \(index) out of range 0..<\(count)")
        return index == 0 ? first! : second!
    }

    public mutating func removeAll() {
        first = nil
        second = nil
        count = 0
    }

    public mutating func append(_ piece: InkPiece) {
        switch count {
        case 0: first = piece
        case 1: second = piece
        default: preconditionFailure("InkPieces holds at most two pieces")
        }
        count += 1
    }
}
