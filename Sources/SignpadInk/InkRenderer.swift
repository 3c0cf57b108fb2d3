import SignpadVocabulary
/// Draws ink over a background into a canvas, touching only what changes.
///
/// Each pixel keeps two coverage levels (see `LevelLayout`): `dry`, the final ink, and `shown`,
/// what is on the canvas (dry plus the wet tail). A pixel's colour is always the background
/// blended with the ink colour at its `shown` level, so taking the wet tail off a pixel is
/// putting back its shown level from before (`WetLog`) and recolouring.
public struct InkRenderer: Sendable {
    public private(set) var canvas: Canvas
    /// The picture under the ink, inside the clip only (the canvas is it elsewhere).
    private var box: BoxBackground
    /// Fixed for the renderer's life: whole chunks of pixels are repainted from a palette of it.
    public let inkColor: UInt32
    /// Ink is drawn only inside this rectangle (the signature box). Ink belongs to the clip it
    /// was drawn in: a new clip takes it off the canvas and forgets it (without reporting the
    /// pixels as dirty: the caller repaints), and takes the background inside from the canvas.
    public var clip: PixelRect {
        didSet {
            // Cleared under the old clip, the levels keep their pages for the new one: a kiosk
            // asked for signature after signature (each request changes the layout) maps them
            // once, not at each signature.
            let next = LevelLayout(clip: clip)
            if levels.canKeep(for: next) {
                let newClip = clip
                clip = oldValue
                var cleared = DirtyRegion()
                clearInk(dirty: &cleared)
                clip = newClip
            }
            box.restore(oldValue, into: &canvas)
            box = BoxBackground(from: canvas, clip: clip)
            layout = next
            levels.serve(layout)
            spans = RowSpanTable.storage(height: canvas.height, tables: 1)
            wetLog.count = 0
            shownWet = WetPath()
            inkBounds = PixelRect(minX: 0, minY: 0, maxX: 0, maxY: 0)
            refreshPalette()
        }
    }
    private var levels: LevelStore
    private var layout: LevelLayout
    private var rasterizer = InkRasterizer()
    /// The wet tail on the canvas now.
    private var shownWet = WetPath()
    /// A `RowSpanTable`: the columns the current operation changed.
    private var spans: [Int32]
    /// What the wet tail on the canvas covered before it raised it.
    private var wetLog = WetLog.Storage()
    /// Where its predicted piece's entries begin, when it ends ahead.
    private var aheadMark = 0
    /// What `warm` read; kept only so its loads are not optimised away.
    private var warmth: UInt8 = 0
    /// Pixels whose coverage the rasteriser has computed so far: the work drawing took, the same
    /// on any machine (the bench's figure).
    public private(set) var pixelsRasterised = 0
    /// Bounds of all ink drawn since the last clear.
    public private(set) var inkBounds = PixelRect(minX: 0, minY: 0, maxX: 0, maxY: 0)

    private static let noPaper: UInt32 = 0xFE00_0000
    /// Ink over the paper most rows of the clip share, at each of the 256 levels: a lookup
    /// instead of a blend for every pixel that changes, over a row of that paper.
    private var palette = [UInt32](repeating: 0, count: 256)
    private var paletteKey: (paper: UInt32, ink: UInt32) = (BoxBackground.patterned, 0)

    /// Ink over `background`, which becomes the canvas: the renderer keeps no second frame.
    public init(background: consuming Canvas, inkColor: UInt32 = 0x000000, clip: PixelRect? = nil) {
        let bounds = background.bounds
        canvas = consume background
        // Its own pixels from the start: had the caller kept the picture, the first stroke would
        // copy the whole frame (and fault in its pages) instead of here.
        canvas.pixels.withUnsafeMutableBufferPointer { _ in }
        self.inkColor = inkColor
        let clip = (clip ?? bounds).intersection(bounds)
        self.clip = clip
        box = BoxBackground(from: canvas, clip: clip)
        layout = LevelLayout(clip: clip)
        levels = LevelStore(layout)
        spans = RowSpanTable.storage(height: bounds.height, tables: 1)
        refreshPalette()
    }

    public init(width: Int, height: Int, stride: Int? = nil, backgroundColor: UInt32 = 0xFFFFFF, inkColor: UInt32 = 0x000000) {
        self.init(background: Canvas(width: width, height: height, stride: stride, fill: backgroundColor), inkColor: inkColor)
    }

    /// Maps every page of the levels now. A renderer maps a page as ink first reaches it (a
    /// page fault, a few microseconds, once per page in a kiosk's life), so a fresh kiosk holds
    /// only what its signatures touched; the bench starts its timed passes as a kiosk that has
    /// had ink everywhere.
    public mutating func makeLevelsResident() { levels.makeResident() }

    /// The bytes of the levels' pages mapped now: those ink has reached (`LevelLayout`).
    public var residentLevelBytes: Int { levels.residentBytes }

    /// The final ink coverage at a pixel (0…255).
    public func dryCoverage(x: Int, y: Int) -> UInt8 { clip.contains(x: x, y: y) ? levels.load(layout.dryOffset(x: x, y: y)) : 0 }

    /// Shows `dirty` of the canvas on `display`. Mutating, though nothing changes: the canvas is
    /// passed from inside an exclusive access, where one read from outside for the call is retained.
    public mutating func present(_ dirty: DirtyRegion, on display: Display) {
        display.present(canvas, dirty: dirty)
    }

    /// Draws what one smoother step produced; `dirty` receives every rectangle that changed.
    public mutating func apply(_ step: SmootherStep, dirty: inout DirtyRegion) {
        render(step, into: &dirty)
    }

    /// Draws again one dry piece, only within `rect`, leaving any wet tail: what a rectangle
    /// cleared by `clearInk(in:)` needs of a stroke that reaches into it.
    public mutating func redrawDry(_ piece: InkPiece, within rect: PixelRect, dirty: inout DirtyRegion) {
        renderDry(piece, within: rect, dirty: &dirty)
    }

    /// Draws a final piece of ink; any wet tail stays.
    public mutating func drawDry(_ piece: InkPiece, dirty: inout DirtyRegion) {
        renderDry(piece, within: nil, dirty: &dirty)
    }

    /// Removes all ink and any wet tail.
    public mutating func clearInk(dirty: inout DirtyRegion) {
        render(SmootherStep(), into: &dirty)
        let r = inkBounds.intersection(canvas.bounds)
        if !r.isEmpty {
            // Outside the ink's bounds every level is already zero, so whole segments can go.
            let first = r.minX / LevelLayout.segmentColumns, end = (r.maxX - 1) / LevelLayout.segmentColumns + 1
            zeroSegments(columns: first..<end, rows: r.minY..<r.maxY)
            box.restore(r, into: &canvas)
            dirty.add(r)
        }
        inkBounds = PixelRect(minX: 0, minY: 0, maxX: 0, maxY: 0)
    }

    /// Removes the ink in `rect`, widened to whole 32-column segments of the levels, and any wet
    /// tail; returns the rectangle cleared (empty when no ink was there). Whatever other ink
    /// reaches into it is the caller's to draw again: coverage is a maximum, so a stroke drawn
    /// again leaves its pixels outside the rectangle as they were.
    public mutating func clearInk(in rect: PixelRect, dirty: inout DirtyRegion) -> PixelRect {
        render(SmootherStep(), into: &dirty)
        let reached = rect.intersection(inkBounds).intersection(canvas.bounds)
        guard !reached.isEmpty else { return reached }
        let columns = LevelLayout.segmentColumns
        let first = reached.minX / columns, end = (reached.maxX - 1) / columns + 1
        let r = PixelRect(minX: first * columns, minY: reached.minY, maxX: min(end * columns, canvas.width), maxY: reached.maxY)
        zeroSegments(columns: first..<end, rows: r.minY..<r.maxY)
        box.restore(r, into: &canvas)
        dirty.add(r)
        return r
    }

    /// Sets the levels of segments `columns` (in segments) of `rows` to zero, a tile's run of
    /// rows at a time (contiguous bytes). A tile whose page was never mapped is zero and is not
    /// touched (reading it would map the zero page); a run already zero is only read.
    private mutating func zeroSegments(columns: Range<Int>, rows: Range<Int>) {
        let layout = self.layout
        levels.withBase { lv in
            for column in columns {
                var y = rows.lowerBound
                while y < rows.upperBound {
                    let runEnd = min((y | (LevelLayout.tileRows - 1)) + 1, rows.upperBound)
                    let run = lv + layout.rowOffset(y) + column &* LevelLayout.tileBytes
                    defer { y = runEnd }
                    guard LevelPages.isMapped(run) else { continue }
                    let words = (runEnd - y) &* (LevelLayout.segmentBytes / 8)
                    var word = 0
                    while word < words && run.load(fromByteOffset: word &* 8, as: UInt64.self) == 0 { word &+= 1 }
                    if word < words { run.initializeMemory(as: UInt64.self, repeating: 0, count: words) }
                }
            }
        }
    }

    /// Lets `paint` repaint the kiosk's screen without ink in place, inside `changed` only (the
    /// rectangles where it differs now), then takes the new background there and puts the ink
    /// back over it. The canvas is the screen's one frame: no second one is kept to paint into.
    public mutating func repaintBackground(changed: [PixelRect], dirty: inout DirtyRegion, paint: (inout Canvas, [PixelRect]) -> Void) {
        let bounds = canvas.bounds
        // Most callers' rectangles are on the screen already: then they are used as they are.
        let rects = changed.allSatisfy { !$0.isEmpty && $0.intersection(bounds) == $0 } ? changed
            : changed.map { $0.intersection(bounds) }.filter { !$0.isEmpty }
        guard !rects.isEmpty else { return }
        paint(&canvas, rects)
        for r in rects { box.take(r, from: canvas) }
        refreshPalette()
        for r in rects {
            recolour(r)
            dirty.add(r)
        }
    }

    private mutating func refreshPalette() {
        let rows = clip.isEmpty ? box.rowColours[0..<0] : box.rowColours[clip.minY..<clip.maxY]
        let middle = clip.isEmpty ? 0 : box.rowColours[(clip.minY + clip.maxY) / 2]
        // With no plain row at all the palette gets a paper no row can match.
        let paper = middle == BoxBackground.patterned ? (rows.first { $0 != BoxBackground.patterned } ?? Self.noPaper) : middle
        guard paletteKey != (paper, inkColor) else { return }
        paletteKey = (paper, inkColor)
        let ink = inkColor
        for level in 0..<256 { palette[level] = XRGB.blend(paper, ink, UInt8(level)) }
    }

    /// Paints the pixels of `r` inside the clip at their shown levels over the background. Where
    /// no ink reaches every level is 0, and the background just painted is already right.
    private mutating func recolour(_ r: PixelRect) {
        let r = r.intersection(clip).intersection(inkReach)
        guard !r.isEmpty else { return }
        withPlanes { planes in
            for y in r.minY..<r.maxY { planes.paint(row: y, r.minX..<r.maxX) }
        }
    }

    /// Where ink is shown: the dry ink's bounds and the wet tail's.
    private var inkReach: PixelRect {
        var reach = inkBounds
        for index in shownWet.pieces {
            let (a, b) = shownWet.piece(index)
            reach = reach.union(InkRasterizer.bounds(a, b))
        }
        return reach
    }

    /// One dry piece drawn, only within `rect` where there is one; the wet tail shown stays.
    private mutating func renderDry(_ piece: InkPiece, within rect: PixelRect?, dirty: inout DirtyRegion) {
        var step = SmootherStep()
        step.dry.append(piece)
        step.wet = shownWet
        render(step, into: &dirty, within: rect)
    }

    /// One operation: levels first (dry ink, then the old wet tail put back, then the new wet
    /// tail), then the pixels whose levels changed are painted once and handed to `dirty` as bands.
    /// The old tail is put back from what it covered (`WetLog`). A wet tail that only lengthens
    /// the one shown keeps it and draws just its new pieces. One that keeps the sampled knots of a
    /// tail ending ahead puts back only what the predicted piece covered.
    /// The planes are entered once per operation (see `withPlanes`).
    /// `step`'s dry pieces and wet tail are read in place: copied out, each is a memcpy call.
    private mutating func render(_ step: SmootherStep, into dirty: inout DirtyRegion, within: PixelRect? = nil) {
        // Read once: each read of the stored tail in a mutating method is a copy.
        let shown = shownWet
        let unchanged = step.wet == shown, added = unchanged ? nil : step.wet.newPieces(after: shown)
        // A tail whose predicted piece was a sampled one of the shown tail draws nothing: that
        // piece has no entries of its own in the log, so the tail is drawn again whole.
        let afterAhead = unchanged || added != nil ? nil : step.wet.newPieces(afterAheadOf: shown)
            .flatMap { step.wet.endsAhead && !$0.contains(step.wet.count - 2) ? nil : $0 }
        let restoring = !unchanged && added == nil && afterAhead == nil
        let drawn = unchanged ? 0..<0 : added ?? afterAhead ?? step.wet.pieces
        // Moved out for the operation (and back), so flattening inside the planes neither copies
        // nor retains its polyline.
        var rasterizer = InkRasterizer(capacity: 0)
        swap(&rasterizer, &self.rasterizer)
        let clip = self.clip, dryClip = within.map { $0.intersection(clip) } ?? clip
        var bounds = inkBounds, warmth = self.warmth
        let aheadPiece = step.wet.endsAhead ? step.wet.count - 2 : -1
        var chunks = 0.0
        for index in drawn {
            let (a, b) = step.wet.piece(index)
            chunks += WetLog.chunksAtMost(a, b)
        }
        var aheadMark = self.aheadMark
        wetLog.reserve(Int(chunks) + 1, after: restoring ? 0 : afterAhead != nil ? min(aheadMark, wetLog.count) : wetLog.count)
        withPlanes { planes in
            let log = planes.wet!
            // Only ink ahead of the newest sample runs into pixels no recent event touched: a
            // tail that ends ahead reaches its new samples where its last prediction was, and its
            // predicted piece's near half is about where that prediction ended.
            for index in drawn where aheadPiece < 0 || index == aheadPiece {
                var (a, b) = step.wet.piece(index)
                if index == aheadPiece { a.point = a.point.midpoint(b.point) }
                warmth &+= Self.warm(InkRasterizer.bounds(a, b).intersection(clip), planes: planes)
            }
            for piece in step.dry {
                // Drawn again into a small rectangle, most pieces of a long stroke lie elsewhere.
                if within != nil && piece.reach.intersection(dryClip).isEmpty { continue }
                rasterizer.flatten(piece, tolerance: InkRasterizer.tolerance)
                bounds = bounds.union(rasterizer.draw(clip: dryClip, planes: planes))
            }
            // A tail that only lengthens the one shown keeps all it covered: a predicted piece the
            // contact then reached is its sampled ink now.
            if afterAhead != nil {
                log.putBack(from: aheadMark, planes)
            } else if restoring {
                log.putBack(from: 0, planes)
            }
            for index in drawn {
                if index == aheadPiece { aheadMark = log.mark }
                let (a, b) = step.wet.piece(index)
                CapsuleRaster.draw(a, b, clip: clip, layer: .wet, planes: planes)
            }
            Self.paintChanged(planes, into: &dirty)
        }
        swap(&rasterizer, &self.rasterizer)
        inkBounds = bounds
        self.warmth = warmth
        self.aheadMark = aheadMark
        shownWet = step.wet
    }

    /// Paints the columns this operation changed and hands them to `dirty` as bands. Out of line:
    /// inside `render` its loop shares registers with everything else there and spills on each row.
    @inline(never)
    private static func paintChanged(_ planes: Planes, into dirty: inout DirtyRegion) {
        planes.changed.flush(into: &dirty) { y, columns in planes.paint(row: y, columns) }
    }

    /// Loads one byte of every cache line of levels and pixels in `r` and returns their sum. The
    /// wet tail runs ahead into pixels no recent event touched; drawn cold, each row waits on its
    /// own cache misses, while these loads are independent of each other and are all in flight at
    /// once. Swift has no prefetch instruction, so the sum is kept in `warmth` to keep the loads.
    private static func warm(_ r: PixelRect, planes: Planes) -> UInt8 {
        guard !r.isEmpty else { return 0 }
        var sum: UInt8 = 0
        for y in r.minY..<r.maxY {
            let levels = planes.levels + planes.layout.rowOffset(y), pixels = planes.pixels + y * planes.stride
            var x = r.minX & ~(LevelLayout.segmentColumns - 1)
            while x < r.maxX {
                sum &+= levels.load(fromByteOffset: LevelLayout.columnOffset(x), as: UInt8.self)
                x += LevelLayout.segmentColumns
            }
            // Sixteen pixels are a cache line; the row's last pixel catches a line the steps skip.
            x = r.minX
            while x < r.maxX {
                sum &+= UInt8(truncatingIfNeeded: pixels[x])
                x += 16
            }
            sum &+= UInt8(truncatingIfNeeded: pixels[r.maxX - 1])
        }
        return sum
    }

    /// Every array is entered mutably, those only read too: each is then checked to be the
    /// renderer's own, where one read is retained and released, atomic updates that wait for
    /// every pending pixel store.
    @inline(__always)
    private mutating func withPlanes(_ body: (Planes) -> Void) {
        let layout = self.layout, stride = canvas.stride, paper = paletteKey.paper, ink = inkColor, clip = self.clip
        let height = canvas.height
        var rasterised = 0
        withUnsafeMutablePointer(to: &rasterised) { counter in
            box.withRows { bg, slots, rc in
                palette.withUnsafeMutableBufferPointer { pal in
                    canvas.pixels.withUnsafeMutableBufferPointer { px in
                        levels.withBase { lv in
                            spans.withUnsafeMutableBufferPointer { tables in
                                wetLog.withLog { wet in
                                    body(Planes(levels: lv, layout: layout, pixels: px.baseAddress!, stride: stride,
                                                background: bg, slots: slots, rowColours: rc, palette: pal.baseAddress!,
                                                paper: paper, ink: ink, clip: clip,
                                                changed: RowSpanTable(slots: tables.baseAddress!, height: height),
                                                wet: wet, rasterised: counter))
                                }
                            }
                        }
                    }
                }
            }
        }
        pixelsRasterised &+= rasterised
    }
}
