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
    /// rest of each row stays as it was kept.
    mutating func take(_ rect: PixelRect, from canvas: Canvas) {
        let r = rect.intersection(clip)
        guard !r.isEmpty else { return }
        for y in r.minY..<r.maxY {
            for x in clip.minX..<clip.maxX {
                row[x - clip.minX] = r.minX <= x && x < r.maxX ? canvas[x, y] : self[x, y]
            }
            let first = row[0]
            if row.allSatisfy({ $0 == first }) {
                rowColours[y] = first & 0xFF_FFFF
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
                for i in row.indices { pixels[start + i] = row[i] }
            }
        }
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
        for y in r.minY..<r.maxY {
            let colour = rowColours[y]
            if colour == Self.patterned {
                let start = slots[y] - clip.minX
                for x in r.minX..<r.maxX { canvas[x, y] = pixels[start + x] }
            } else {
                canvas.fill(PixelRect(minX: r.minX, minY: y, maxX: r.maxX, maxY: y + 1), with: colour)
            }
        }
    }

    /// Calls `body` with the kept pixels, each row's slot (where its pixel at `clip.minX` is kept,
    /// or -1) and the row colours.
    @inline(__always)
    func withRows<R>(_ body: (UnsafePointer<UInt32>, UnsafePointer<Int>, UnsafePointer<UInt32>) -> R) -> R {
        pixels.withUnsafeBufferPointer { px in
            slots.withUnsafeBufferPointer { sl in
                rowColours.withUnsafeBufferPointer { rc in body(px.baseAddress!, sl.baseAddress!, rc.baseAddress!) }
            }
        }
    }
}
