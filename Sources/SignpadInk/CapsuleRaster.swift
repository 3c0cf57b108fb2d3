import SignpadVocabulary
/// The levels a capsule raises: `dry` raises both, `wet` only the shown level, and what it
/// covered before is noted, chunk by chunk, to be put back (`Planes.wet`).
enum InkLayer {
    case dry
    /// The wet tail, up to the newest sample or ahead of it.
    case wet
}

/// Rasterises one capsule (a piece of flattened polyline with round ends) straight into the planes.
///
/// Each row's chunks of eight pixels start where the capsule's band does (see
/// `LevelLayout.chunkStart`), so few lanes fall outside the ink, and a chunk's coverage meets
/// the levels in one comparison. Only levels change here; the renderer repaints the changed
/// columns once per operation. A pixel two capsules (or two overlapping chunks) reach is
/// compared twice, and per-pixel maximum makes the order irrelevant.
enum CapsuleRaster {
    /// A `wet` capsule needs room in `planes.wet` for each chunk it may raise
    /// (`WetLog.chunksAtMost`).
    @inline(__always)
    static func draw(_ a: FlatPoint, _ b: FlatPoint, clip: PixelRect, layer: InkLayer, planes: Planes) {
        let bounds = InkRasterizer.bounds(a, b)
        let r = bounds.intersection(clip)
        guard !r.isEmpty else { return }
        let rows = r.minY..<r.maxY
        let dry = layer == .dry, log = dry ? nil : planes.wet
        // Debug builds check the room the renderer made for the capsule (`WetLog.chunksAtMost`).
        let firstNoted = log?.mark ?? 0
        defer { assert(log.map { Double($0.mark - firstNoted) <= WetLog.chunksAtMost(a, b) } ?? true, "a wet piece noted more chunks than its bound") }
        let dx = b.point.x - a.point.x, dy = b.point.y - a.point.y
        let length = (dx * dx + dy * dy).squareRoot()
        let reach = max(a.radius, b.radius) + 0.5
        // A pixel centre within `reach` of the segment is within `reach` of its line, so on each
        // row it lies within `halfWidth` of where the line crosses the row's centre. A band no
        // narrower than the capsule's bounds saves nothing, and near-horizontal lines get the whole row.
        let halfWidth = abs(dy) > 1e-9 ? reach * length / abs(dy) : .infinity
        let banded = halfWidth < Double(r.width)
        // The band is stepped in 16.16 fixed point, so a row's span is two shifts rather than two
        // floors. The rounded slope drifts by at most half a unit per row, so the band is widened
        // by a unit per row to stay a bound; a banded slope is bounded, far from overflow.
        let fixedOne = 65536.0
        let slope = banded ? floorInt(dx / dy * fixedOne + 0.5) : 0
        var crossing = banded ? floorInt((a.point.x + (Double(r.minY) + 0.5 - a.point.y) * dx / dy) * fixedOne) : 0
        let bandHalf = banded ? floorInt(halfWidth * fixedOne) + r.height + 2 : 0
        // Pixels are measured in the capsule's own frame: `along` its axis from its middle and
        // `across` it. The distance to the capsule's core is then √(across² + max(|along| − half, 0)²),
        // with no projection to clamp. A dot has no axis; any unit vector serves.
        let cx = a.point.x + dx / 2, cy = a.point.y + dy / 2
        let ux = length > 0 ? dx / length : 1, uy = length > 0 ? dy / length : 0
        let half = Float(length / 2), fux = Float(ux), fuy = Float(uy)
        // Everything per chunk is single precision and branch-free so it vectorises.
        let edge = Float(a.radius) + 0.5, radiusChange = Float(b.radius - a.radius)
        let varying = radiusChange != 0, inverseLength = length > 0 ? Float(1 / length) : 0
        // Lanes outside the clip are masked; the edges sit half a pixel from every lane's centre,
        // so single-precision rounding cannot move a lane across them.
        let clipped = r.minX > bounds.minX || r.maxX < bounds.maxX
        let leftEdge = Float(Double(r.minX) - cx), rightEdge = Float(Double(r.maxX) - cx)
        let lanes = SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7)
        planes.changed.cover(rows)
        var chunks = 0
        defer { planes.rasterised.pointee &+= chunks &* 8 }
        for y in rows {
            var spanMin = r.minX, spanMax = r.maxX
            if banded {
                spanMin = max(spanMin, (crossing &- bandHalf) &>> 16)
                spanMax = min(spanMax, ((crossing &+ bandHalf) &>> 16) &+ 1)
                crossing &+= slope
            }
            if spanMin >= spanMax { continue }
            let row = planes.row(y)
            let qy = Double(y) + 0.5 - cy
            let alongRow = Float(qy * uy), acrossRow = Float(qy * ux)
            var x0 = LevelLayout.chunkStart(spanMin)
            var qx = lanes + Float(Double(x0) + 0.5 - cx)
            var rose = ChangedColumns()
            while true {
                let along = qx * fux + alongRow, across = qx * fuy - acrossRow
                let beyond = positive(magnitude(along) - half)
                let distance = (across * across + beyond * beyond).squareRoot()
                var coverage = edge - distance
                if varying { coverage += radiusChange * unit((along + half) * inverseLength) }
                if clipped { coverage.replace(with: 0, where: (qx .< leftEdge) .| (qx .> rightEdge)) }
                if let log {
                    let chunk = row.levels + LevelLayout.columnOffset(x0)
                    let shown = chunk.loadUnaligned(fromByteOffset: LevelLayout.segmentColumns, as: UInt64.self)
                    let lanes = row.raise(x0, to: levels(coverage), dry: false)
                    if lanes != 0 { log.record(chunk, base: planes.levels, y: y, x0: x0, shown: shown) }
                    rose.include(x0, lanes: lanes)
                } else {
                    rose.include(x0, lanes: row.raise(x0, to: levels(coverage), dry: dry))
                }
                chunks &+= 1
                let end = x0 &+ 8
                if end >= spanMax { break }
                // The next chunk steps back where it would leave its segment.
                x0 = LevelLayout.chunkStart(end)
                qx += Float(x0 &- end &+ 8)
            }
            if let columns = rose.range { planes.changed.add(y: y, columns: columns) }
        }
    }

    /// |v| per lane, by clearing the sign bit.
    @inline(__always)
    static func magnitude(_ v: SIMD8<Float>) -> SIMD8<Float> {
        unsafeBitCast(unsafeBitCast(v, to: SIMD8<UInt32>.self) & 0x7FFF_FFFF, to: SIMD8<Float>.self)
    }

    /// max(v, 0) per lane: the sign bit, spread across the lane, clears negative lanes. Two
    /// instructions per half, where compare-and-select may compile to a lane-by-lane loop.
    @inline(__always)
    static func positive(_ v: SIMD8<Float>) -> SIMD8<Float> {
        let bits = unsafeBitCast(v, to: SIMD8<Int32>.self)
        return unsafeBitCast(bits & ~(bits &>> 31), to: SIMD8<Float>.self)
    }

    /// Clamps to 0…1 per lane (min(v, 1) = 1 − max(1 − v, 0)).
    @inline(__always)
    static func unit(_ v: SIMD8<Float>) -> SIMD8<Float> {
        positive(1 - positive(1 - v))
    }

    /// round(clamp(coverage, 0, 1) × 255) per lane.
    @inline(__always)
    static func levels(_ coverage: SIMD8<Float>) -> SIMD8<UInt8> {
        // Adding 1.5 × 2^23 leaves round(v) in the low mantissa bits for |v| < 2^22: a
        // conversion that cannot trap. Coverage is at most the pen's radius, and at least minus
        // a lane's distance from the capsule, both far inside that; below zero it rounds to a
        // negative level, which the clamp below makes 0.
        let biased = coverage * Float(255) + Float(12_582_912)
        let rounded = unsafeBitCast(biased, to: SIMD8<Int32>.self) &- 0x4B40_0000
        // Written as a clamp lane by lane, this becomes two saturating packs (the clamp is free).
        var out = SIMD8<UInt8>()
        for lane in 0..<8 {
            let level = rounded[lane] < 255 ? rounded[lane] : 255
            out[lane] = UInt8(truncatingIfNeeded: level > 0 ? level : 0)
        }
        return out
    }
}
