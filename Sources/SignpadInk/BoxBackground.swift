import SignpadVocabulary
/// The picture under the ink, kept only where ink can be: inside the clip. Outside it the canvas
/// itself is the picture, as no ink is ever drawn there. A row of one colour across the clip
/// (the signature box's paper) is kept as that colour; only rows with a pattern (a background
/// image, a line of the box's frame) keep their pixels. A plain box costs no second frame.
struct BoxBackground: Sendable {
    /// A row colour no XRGB pixel has: the row has a pattern, and its pixels are kept.
    static let patterned: UInt32 = 0xFF00_0000

    let clip: PixelRect
    /// Per row of the clip, its one colour across the clip, or `patterned`.
    private(set) var rowColours: [UInt32]
    /// Per row, where its kept pixels start in `pixels`; only patterned rows have one.
    private var slots: [Int]
    /// Patterned rows' pixels, `clip.width` each. Its first element is a guard, so the array is
    /// never empty and always has an address.
    private var pixels: [UInt32] = [0]
    private var freeSlots: [Int] = []
    private var row: [UInt32]

    /// Takes the clip's background from `canvas`, which must show no ink there.
    init(from canvas: Canvas, clip: PixelRect) {
        self.clip = clip.intersection(canvas.bounds)
        // Rows outside the clip never take ink; they count as plain black.
        rowColours = [UInt32](repeating: 0, count: canvas.height)
        slots = [Int](repeating: -1, count: canvas.height)
        row = [UInt32](repeating: 0, count: max(self.clip.width, 0))
        take(self.clip, from: canvas)
    }

    /// Takes `rect` of the clip's background from `canvas`, just repainted there without ink; the
    /// rest of each row stays as it was kept. Row by row through pointers: it runs for every
    /// request shown and every save, over the whole box (2 million pixels at 1080p).
    mutating func take(_ rect: PixelRect, from canvas: Canvas) {
        let r = rect.intersection(clip)
        guard !r.isEmpty else { return }
        let width = clip.width, inside = (r.minX - clip.minX)..<(r.maxX - clip.minX)
        for y in r.minY..<r.maxY {
            let colour = rowColours[y], slot = slots[y]
            // A whole row of one colour, the paper's, is only looked at: most of the box is.
            if inside.count == width, let plain = canvas.pixels.withUnsafeBufferPointer({ Self.oneColour(UnsafeBufferPointer(start: $0.baseAddress! + y * canvas.stride + clip.minX, count: width)) }) {
                rowColours[y] = plain & 0xFF_FFFF
                if slots[y] >= 0 { freeSlots.append(slots[y]) }
                slots[y] = -1
                continue
            }
            row.withUnsafeMutableBufferPointer { out in
                canvas.pixels.withUnsafeBufferPointer { source in
                    let line = source.baseAddress! + y * canvas.stride + clip.minX
                    if inside.count == width {
                        out.baseAddress!.update(from: line, count: width)
                        return
                    }
                    // Outside `rect` the row keeps what was kept: its colour, or its pixels.
                    pixels.withUnsafeBufferPointer { kept in
                        for x in 0..<width {
                            out[x] = inside.contains(x) ? line[x] : colour == Self.patterned ? kept[slot + x] : colour
                        }
                    }
                }
            }
            if let plain = row.withUnsafeBufferPointer({ Self.oneColour($0) }) {
                rowColours[y] = plain & 0xFF_FFFF
                if slots[y] >= 0 { freeSlots.append(slots[y]) }
                slots[y] = -1
            } else {
                if slots[y] < 0 {
                    if let free = freeSlots.popLast() {
                        slots[y] = free
                    } else {
                        slots[y] = pixels.count
                        pixels += row
                    }
                }
                rowColours[y] = Self.patterned
                let start = slots[y]
                pixels.withUnsafeMutableBufferPointer { kept in
                    row.withUnsafeBufferPointer { (kept.baseAddress! + start).update(from: $0.baseAddress!, count: width) }
                }
            }
        }
    }

    /// The row's colour when every pixel has it, else nil.
    private static func oneColour(_ pixels: UnsafeBufferPointer<UInt32>) -> UInt32? {
        guard let first = pixels.first else { return nil }
        var differs: UInt32 = 0
        for pixel in pixels { differs |= pixel ^ first }
        return differs == 0 ? first : nil
    }

    /// The background at a pixel of the clip.
    subscript(x: Int, y: Int) -> UInt32 {
        let colour = rowColours[y]
        return colour == Self.patterned ? pixels[slots[y] + x - clip.minX] : colour
    }

    /// Puts the background back into `canvas` over `rect` (within the clip).
    func restore(_ rect: PixelRect, into canvas: inout Canvas) {
        let r = rect.intersection(clip)
        guard !r.isEmpty else { return }
        let stride = canvas.stride
        pixels.withUnsafeBufferPointer { kept in
            canvas.pixels.withUnsafeMutableBufferPointer { target in
                for y in r.minY..<r.maxY {
                    let line = target.baseAddress! + y * stride + r.minX
                    let colour = rowColours[y]
                    if colour == Self.patterned {
                        line.update(from: kept.baseAddress! + slots[y] + r.minX - clip.minX, count: r.width)
                    } else {
                        Canvas.fill(line, count: r.width, with: colour)
                    }
                }
            }
        }
    }

    /// Calls `body` with the kept pixels, each row's slot (where its pixel at `clip.minX` is kept,
    /// or -1) and the row colours.
    /// Mutating, though nothing is written: entered in place, each array is only checked to be
    /// the background's own; read from a copy of the background, each would be retained and released.
    @inline(__always)
    mutating func withRows<R>(_ body: (UnsafePointer<UInt32>, UnsafePointer<Int>, UnsafePointer<UInt32>) -> R) -> R {
        pixels.withUnsafeMutableBufferPointer { px in
            slots.withUnsafeMutableBufferPointer { sl in
                rowColours.withUnsafeMutableBufferPointer { rc in body(px.baseAddress!, sl.baseAddress!, rc.baseAddress!) }
            }
        }
    }
}
