/// Rasterises one capsule (a piece of flattened polyline with round ends) straight into the planes.
///
/// Chunks of eight pixels line up with the planes' blocks, so each chunk's coverage meets the
/// levels in one comparison; a pixel two capsules reach is compared twice but repainted only
/// when its level rises, and per-pixel maximum makes the order of capsules irrelevant.
enum CapsuleRaster {
    @inline(__always)
    static func draw(_ a: FlatPoint, _ b: FlatPoint, clip: PixelRect, dry: Bool, planes: Planes, marks: inout InkMarks) {
        let bounds = InkRasterizer.bounds(a, b)
        let r = bounds.intersection(clip)
        guard !r.isEmpty else { return }
        let ax = a.point.x, ay = a.point.y
        let dx = b.point.x - ax, dy = b.point.y - ay
        let length2 = dx * dx + dy * dy
        let reach = max(a.radius, b.radius) + 0.5
        // A pixel centre within `reach` of the segment is within `reach` of its line, so on each
        // row it lies within `halfWidth` of where the line crosses the row's centre. A band no
        // narrower than the capsule's bounds saves nothing, and near-horizontal lines get the whole row.
        let halfWidth = abs(dy) > 1e-9 ? reach * length2.squareRoot() / abs(dy) : .infinity
        let banded = halfWidth < Double(r.width)
        let slope = banded ? dx / dy : 0
        var crossing = ax + (Double(r.minY) + 0.5 - ay) * slope
        // Everything per chunk is single precision and branch-free so it vectorises.
        let fdx = Float(dx), fdy = Float(dy), inverseLength2 = length2 > 0 ? Float(1 / length2) : 0
        let edge = Float(a.radius) + 0.5, radiusChange = Float(b.radius - a.radius)
        // Lanes outside the clip are masked; the edges sit half a pixel from every lane's centre,
        // so single-precision rounding cannot move a lane across them.
        let clipped = r.minX > bounds.minX || r.maxX < bounds.maxX
        let leftEdge = Float(Double(r.minX) - ax), rightEdge = Float(Double(r.maxX) - ax)
        let lanes = SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7)
        for y in r.minY..<r.maxY {
            var spanMin = r.minX, spanMax = r.maxX
            if banded {
                spanMin = max(spanMin, floorInt(crossing - halfWidth))
                spanMax = min(spanMax, -floorInt(-(crossing + halfWidth)))
                crossing += slope
            }
            if spanMin >= spanMax { continue }
            let row = planes.row(y)
            let fy = Float(Double(y) + 0.5 - ay), yAlong = fy * fdy
            var px = lanes + Float(Double(spanMin & ~7) + 0.5 - ax)
            var rose = ChangedColumns()
            var x0 = spanMin & ~7
            repeat {
                let t = unit((px * fdx + yAlong) * inverseLength2)
                let ex = px - fdx * t, ey = fy - fdy * t
                let distance = (ex * ex + ey * ey).squareRoot()
                var coverage = unit(edge + radiusChange * t - distance)
                if clipped { coverage.replace(with: 0, where: (px .< leftEdge) .| (px .> rightEdge)) }
                rose.include(x0, lanes: row.raise(x0, to: levels(coverage), dry: dry))
                x0 += 8
                px += 8
            } while x0 < spanMax
            if let columns = rose.range {
                marks.changed.add(y: y, columns: columns)
                if !dry { marks.wetRows.append(WetRow(y: y, columns: columns)) }
            }
        }
    }

    /// Clamps to 0…1 by compare-and-select, which vectorises (the standard library's pointwise
    /// min and max keep NaN rules that do not).
    @inline(__always)
    static func unit(_ v: SIMD8<Float>) -> SIMD8<Float> {
        let low = v.replacing(with: 0, where: v .< 0)
        return low.replacing(with: 1, where: low .> 1)
    }

    /// round(coverage × 255) per lane.
    @inline(__always)
    static func levels(_ coverage: SIMD8<Float>) -> SIMD8<UInt8> {
        // Adding 2^23 leaves the rounded value in the low mantissa bits: a conversion that cannot trap.
        let rounded = coverage * Float(255) + Float(8_388_608)
        return SIMD8<UInt8>(truncatingIfNeeded: unsafeBitCast(rounded, to: SIMD8<UInt32>.self))
    }
}

/// floor(x) as an Int without a libm call (baseline x86-64 has no rounding instruction).
@inline(__always)
func floorInt(_ x: Double) -> Int {
    let truncated = Int(x)
    return Double(truncated) > x ? truncated - 1 : truncated
}
