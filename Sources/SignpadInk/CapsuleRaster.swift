/// Where one operation's changes go: the changed columns of each row, and for the wet tail the
/// rows it raised, which the next sample restores.
struct InkMarks {
    var changed: RowSpans
    var wetRows: [WetRow] = []
}

/// A row of the wet tail, reported again when it is restored.
struct WetRow {
    var y: Int
    var columns: Range<Int>
}

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
        let lowY = min(ay, b.point.y), highY = max(ay, b.point.y)
        let sloped = abs(dy) > 1e-9
        let inverseDy = sloped ? 1 / dy : 0
        let shape = CapsuleRow(dx: Float(dx), dy: Float(dy), inverseLength2: length2 > 0 ? Float(1 / length2) : 0,
                               radius: Float(a.radius), radiusChange: Float(b.radius - a.radius))
        // Lanes outside the clip are masked; the edges sit half a pixel from every lane's centre,
        // so single-precision rounding cannot move a lane across them.
        let clipped = r.minX > bounds.minX || r.maxX < bounds.maxX
        let leftEdge = Float(Double(r.minX) - ax), rightEdge = Float(Double(r.maxX) - ax)
        for y in r.minY..<r.maxY {
            let cy = Double(y) + 0.5
            // Only the part of the segment within `reach` of this row can cover it: its x range,
            // widened by `reach`, bounds the pixels worth testing.
            var spanMin = r.minX, spanMax = r.maxX
            if sloped {
                let t0 = (max(cy - reach, lowY) - ay) * inverseDy, t1 = (min(cy + reach, highY) - ay) * inverseDy
                let x0 = ax + dx * min(max(t0, 0), 1), x1 = ax + dx * min(max(t1, 0), 1)
                spanMin = max(spanMin, floorInt(min(x0, x1) - reach))
                spanMax = min(spanMax, -floorInt(-(max(x0, x1) + reach)))
            }
            if spanMin >= spanMax { continue }
            let row = planes.row(y)
            let fy = Float(cy - ay)
            var low = Int.max, high = Int.min
            var x0 = spanMin & ~7
            repeat {
                var coverage = shape.cover(firstX: Float(Double(x0) + 0.5 - ax), y: fy)
                if clipped { coverage = CapsuleRow.mask(coverage, firstX: Float(Double(x0) + 0.5 - ax), leftEdge, rightEdge) }
                let rose = row.raise(x0, to: CapsuleRow.levels(coverage), dry: dry)
                if rose != 0 {
                    let columns = PlaneRow.columns(x0, rose)
                    low = min(low, columns.low)
                    high = max(high, columns.high)
                }
                x0 += 8
            } while x0 < spanMax
            if low < high {
                marks.changed.add(y: y, columns: low..<high)
                if !dry { marks.wetRows.append(WetRow(y: y, columns: low..<high)) }
            }
        }
    }
}

/// One capsule's coverage along a row, in single precision with no branches so it vectorises.
struct CapsuleRow {
    let dx: Float
    let dy: Float
    let inverseLength2: Float
    let radius: Float
    let radiusChange: Float

    static let lanes = SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7)

    /// Clamps to 0…1 by compare-and-select, which vectorises (the standard library's pointwise
    /// min and max keep NaN rules that do not).
    @inline(__always)
    static func unit(_ v: SIMD8<Float>) -> SIMD8<Float> {
        let low = v.replacing(with: 0, where: v .< 0)
        return low.replacing(with: 1, where: low .> 1)
    }

    /// Coverage 0…1 of the eight pixels whose centres lie `firstX`… along the row from the
    /// capsule's start, `y` below it.
    @inline(__always)
    func cover(firstX: Float, y: Float) -> SIMD8<Float> {
        let px = Self.lanes + firstX
        let t = Self.unit((px * dx + y * dy) * inverseLength2)
        let ex = px - dx * t, ey = y - dy * t
        let distance = (ex * ex + ey * ey).squareRoot()
        return Self.unit(radius + 0.5 + radiusChange * t - distance)
    }

    /// Zeroes the lanes whose centres lie outside `left`…`right`.
    @inline(__always)
    static func mask(_ coverage: SIMD8<Float>, firstX: Float, _ left: Float, _ right: Float) -> SIMD8<Float> {
        let px = lanes + firstX
        return coverage.replacing(with: 0, where: (px .< left) .| (px .> right))
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
