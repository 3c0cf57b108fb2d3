/// Draws ink over a background into a canvas, touching only what changes.
///
/// Each pixel keeps two coverage levels side by side: `dry`, the final ink, and `shown`, what is
/// on the canvas (dry plus the wet tail). A pixel's colour is always the background blended with
/// the ink colour at its `shown` level, so restoring a wet pixel is `shown := dry` and recolouring.
public struct InkRenderer: Sendable {
    public private(set) var canvas: Canvas
    public private(set) var background: Canvas
    public var inkColor: UInt32 {
        didSet { refreshPalette() }
    }
    /// Ink is drawn only inside this rectangle (the signature box).
    public var clip: PixelRect {
        didSet { refreshRowColours(clip) }
    }
    private var levels: [InkLevel]
    /// Per row, the one colour the background has across the clip, or `mixedRow`. Ink over a row
    /// of the palette's paper is looked up instead of blended with the background, which is cold memory.
    private var rowColours: [UInt32]
    private var rasterizer = InkRasterizer()
    /// What the current operation changed, row by row.
    private var changed: RowSpans
    /// The rows the wet tail covers: restoring them is all a new sample costs.
    private var wetRows: [WetRow] = []
    /// Bounds of all ink drawn since the last clear.
    public private(set) var inkBounds = PixelRect(minX: 0, minY: 0, maxX: 0, maxY: 0)

    private static let mixedRow: UInt32 = 0xFF00_0000
    private static let noPaper: UInt32 = 0xFE00_0000
    /// Ink over the paper most rows of the clip share, at each of the 256 levels: a lookup
    /// instead of a blend for every pixel that changes.
    private var palette = [UInt32](repeating: 0, count: 256)
    private var paletteKey: (paper: UInt32, ink: UInt32) = (mixedRow, 0)

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
                let start = y * stride + clip.minX, first = bg[start]
                var plain = true
                for x in start..<(y * stride + clip.maxX) where bg[x] != first {
                    plain = false
                    break
                }
                rowColours[y] = plain ? first & 0xFF_FFFF : Self.mixedRow
            }
        }
        refreshPalette()
    }

    private mutating func refreshPalette() {
        let middle = clip.isEmpty ? 0 : rowColours[(clip.minY + clip.maxY) / 2]
        // With no plain row at all the palette gets a paper no row can match.
        let paper = middle == Self.mixedRow ? (rowColours.first { $0 != Self.mixedRow } ?? Self.noPaper) : middle
        guard paletteKey != (paper, inkColor) else { return }
        paletteKey = (paper, inkColor)
        let ink = inkColor
        for level in 0..<256 { palette[level] = XRGB.blend(paper, ink, UInt8(level)) }
    }

    private mutating func recolour(_ r: PixelRect) {
        guard !r.isEmpty else { return }
        let width = canvas.width, stride = canvas.stride, ink = inkColor
        withPlanes { px, bg, lv, _, _ in
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
        let width = canvas.width, stride = canvas.stride, ink = inkColor
        // Moved out so the closure holds the only reference and the buffer is kept, not copied.
        var rows = wetRows
        wetRows = []
        let paper = paletteKey.paper
        withPlanes { px, bg, lv, rowColours, palette in
            for row in rows {
                let levels = lv.baseAddress! + row.y * width, pixels = px.baseAddress! + row.y * stride
                let background = rowColours[row.y] == paper ? nil : bg.baseAddress! + row.y * stride
                for x in row.columns where levels[x].shown != levels[x].dry {
                    let level = levels[x].dry
                    levels[x].shown = level
                    pixels[x] = background.map { XRGB.blend($0[x], ink, level) } ?? palette[Int(level)]
                }
            }
        }
        for row in rows { changed.add(y: row.y, columns: row.columns) }
        rows.removeAll(keepingCapacity: true)
        wetRows = rows
    }

    private mutating func draw(_ piece: InkPiece, dry isDry: Bool) {
        rasterizer.flatten(piece, tolerance: isDry ? InkRasterizer.tolerance : InkRasterizer.wetTolerance)
        rasterizer.cover(clip: clip)
        if isDry { inkBounds = inkBounds.union(rasterizer.tile.box) }
        // Moved out for the duration so the closure below holds the only reference to each.
        var changed = self.changed, wetRows = self.wetRows, rasterizer = self.rasterizer
        self.changed = RowSpans(height: 0)
        self.wetRows = []
        self.rasterizer = InkRasterizer(reserving: 0)
        let width = canvas.width, stride = canvas.stride, ink = inkColor, paper = paletteKey.paper
        withPlanes { px, bg, lv, rowColours, palette in
            rasterizer.consumeRows { y, columns, coverage in
                changed.add(y: y, columns: columns)
                if !isDry { wetRows.append(WetRow(y: y, columns: columns)) }
                Self.composite(coverage, columns, dry: isDry, levels: lv.baseAddress! + y * width, pixels: px.baseAddress! + y * stride,
                               background: rowColours[y] == paper ? nil : bg.baseAddress! + y * stride,
                               palette: palette.baseAddress!, ink: ink)
            }
        }
        self.changed = changed
        self.wetRows = wetRows
        self.rasterizer = rasterizer
    }

    /// One row of a piece into the planes, by per-pixel maximum; zeroes the coverage it reads.
    /// Everything arrives as a value or a pointer so the loop keeps it all in registers.
    @inline(__always)
    private static func composite(_ coverage: UnsafeMutablePointer<UInt8>, _ columns: Range<Int>, dry isDry: Bool,
                                  levels: UnsafeMutablePointer<InkLevel>, pixels: UnsafeMutablePointer<UInt32>,
                                  background: UnsafePointer<UInt32>?, palette: UnsafePointer<UInt32>, ink: UInt32) {
        for x in columns {
            let c = coverage[x]
            coverage[x] = 0
            var level = levels[x]
            if isDry && c > level.dry { level.dry = c }
            if c > level.shown {
                level.shown = c
                pixels[x] = background.map { XRGB.blend($0[x], ink, c) } ?? palette[Int(c)]
            }
            levels[x] = level
        }
    }

    @inline(__always)
    private mutating func withPlanes(_ body: (UnsafeMutableBufferPointer<UInt32>, UnsafeBufferPointer<UInt32>,
                                              UnsafeMutableBufferPointer<InkLevel>, UnsafeBufferPointer<UInt32>,
                                              UnsafeBufferPointer<UInt32>) -> Void) {
        canvas.pixels.withUnsafeMutableBufferPointer { px in
            background.pixels.withUnsafeBufferPointer { bg in
                levels.withUnsafeMutableBufferPointer { lv in
                    rowColours.withUnsafeBufferPointer { rc in
                        palette.withUnsafeBufferPointer { pal in body(px, bg, lv, rc, pal) }
                    }
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

/// A row of the wet tail, reported again when it is restored.
struct WetRow {
    var y: Int
    var columns: Range<Int>
}
