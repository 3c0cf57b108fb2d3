/// The rectangles an operation changed. Rectangles that overlap are merged into their union, so
/// no pixel is copied twice; rectangles that only touch are merged when their union is no larger
/// than the two apart, so a diagonal stroke's bands do not swell into its whole bounding box.
public struct DirtyRegion: Equatable, Sendable {
    public private(set) var rects: [PixelRect] = []

    public init() { rects.reserveCapacity(16) }

    public init(_ rects: [PixelRect]) {
        self.init()
        for rect in rects { add(rect) }
    }

    public var isEmpty: Bool { rects.isEmpty }
    public var area: Int { rects.reduce(0) { $0 + $1.area } }
    public var bounds: PixelRect { rects.reduce(PixelRect(minX: 0, minY: 0, maxX: 0, maxY: 0)) { $0.union($1) } }

    public mutating func add(_ rect: PixelRect) {
        guard !rect.isEmpty else { return }
        var merged = rect
        var index = 0
        // A union can reach rectangles the original did not touch, so rescan after each merge.
        while index < rects.count {
            if Self.shouldMerge(rects[index], merged) {
                merged = merged.union(rects[index])
                rects.swapAt(index, rects.count - 1)
                rects.removeLast()
                index = 0
            } else {
                index += 1
            }
        }
        rects.append(merged)
    }

    @inline(__always)
    static func shouldMerge(_ a: PixelRect, _ b: PixelRect) -> Bool {
        guard a.touches(b) else { return false }
        return !a.intersection(b).isEmpty || a.union(b).area <= a.area + b.area
    }

    public mutating func add(_ other: DirtyRegion) {
        for rect in other.rects { add(rect) }
    }

    public mutating func removeAll() { rects.removeAllKeepingStorage() }

    public func contains(x: Int, y: Int) -> Bool { rects.contains { $0.contains(x: x, y: y) } }

    /// At most `limit` rectangles covering the same pixels, merging the closest pairs first
    /// (DRM's DirtyFB takes at most 256 clips).
    public func coalesced(toAtMost limit: Int) -> [PixelRect] {
        var result = rects
        while result.count > max(limit, 1) {
            var best = (0, 1, Int.max)
            for i in 0..<result.count {
                for j in (i + 1)..<result.count {
                    let waste = result[i].union(result[j]).area - result[i].area - result[j].area
                    if waste < best.2 { best = (i, j, waste) }
                }
            }
            let merged = result[best.0].union(result[best.1])
            result.remove(at: best.1)
            result[best.0] = merged
        }
        return result
    }
}
