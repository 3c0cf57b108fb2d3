/// Draws ink over a background into a canvas, touching only what changes.
///
/// Each pixel keeps two coverage levels side by side: `dry`, the final ink, and `shown`, what is
/// on the canvas (dry plus the wet tail). A pixel's colour is always the background blended with
/// the ink colour at its `shown` level, so restoring a wet pixel is `shown := dry` and recolouring.
public struct InkRenderer: Sendable {
    public private(set) var canvas: Canvas
    public private(set) var background: Canvas
    public var inkColor: UInt32
    /// Ink is drawn only inside this rectangle (the signature box).
    public var clip: PixelRect {
        didSet { refreshRowColours(clip) }
    }
    private var levels: [InkLevel]
    /// Per row, the one colour the background has across the clip, or `mixedRow`. Ink over a plain
    /// row blends with a constant instead of reading the background, which is cold memory.
    private var rowColours: [UInt32]
    private var rasterizer = InkRasterizer()
    /// What the current operation changed, row by row.
    private var changed: RowSpans
    /// Pixels the wet tail raised above the dry ink: restoring them is all a new sample costs.
    private var wetPixels: [WetPixel] = []
    /// The rows the wet tail covers.
    private var wetRows: [WetRow] = []
    /// Bounds of all ink drawn since the last clear.
    public private(set) var inkBounds = PixelRect(minX: 0, minY: 0, maxX: 0, maxY: 0)

    private static let mixedRow: UInt32 = 0xFF00_0000

    public init(background: Canvas, inkColor: UInt32 = 0x000000, clip: PixelRect? = nil) {
        self.background = background
        self.canvas = background
        self.inkColor = inkColor
        self.clip = (clip ?? background.bounds).intersection(background.bounds)
        levels = [InkLevel](repeating: InkLevel(), count: background.width * background.height)
        rowColours = [UInt32](repeating: Self.mixedRow, count: background.height)
        changed = RowSpans(height: background.height)
        refreshRowColours(background.bounds)
    }

    public init(width: Int, height: Int, stride: Int? = nil, backgroundColor: UInt32 = 0xFFFFFF, inkColor: UInt32 = 0x000000) {
        self.init(background: Canvas(width: width, height: height, stride: stride, fill: backgroundColor), inkColor: inkColor)
    }

    /// The final ink coverage at a pixel (0…255).
    public func dryCoverage(x: Int, y: Int) -> UInt8 { levels[y * canvas.width + x].dry }

    /// Draws what one smoother step produced; `dirty` receives every rectangle that changed.
    public mutating func apply(_ step: SmootherStep, dirty: inout DirtyRegion) {
        for piece in step.dry { draw(piece, dry: true) }
        restoreWet()
        for piece in step.wet { draw(piece, dry: false) }
        changed.flush(into: &dirty)
    }

    /// Draws a final piece of ink.
    public mutating func drawDry(_ piece: InkPiece, dirty: inout DirtyRegion) {
        draw(piece, dry: true)
        changed.flush(into: &dirty)
    }

    /// Removes all ink and any wet tail.
    public mutating func clearInk(dirty: inout DirtyRegion) {
        restoreWet()
        changed.flush(into: &dirty)
        let r = inkBounds.intersection(canvas.bounds)
        if !r.isEmpty {
            let width = canvas.width
            levels.withUnsafeMutableBufferPointer { lv in
                for y in r.minY..<r.maxY {
                    (lv.baseAddress! + y * width + r.minX).update(repeating: InkLevel(), count: r.width)
                }
            }
            canvas.copy(r, from: background)
            dirty.add(r)
        }
        inkBounds = PixelRect(minX: 0, minY: 0, maxX: 0, maxY: 0)
    }

    /// Replaces the background (the kiosk's screen without ink) in `rect` and recolours it.
    public mutating func updateBackground(_ rect: PixelRect, from source: Canvas, dirty: inout DirtyRegion) {
        let r = rect.intersection(canvas.bounds)
        background.copy(r, from: source)
        refreshRowColours(r)
        recolour(r)
        dirty.add(r)
    }

    private mutating func refreshRowColours(_ rows: PixelRect) {
        let clip = self.clip, stride = background.stride
        background.pixels.withUnsafeBufferPointer { bg in
            for y in max(rows.minY, 0)..<min(rows.maxY, background.height) {
                guard !clip.isEmpty else { rowColours[y] = Self.mixedRow; continue }
                let row = bg[(y * stride + clip.minX)..<(y * stride + clip.maxX)]
                let first = row.first!
                rowColours[y] = row.allSatisfy { $0 == first } ? first & 0xFF_FFFF : Self.mixedRow
            }
        }
    }

    private mutating func recolour(_ r: PixelRect) {
        guard !r.isEmpty else { return }
        let width = canvas.width, stride = canvas.stride, ink = inkColor
        withPlanes { px, bg, lv, _ in
            for y in r.minY..<r.maxY {
                for x in r.minX..<r.maxX {
                    px[y * stride + x] = XRGB.blend(bg[y * stride + x], ink, lv[y * width + x].shown)
                }
            }
        }
    }

    /// Puts the dry ink back wherever the wet tail raised it.
    private mutating func restoreWet() {
        guard !wetRows.isEmpty else { return }
        let ink = inkColor
        let list = wetPixels
        withPlanes { px, bg, lv, rowColours in
            for entry in list {
                let plane = Int(entry.plane), pixel = Int(entry.pixel)
                let level = lv[plane].dry
                lv[plane].shown = level
                let paper = rowColours[Int(entry.row)]
                px[pixel] = XRGB.blend(paper == Self.mixedRow ? bg[pixel] : paper, ink, level)
            }
        }
        wetPixels.removeAll(keepingCapacity: true)
        for row in wetRows { changed.add(y: row.y, columns: row.columns) }
        wetRows.removeAll(keepingCapacity: true)
    }

    private mutating func draw(_ piece: InkPiece, dry isDry: Bool) {
        rasterizer.flatten(piece, tolerance: isDry ? InkRasterizer.tolerance : InkRasterizer.wetTolerance)
        rasterizer.cover(clip: clip)
        if isDry { inkBounds = inkBounds.union(rasterizer.tile.box) }
        // Moved out for the duration so the closure below holds the only reference to each.
        var changed = self.changed, wetPixels = self.wetPixels, wetRows = self.wetRows, rasterizer = self.rasterizer
        self.changed = RowSpans(height: 0)
        self.wetPixels = []
        self.wetRows = []
        self.rasterizer = InkRasterizer(reserving: 0)
        let width = canvas.width, stride = canvas.stride, ink = inkColor
        withPlanes { px, bg, lv, rowColours in
            rasterizer.drainRows { y, columns, coverage in
                changed.add(y: y, columns: columns)
                if !isDry { wetRows.append(WetRow(y: y, columns: columns)) }
                let planeRow = y * width, pixelRow = y * stride
                let paper = rowColours[y], plain = paper != Self.mixedRow
                for x in columns {
                    let c = coverage[x]
                    if c == 0 { continue }
                    let i = planeRow + x
                    var level = lv[i]
                    let was = level.shown
                    if isDry && c > level.dry { level.dry = c }
                    if c > was {
                        let p = pixelRow + x
                        if !isDry && was == level.dry { wetPixels.append(WetPixel(plane: UInt32(i), pixel: UInt32(p), row: UInt32(y))) }
                        level.shown = c
                        px[p] = XRGB.blend(plain ? paper : bg[p], ink, c)
                    }
                    lv[i] = level
                }
            }
        }
        self.changed = changed
        self.wetPixels = wetPixels
        self.wetRows = wetRows
        self.rasterizer = rasterizer
    }

    @inline(__always)
    private mutating func withPlanes(_ body: (UnsafeMutableBufferPointer<UInt32>, UnsafeBufferPointer<UInt32>,
                                              UnsafeMutableBufferPointer<InkLevel>, UnsafeBufferPointer<UInt32>) -> Void) {
        canvas.pixels.withUnsafeMutableBufferPointer { px in
            background.pixels.withUnsafeBufferPointer { bg in
                levels.withUnsafeMutableBufferPointer { lv in
                    rowColours.withUnsafeBufferPointer { rc in body(px, bg, lv, rc) }
                }
            }
        }
    }
}

/// A pixel's final and on-screen ink coverage, side by side so one cache line holds both.
struct InkLevel: Sendable {
    var dry: UInt8 = 0
    var shown: UInt8 = 0
}

struct WetPixel {
    var plane: UInt32
    var pixel: UInt32
    var row: UInt32
}

/// A row of the wet tail, reported again when it is restored.
struct WetRow {
    var y: Int
    var columns: Range<Int>
}
