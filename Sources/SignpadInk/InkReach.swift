import SignpadVocabulary
/// The screen rectangle a stroke's ink can reach: its samples' bounds widened by `margin` (the
/// widest pen's width and a pixel of antialiasing). The midpoint scheme's curves lie within the
/// hull of their samples, and its caps and dots within a pen's width of one.
public struct InkReach: Sendable {
    private var minX = Double.infinity, minY = Double.infinity
    private var maxX = -Double.infinity, maxY = -Double.infinity

    public init() {}

    public init(_ stroke: [Sample]) {
        for sample in stroke { add(sample.point) }
    }

    public mutating func add(_ point: Point) {
        minX = min(minX, point.x)
        minY = min(minY, point.y)
        maxX = max(maxX, point.x)
        maxY = max(maxY, point.y)
    }

    /// Widens the reach to cover `other`'s too.
    public mutating func add(_ other: InkReach) {
        minX = min(minX, other.minX)
        minY = min(minY, other.minY)
        maxX = max(maxX, other.maxX)
        maxY = max(maxY, other.maxY)
    }

    /// The pixels reached with ink up to `margin` away from the samples; nil for no sample.
    public func rect(margin: Double) -> PixelRect? {
        guard minX <= maxX else { return nil }
        return PixelRect(minX: floorInt(minX - margin), minY: floorInt(minY - margin),
                         maxX: floorInt(maxX + margin) + 1, maxY: floorInt(maxY + margin) + 1)
    }
}
