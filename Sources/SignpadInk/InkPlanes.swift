import SignpadVocabulary
/// Where the renderer keeps each pixel's two ink levels: `dry`, the final ink, and `shown`, what
/// is on the canvas (dry plus the wet tail).
///
/// A row is cut into segments of 32 pixels, each one cache line: the segment's 32 dry levels,
/// then its 32 shown levels. A chunk of eight pixels can start at any column of a segment but
/// its last seven, so the rasteriser lines its chunks up with where the ink is rather than with
/// fixed blocks, and one chunk's dry and shown levels are two loads from one line.
///
/// The segments are kept in tiles of 4 KiB, a page each: a column of 32 pixels down 64 rows. Ink maps a
/// page the first time it reaches it, so a signature costs the tiles its strokes cross, where
/// pages of whole rows cost a page for every row ink crosses, across the box.
struct LevelLayout: Sendable {
    static let segmentColumns = 32
    static let segmentBytes = 64
    /// Rows in a tile: its segments fill one page.
    static let tileRows = 64
    static let tileBytes = tileRows * segmentBytes
    /// The last column of a segment a chunk of eight may start at.
    static let lastChunkStart = segmentColumns - 8
    /// Bytes from one band of `tileRows` rows to the next: its tiles side by side.
    let bandPitch: Int
    /// The levels cover the clip only (no ink is drawn elsewhere), from the tile holding its first
    /// column and row. Offsets still count from row 0 and column 0: this is how far the clip's
    /// first tile is from there, taken off the store's address once (see `LevelStore.withBase`).
    let origin: Int
    let byteCount: Int

    init(clip: PixelRect) {
        let first = clip.isEmpty ? 0 : clip.minX / Self.segmentColumns
        let end = clip.isEmpty ? 0 : (clip.maxX - 1) / Self.segmentColumns + 1
        let firstBand = clip.isEmpty ? 0 : clip.minY / Self.tileRows
        let endBand = clip.isEmpty ? 0 : (clip.maxY - 1) / Self.tileRows + 1
        bandPitch = (end - first) * Self.tileBytes
        origin = firstBand * bandPitch + first * Self.tileBytes
        byteCount = (endBand - firstBand) * bandPitch
    }

    /// How far row `y`'s first segment is from row 0's.
    @inline(__always)
    func rowOffset(_ y: Int) -> Int { (y &>> 6) &* bandPitch &+ (y & (Self.tileRows - 1)) &* Self.segmentBytes }

    /// How far column `x`'s dry level is from its row's first.
    @inline(__always)
    static func columnOffset(_ x: Int) -> Int { (x &>> 5) &* tileBytes &+ (x & (segmentColumns - 1)) }

    /// Where a chunk covering column `x` starts: at `x`, or earlier if the chunk would leave the segment.
    @inline(__always)
    static func chunkStart(_ x: Int) -> Int { min(x, (x & ~(segmentColumns - 1)) &+ lastChunkStart) }

    @inline(__always)
    func dryOffset(x: Int, y: Int) -> Int { rowOffset(y) + Self.columnOffset(x) }

    @inline(__always)
    func shownOffset(x: Int, y: Int) -> Int { dryOffset(x: x, y: y) + Self.segmentColumns }
}

/// The levels' bytes, laid out by `LevelLayout`, in `LevelPages`: copied before a write only
/// when a copy of the renderer shares them.
struct LevelStore: Sendable {
    private var pages: LevelPages
    private var origin: Int

    init(_ layout: LevelLayout) {
        pages = LevelPages(byteCount: layout.byteCount)
        origin = layout.origin
    }

    /// Whether `serve(layout)` keeps these pages: they are this store's alone (no copy of the
    /// renderer shares them) and enough for it.
    mutating func canKeep(for layout: LevelLayout) -> Bool {
        isKnownUniquelyReferenced(&pages) && pages.byteCount >= layout.byteCount
    }

    /// Serves `layout` from now on, every level zero: the pages are kept, with those ink reached
    /// still mapped, where `canKeep` says so (the caller has zeroed them), else new ones mapped.
    mutating func serve(_ layout: LevelLayout) {
        guard canKeep(for: layout) else {
            self = LevelStore(layout)
            return
        }
        origin = layout.origin
    }

    mutating func makeResident() {
        if !isKnownUniquelyReferenced(&pages) { pages = pages.copy() }
        pages.makeResident()
    }

    var residentBytes: Int { pages.residentBytes }

    /// The level at `offset` (from `LevelLayout`), which must lie inside the clip.
    func load(_ offset: Int) -> UInt8 { pages.base.load(fromByteOffset: offset - origin, as: UInt8.self) }

    /// Calls `body` with where row 0, column 0 would be: the clip's first tile, on a page
    /// boundary, less the layout's origin. Only offsets inside the clip may be used from it.
    @inline(__always)
    mutating func withBase<R>(_ body: (UnsafeMutableRawPointer) -> R) -> R {
        if !isKnownUniquelyReferenced(&pages) { pages = pages.copy() }
        return body(pages.base - origin)
    }
}

/// The renderer's planes for one operation as raw pointers. Valid only inside `InkRenderer.withPlanes`.
struct Planes {
    let levels: UnsafeMutableRawPointer
    let layout: LevelLayout
    let pixels: UnsafeMutablePointer<UInt32>
    let stride: Int
    /// The kept pixels of the background's patterned rows (see `BoxBackground`).
    let background: UnsafePointer<UInt32>
    /// Per row, where its kept background pixels start, at the clip's first column.
    let slots: UnsafePointer<Int>
    /// Per row, the one colour of the background across the clip, or `BoxBackground.patterned`.
    let rowColours: UnsafePointer<UInt32>
    let clipMinX: Int
    /// Ink over `paper` at each of the 256 levels.
    let palette: UnsafePointer<UInt32>
    let paper: UInt32
    let ink: UInt32
    /// Chunk starts whose eight pixels all lie inside the clip.
    let innerChunks: Range<Int>
    /// The columns this operation changed, per row: what the display must be sent.
    let changed: RowSpanTable
    /// What the wet tail covered before it raised it: what the next sample puts back. None where
    /// no tail is drawn.
    let wet: WetLog?
    /// Pixels whose coverage the rasteriser computed in this operation (lanes of its chunks).
    let rasterised: UnsafeMutablePointer<Int>

    init(levels: UnsafeMutableRawPointer, layout: LevelLayout, pixels: UnsafeMutablePointer<UInt32>, stride: Int,
         background: UnsafePointer<UInt32>, slots: UnsafePointer<Int>, rowColours: UnsafePointer<UInt32>, palette: UnsafePointer<UInt32>,
         paper: UInt32, ink: UInt32, clip: PixelRect, changed: RowSpanTable, wet: WetLog?,
         rasterised: UnsafeMutablePointer<Int>) {
        self.levels = levels
        self.layout = layout
        self.pixels = pixels
        self.stride = stride
        self.background = background
        self.slots = slots
        self.rowColours = rowColours
        clipMinX = clip.minX
        self.palette = palette
        self.paper = paper
        self.ink = ink
        self.changed = changed
        self.wet = wet
        self.rasterised = rasterised
        innerChunks = clip.width >= 8 ? clip.minX..<(clip.maxX - 7) : 0..<0
    }

    @inline(__always)
    func row(_ y: Int) -> PlaneRow {
        let colour = rowColours[y], plain = colour == paper
        let kept: UnsafePointer<UInt32>? = colour == BoxBackground.patterned ? background + (slots[y] &- clipMinX) : nil
        return PlaneRow(levels: levels + layout.rowOffset(y), pixels: pixels + y &* stride,
                        background: kept, colour: plain ? nil : colour, palette: palette, paper: paper, ink: ink,
                        innerChunks: innerChunks, plain: plain)
    }
}

extension Planes {
    /// Colours row `y`'s `columns` at their shown levels (see `PlaneRow.paint`). Most rows are
    /// plain paper and need only their levels and pixels: the rest of a row is looked up for
    /// the others alone.
    @inline(__always)
    func paint(row y: Int, _ columns: Range<Int>) {
        guard rowColours[y] == paper else { return row(y).paint(columns) }
        PlaneRow(levels: levels + layout.rowOffset(y), pixels: pixels + y &* stride, background: nil, colour: nil, palette: palette,
                 paper: paper, ink: ink, innerChunks: innerChunks, plain: true).paint(columns)
    }
}

/// One row of the planes as raw pointers, so the per-chunk loops keep everything in registers.
struct PlaneRow {
    /// The row's first segment (see `LevelLayout`).
    let levels: UnsafeMutableRawPointer
    let pixels: UnsafeMutablePointer<UInt32>
    /// The row's background pixels (indexed by column) when it has a pattern; else nil.
    let background: UnsafePointer<UInt32>?
    /// The row's one colour when it has no pattern and is not the palette's paper; else nil.
    let colour: UInt32?
    let palette: UnsafePointer<UInt32>
    let paper: UInt32
    let ink: UInt32
    /// Chunk starts whose eight pixels all lie inside the clip.
    let innerChunks: Range<Int>
    /// The row is the palette's paper all across the clip.
    let plain: Bool

    /// Raises the chunk of columns `x0..<x0+8` (x0 from `LevelLayout.chunkStart`) to `coverage`
    /// by per-pixel maximum and returns the lanes whose shown level rose, as a byte mask. Pixels
    /// are repainted later, once per operation (see `paint(_:)`).
    @inline(__always)
    func raise(_ x0: Int, to coverage: SIMD8<UInt8>, dry: Bool) -> UInt64 {
        let chunk = levels + LevelLayout.columnOffset(x0)
        if dry {
            let old = chunk.loadUnaligned(as: SIMD8<UInt8>.self)
            chunk.storeBytes(of: maximum(old, coverage), as: SIMD8<UInt8>.self)
        }
        let shown = chunk.loadUnaligned(fromByteOffset: LevelLayout.segmentColumns, as: SIMD8<UInt8>.self)
        let raised = maximum(shown, coverage)
        chunk.storeBytes(of: raised, toByteOffset: LevelLayout.segmentColumns, as: SIMD8<UInt8>.self)
        return unsafeBitCast(raised &- shown, to: UInt64.self)
    }

    /// The per-lane maximum. Written lane by lane it compiles to one instruction, where the
    /// standard library's `pointwiseMax` stays a call inside the rasteriser's loop.
    @inline(__always)
    private func maximum(_ a: SIMD8<UInt8>, _ b: SIMD8<UInt8>) -> SIMD8<UInt8> {
        var out = SIMD8<UInt8>()
        for lane in 0..<8 { out[lane] = a[lane] > b[lane] ? a[lane] : b[lane] }
        return out
    }

    /// Colours the pixels of `columns` at their shown levels. Every pixel inside the clip is its
    /// background blended with the ink at its shown level, so painting a column whose level did
    /// not change rewrites the colour it has: one operation's raises and falls (a pixel may rise,
    /// fall and rise again) are painted once, whole chunks at a time where they may be. Inlined:
    /// a row has a chunk or two to paint, and a call would cost as much as they do.
    @inline(__always)
    func paint(_ columns: Range<Int>) {
        var x = columns.lowerBound
        repeat {
            let x0 = LevelLayout.chunkStart(x)
            let shown = (levels + LevelLayout.columnOffset(x0)).loadUnaligned(fromByteOffset: LevelLayout.segmentColumns, as: UInt64.self)
            if innerChunks.contains(x0) && (plain || isPaper(x0)) {
                paintChunk(x0, levels: shown)
            } else {
                // Only the lanes inside `columns`: the chunk may reach past the clip.
                let low = max(columns.lowerBound &- x0, 0), high = min(columns.upperBound &- x0, 8)
                let below: UInt64 = low == 0 ? 0 : ~0 &>> UInt64(64 &- low &* 8)
                let upTo: UInt64 = high == 8 ? ~0 : ~0 &>> UInt64(64 &- high &* 8)
                Self.paint(pixels + x0, background: background.map { $0 + x0 }, colour: colour, palette: palette, ink: ink,
                           levels: shown, lanes: upTo & ~below)
            }
            x = x0 &+ 8
        } while x < columns.upperBound
    }

    /// Whether the chunk's background is all the palette's paper: a row with a pattern (the
    /// box's cross, its line) mostly is, and signatures are written across those rows.
    @inline(__always)
    private func isPaper(_ x0: Int) -> Bool {
        guard let background else { return false }
        // Two pixels a word: a SIMD8 comparison compiles to a loop lane by lane. Only the colour:
        // blending ignores the byte above it. A paper's own top byte is 0, but for the sentinel
        // of a clip with no plain row (`InkRenderer.noPaper`), which no masked pixel matches.
        let under = UnsafeRawPointer(background + x0), colours: UInt64 = 0x00FF_FFFF_00FF_FFFF
        let papers = UInt64(paper) &* 0x1_0000_0001
        var differ: UInt64 = 0
        for word in 0..<4 { differ |= (under.loadUnaligned(fromByteOffset: word &* 8, as: UInt64.self) & colours) ^ papers }
        return differ == 0
    }

    /// Colours all eight pixels of a whole chunk from the palette: unchanged lanes get the colour
    /// they already have, and no lane waits on a mispredicted branch. Only the colour: the byte
    /// above it, which XRGB8888 scanout ignores (cairo sets it where it paints), may become 0 in
    /// lanes outside the dirty rectangles, as it does wherever ink or the kept background is drawn.
    @inline(__always)
    private func paintChunk(_ x0: Int, levels: UInt64) {
        let out = pixels + x0
        for lane in 0..<8 { out[lane] = palette[Int(truncatingIfNeeded: (levels &>> UInt64(lane * 8)) & 0xFF)] }
    }

    /// Colours the pixels of the lanes set in `lanes` (one byte per lane) at their `levels`, from
    /// `pixels` (the chunk's first pixel) on. Only chunks at the clip's edges or over a background
    /// other than the paper come here, so it is kept out of line.
    @inline(never)
    private static func paint(_ pixels: UnsafeMutablePointer<UInt32>, background: UnsafePointer<UInt32>?, colour: UInt32?,
                              palette: UnsafePointer<UInt32>, ink: UInt32, levels: UInt64, lanes: UInt64) {
        var lanes = lanes
        repeat {
            let shift = UInt64(lanes.trailingZeroBitCount & ~7)
            let level = UInt8(truncatingIfNeeded: levels &>> shift)
            let lane = Int(shift >> 3)
            if let background {
                pixels[lane] = XRGB.blend(background[lane], ink, level)
            } else if let colour {
                pixels[lane] = XRGB.blend(colour, ink, level)
            } else {
                pixels[lane] = palette[Int(level)]
            }
            lanes &= ~(0xFF &<< shift)
        } while lanes != 0
    }
}

/// The columns whose lanes changed along one row, gathered chunk by chunk from the byte masks
/// `PlaneRow.raise` and `WetLog.putBack` find.
struct ChangedColumns {
    private var low = Int.max
    private var high = Int.min

    @inline(__always)
    mutating func include(_ x0: Int, lanes: UInt64) {
        guard lanes != 0 else { return }
        low = min(low, x0 &+ (lanes.trailingZeroBitCount &>> 3))
        high = max(high, x0 &+ 8 &- (lanes.leadingZeroBitCount &>> 3))
    }

    var range: Range<Int>? { low < high ? low..<high : nil }
}
