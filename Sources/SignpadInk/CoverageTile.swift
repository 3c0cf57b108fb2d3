/// The coverage of one ink piece in a scratch area the size of its bounds.
///
/// Its bytes are all zero between pieces: whoever consumes a row zeroes what it reads, so a new
/// piece never pays for clearing the whole area.
public struct CoverageTile: Sendable {
    public private(set) var box = PixelRect(minX: 0, minY: 0, maxX: 0, maxY: 0)
    private var values: [UInt8] = []
    /// Per row, the columns a capsule may have written; empty when `start >= end`.
    private var starts: [Int] = []
    private var ends: [Int] = []

    public init() {}

    mutating func begin(_ box: PixelRect) {
        self.box = box
        guard !box.isEmpty else { return }
        // A row's last lanes may run a row's width past the area.
        let needed = box.area + box.width + 8
        if values.count < needed { values = [UInt8](repeating: 0, count: max(needed, 2 * values.count)) }
        if starts.count < box.height {
            starts = [Int](repeating: .max, count: max(box.height, 2 * starts.count))
            ends = [Int](repeating: .min, count: starts.count)
        }
    }

    /// Covers the capsule from `a` to `b` by per-pixel maximum.
    mutating func capsule(_ a: FlatPoint, _ b: FlatPoint) {
        let box = self.box
        let r = InkRasterizer.bounds(a, b).intersection(box)
        guard !r.isEmpty else { return }
        let ax = a.point.x, ay = a.point.y
        let dx = b.point.x - ax, dy = b.point.y - ay
        let length2 = dx * dx + dy * dy
        let reach = max(a.radius, b.radius) + 0.5
        let lowY = min(ay, b.point.y), highY = max(ay, b.point.y)
        let sloped = abs(dy) > 1e-9
        let inverseDy = sloped ? 1 / dy : 0
        // Every row's span fits this many lanes of eight, so the loop over them runs the same
        // number of times on every row and its branch is always predicted.
        let widest = (sloped ? abs(dx) * min(1, 2 * reach * abs(inverseDy)) : abs(dx)) + 2 * reach + 2
        let chunks = min(Int(widest) / 8 + 1, (r.width + 7) / 8)
        let shape = CapsuleRow(dx: Float(dx), dy: Float(dy), inverseLength2: length2 > 0 ? Float(1 / length2) : 0,
                               radius: Float(a.radius), radiusChange: Float(b.radius - a.radius))
        values.withUnsafeMutableBufferPointer { buffer in
            starts.withUnsafeMutableBufferPointer { starts in
                ends.withUnsafeMutableBufferPointer { ends in
                    for y in r.minY..<r.maxY {
                        let cy = Double(y) + 0.5
                        // Only the part of the segment within `reach` of this row can cover it: its x
                        // range, widened by `reach`, bounds the pixels worth testing.
                        var spanMin = r.minX, spanMax = r.maxX
                        if sloped {
                            let t0 = (max(cy - reach, lowY) - ay) * inverseDy, t1 = (min(cy + reach, highY) - ay) * inverseDy
                            let x0 = ax + dx * min(max(t0, 0), 1), x1 = ax + dx * min(max(t1, 0), 1)
                            spanMin = max(spanMin, floorInt(min(x0, x1) - reach))
                            spanMax = min(spanMax, -floorInt(-(max(x0, x1) + reach)))
                        }
                        if spanMin >= spanMax { continue }
                        let row = y - box.minY
                        starts[row] = min(starts[row], spanMin)
                        ends[row] = max(ends[row], spanMax)
                        let line = buffer.baseAddress! + (row * box.width - box.minX + spanMin)
                        shape.cover(line, chunks: max(chunks, (spanMax - spanMin + 7) / 8),
                                    firstX: Float(Double(spanMin) + 0.5 - ax), y: Float(cy - ay))
                    }
                }
            }
        }
    }

    mutating func consumeRows(_ body: (_ y: Int, _ columns: Range<Int>, _ coverage: UnsafeMutablePointer<UInt8>) -> Void) {
        let box = self.box
        guard !box.isEmpty else { return }
        values.withUnsafeMutableBufferPointer { buffer in
            for row in 0..<box.height where starts[row] < ends[row] {
                let line = buffer.baseAddress! + (row * box.width - box.minX)
                let columns = starts[row]..<ends[row]
                body(box.minY + row, columns, line)
                starts[row] = .max
                ends[row] = .min
            }
        }
        self.box = PixelRect(minX: 0, minY: 0, maxX: 0, maxY: 0)
    }
}

/// One capsule's coverage along a row, in single precision with no branches so it vectorises.
struct CapsuleRow {
    let dx: Float
    let dy: Float
    let inverseLength2: Float
    let radius: Float
    let radiusChange: Float

    /// Clamps to 0…1 by compare-and-select, which vectorises (the standard library's pointwise
    /// min and max keep NaN rules that do not).
    @inline(__always)
    static func unit(_ v: SIMD8<Float>) -> SIMD8<Float> {
        let low = v.replacing(with: 0, where: v .< 0)
        return low.replacing(with: 1, where: low .> 1)
    }

    /// Eight pixels at a time from `line`. Lanes past the row's span lie beyond the capsule's
    /// reach, so they compute zero coverage and leave the bytes they touch unchanged.
    @inline(__always)
    func cover(_ line: UnsafeMutablePointer<UInt8>, chunks: Int, firstX: Float, y: Float) {
        let lanes = SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7)
        let yAlong = y * dy
        let edge = radius + 0.5
        for chunk in 0..<chunks {
            let px = lanes + (firstX + Float(chunk * 8))
            let t = Self.unit((px * dx + yAlong) * inverseLength2)
            let ex = px - dx * t, ey = y - dy * t
            let distance = (ex * ex + ey * ey).squareRoot()
            let cover = Self.unit(edge + radiusChange * t - distance)
            // Adding 2^23 leaves round(cover × 255) in the low mantissa bits: a conversion that cannot trap.
            let rounded = cover * Float(255) + Float(8_388_608)
            let levels = SIMD8<UInt8>(truncatingIfNeeded: unsafeBitCast(rounded, to: SIMD8<UInt32>.self))
            let at = UnsafeMutableRawPointer(line + chunk * 8)
            let old = at.loadUnaligned(as: SIMD8<UInt8>.self)
            at.storeBytes(of: old.replacing(with: levels, where: levels .> old), as: SIMD8<UInt8>.self)
        }
    }
}

/// floor(x) as an Int without a libm call (baseline x86-64 has no rounding instruction).
@inline(__always)
func floorInt(_ x: Double) -> Int {
    let truncated = Int(x)
    return Double(truncated) > x ? truncated - 1 : truncated
}
