import Foundation
import SignpadInk
import SignpadTestSupport
import SignpadVocabulary
import Testing

/// Replays stroke events through smoother and renderer the way the daemon does, checking after
/// every event that nothing changed outside the reported dirty rectangles and that the canvas
/// is the dry ink so far with the whole wet tail drawn over it in one go, as if the old tail had
/// been put back and the new one drawn (the renderer draws only what a lengthened tail adds).
struct IncrementalRun {
    var renderer: InkRenderer
    /// Only the dry ink, drawn piece by piece; a copy of it draws each event's whole wet tail.
    var dryOnly: InkRenderer
    var smoother = MidpointSmoother()
    var dry: [InkPiece] = []
    /// Ends each move's wet tail with the predicted point, as the session does.
    var predictor: InkPredictor?
    var events = 0
    /// Events whose wet tail ended ahead of the newest sample.
    var predictedEvents = 0
    var unreported = 0
    var wetMismatches = 0

    init(width: Int, height: Int, stride: Int? = nil, predicting horizon: Double? = nil) {
        self.init(renderer: InkRenderer(width: width, height: height, stride: stride))
        predictor = horizon.map { InkPredictor(horizon: $0) }
    }

    init(renderer: InkRenderer, options: SmootherOptions = SmootherOptions()) {
        self.renderer = renderer
        dryOnly = renderer
        smoother = MidpointSmoother(options: options)
    }

    mutating func run(_ strokeEvents: [StrokeEvent]) {
        for event in strokeEvents {
            let before = renderer.canvas
            var step = smoother.handle(event)
            switch event {
            case .down(let sample):
                predictor?.reset()
                predictor?.add(sample)
            case .move(let sample):
                predictor?.add(sample)
                if let ahead = predictor?.predicted(), step.wet.extendAhead(to: ahead) { predictedEvents += 1 }
            default: break
            }
            dry.append(contentsOf: step.dry)
            var dirty = DirtyRegion()
            renderer.apply(step, dirty: &dirty)
            unreported += changedOutside(dirty, before: before, after: renderer.canvas)
            for piece in step.dry { dryOnly.drawDry(piece, dirty: &dirty) }
            var whole = dryOnly, wetOnly = SmootherStep()
            wetOnly.wet = step.wet
            whole.apply(wetOnly, dirty: &dirty)
            if whole.canvas != renderer.canvas { wetMismatches += 1 }
            events += 1
        }
    }
}

func changedOutside(_ dirty: DirtyRegion, before: Canvas, after: Canvas) -> Int {
    var count = 0
    before.pixels.withUnsafeBytes { b in
        after.pixels.withUnsafeBytes { a in
            let rowBytes = after.stride * 4
            for y in 0..<after.height where memcmp(b.baseAddress! + y * rowBytes, a.baseAddress! + y * rowBytes, rowBytes) != 0 {
                for x in 0..<after.width where before[x, y] != after[x, y] && !dirty.contains(x: x, y: y) {
                    count += 1
                }
            }
        }
    }
    return count
}

/// All dry pieces drawn at once, in one pass over one list.
func renderWhole(_ pieces: [InkPiece], width: Int, height: Int, stride: Int? = nil) -> Canvas {
    var renderer = InkRenderer(width: width, height: height, stride: stride)
    var dirty = DirtyRegion()
    for piece in pieces { renderer.drawDry(piece, dirty: &dirty) }
    return renderer.canvas
}

@Suite struct InkRendererTests {
    let zigzag: [StrokeEvent] = stroke((0..<30).map { (i: Int) -> (Double, Double) in
        let dy: Double = i % 2 == 0 ? -15 : 15
        return (10 + Double(i) * 6, 40 + dy)
    })

    @Test func incrementalDrawingEqualsOneFullRenderAndLeavesNoWetInk() {
        var run = IncrementalRun(width: 220, height: 90)
        run.run(zigzag)
        #expect(run.unreported == 0)
        #expect(run.wetMismatches == 0)
        #expect(run.renderer.canvas == renderWhole(run.dry, width: 220, height: 90))
        #expect(run.renderer.canvas != InkRenderer(width: 220, height: 90).canvas, "the stroke drew something")
    }

    /// The predicted piece is put back alone while the tail keeps its samples: what is shown
    /// must still be the tail drawn whole, to the level.
    @Test func aTailEndingAheadEqualsOneDrawnWhole() {
        let loops: [StrokeEvent] = stroke((0..<80).map { (i: Int) -> (Double, Double) in
            let t = Double(i) / 8
            return (110 + 80 * sin(t) + Double(i), 45 + 35 * sin(2 * t))
        })
        var run = IncrementalRun(width: 300, height: 90, predicting: 0.016)
        run.run(zigzag + loops)
        #expect(run.predictedEvents > 60, "the tail ended ahead on most moves")
        #expect(run.unreported == 0)
        #expect(run.wetMismatches == 0)
        #expect(run.renderer.canvas == renderWhole(run.dry, width: 300, height: 90))
    }

    /// Knots of a wet tail, each with the pen's radius: `sampled` of `knots`, then the point
    /// ahead, if any.
    static func tail(_ knots: [(Double, Double)], sampled: Int, ahead: (Double, Double)? = nil) -> SmootherStep {
        var step = SmootherStep()
        for (x, y) in knots[..<sampled] { step.wet.append(FlatPoint(point: Point(x, y), radius: 3)) }
        if let (x, y) = ahead { step.wet.extendAhead(to: Point(x, y)) }
        return step
    }

    /// The shown tail drawn whole over `dry`, on a renderer that never predicted.
    static func drawnWhole(_ step: SmootherStep, over dry: [InkPiece] = [], width: Int, height: Int) -> Canvas {
        var renderer = InkRenderer(width: width, height: height), dirty = DirtyRegion()
        for piece in dry { renderer.drawDry(piece, dirty: &dirty) }
        renderer.apply(step, dirty: &dirty)
        return renderer.canvas
    }

    /// A contact that lands just where it was predicted makes the predicted piece its own: the
    /// next prediction put back must leave that piece standing.
    @Test func aPredictionTheContactReachesStaysAsItsInk() {
        let knots = [(10.0, 30.0), (30.0, 34.0), (50.0, 30.0), (70.0, 26.0), (90.0, 44.0)]
        var renderer = InkRenderer(width: 120, height: 60), dirty = DirtyRegion()
        renderer.apply(Self.tail(knots, sampled: 2, ahead: knots[2]), dirty: &dirty)
        // Then it falls short of the next prediction: only that one is put back.
        renderer.apply(Self.tail(knots, sampled: 3, ahead: (76, 20)), dirty: &dirty)
        let last = Self.tail(knots, sampled: 4, ahead: (100, 50))
        renderer.apply(last, dirty: &dirty)
        #expect(renderer.canvas == Self.drawnWhole(last, width: 120, height: 60))
    }

    /// A tail that drops its newest sample and predicts just onto it draws nothing new: the next
    /// prediction put back must take that piece away too.
    @Test func aPredictionOntoADroppedSampleGoesWithTheNext() {
        let knots = [(10.0, 30.0), (30.0, 34.0), (50.0, 30.0)]
        var renderer = InkRenderer(width: 120, height: 60), dirty = DirtyRegion()
        renderer.apply(Self.tail(knots, sampled: 3, ahead: (70, 20)), dirty: &dirty)
        renderer.apply(Self.tail(knots, sampled: 2, ahead: knots[2]), dirty: &dirty)
        let last = Self.tail([(10.0, 30.0), (30.0, 34.0), (40.0, 55.0)], sampled: 3, ahead: (45, 58))
        renderer.apply(last, dirty: &dirty)
        #expect(renderer.canvas == Self.drawnWhole(last, width: 120, height: 60))
    }

    /// Dry ink drawn while a predicted piece is shown stays when the piece is put back.
    @Test func dryInkDrawnOverAPredictionOutlivesIt() {
        // The contact turns away: only the dry ink is left where the prediction crossed it.
        let knots = [(10.0, 30.0), (30.0, 30.0), (28.0, 52.0)]
        let across = InkPiece.cubic(CubicSegment(p0: Point(45, 5), c1: Point(46, 20), c2: Point(44, 40), p3: Point(45, 55),
                                                startWidth: 4, endWidth: 4))
        var renderer = InkRenderer(width: 120, height: 60), dirty = DirtyRegion()
        renderer.apply(Self.tail(knots, sampled: 2, ahead: (55, 28)), dirty: &dirty)
        renderer.drawDry(across, dirty: &dirty)
        let next = Self.tail(knots, sampled: 3, ahead: (27, 57))
        renderer.apply(next, dirty: &dirty)
        #expect(renderer.canvas == Self.drawnWhole(next, over: [across], width: 120, height: 60))
    }

    @Test func pitchedCanvasDrawsTheSamePixels() {
        var plain = IncrementalRun(width: 220, height: 90)
        var pitched = IncrementalRun(width: 220, height: 90, stride: 256)
        plain.run(zigzag)
        pitched.run(zigzag)
        for y in 0..<90 {
            for x in 0..<220 { #expect(plain.renderer.canvas[x, y] == pitched.renderer.canvas[x, y]) }
        }
        #expect(pitched.renderer.canvas.pixels[220..<256].allSatisfy { $0 == 0xFFFFFF })
    }

    @Test func drawingOrderDoesNotMatter() {
        let pieces = dryPieces(zigzag)
        #expect(renderWhole(pieces, width: 220, height: 90) == renderWhole(pieces.reversed(), width: 220, height: 90))
    }

    @Test func jointsDoNotDoubleDarken() {
        // A straight stroke made of many pieces has the same darkness along its length.
        let pieces = dryPieces(stroke((0..<20).map { (10 + Double($0) * 5, 20.5) }))
        let canvas = renderWhole(pieces, width: 120, height: 40)
        let centre = (20..<100).map { canvas[$0, 20] }
        #expect(Set(centre).count == 1, "centre row should be uniform, got \(Set(centre))")
        #expect(centre.first == 0x000000)
    }

    /// A copy of a renderer gets its own levels when either draws; the copy may land at another
    /// offset from a cache line, where the levels are moved to keep their layout line-aligned.
    /// Small canvases make such offsets likely, so several widths are tried.
    @Test(arguments: [37, 64, 100, 129, 220])
    func aCopiedRendererKeepsItsInkAndDrawsOnItsOwn(width: Int) {
        let pieces = dryPieces(stroke((0..<30).map { (i: Int) -> (Double, Double) in
            (5 + Double(i) * Double(width - 10) / 29, i % 2 == 0 ? 25 : 65)
        }))
        let half = pieces.count / 2
        var original = InkRenderer(width: width, height: 90)
        var dirty = DirtyRegion()
        for piece in pieces[..<half] { original.drawDry(piece, dirty: &dirty) }
        var copy = original
        for piece in pieces[half...] { copy.drawDry(piece, dirty: &dirty) }
        let firstHalf = renderWhole(Array(pieces[..<half]), width: width, height: 90)
        // Compared outside #expect, which would print every pixel of both canvases.
        let originalKept = original.canvas == firstHalf, copyDrew = copy.canvas == renderWhole(pieces, width: width, height: 90)
        #expect(originalKept, "the original still shows the first half only")
        #expect(copyDrew, "the copy shows both halves")
        #expect(copy.canvas != firstHalf, "the second half drew something")
        var levelsMatch = true
        for y in 0..<90 {
            for x in 0..<width {
                let level = copy.dryCoverage(x: x, y: y)
                if (copy.canvas[x, y] == 0xFFFFFF) != (level == 0) { levelsMatch = false }
            }
        }
        #expect(levelsMatch, "the copy's levels are its own ink, not shifted bytes")
    }

    @Test func clearRemovesAllInk() {
        var run = IncrementalRun(width: 220, height: 90)
        run.run(zigzag)
        var dirty = DirtyRegion()
        run.renderer.clearInk(dirty: &dirty)
        #expect(run.renderer.canvas == InkRenderer(width: 220, height: 90).canvas)
        #expect(!dirty.isEmpty)
    }

    /// A page of levels is a tile of 32 columns by 64 rows: a stroke down 600 rows of a 1080p box
    /// maps the tiles it crosses (a column of them, two where its width straddles a tile's edge),
    /// not a page for every row. Clear zeroes them and maps no other, though a diagonal's bounds
    /// hold many tiles it never crossed.
    @Test func aTallStrokeMapsTheTilesItCrossesOnly() {
        var renderer = InkRenderer(width: 1920, height: 1080)
        renderer.clip = PixelRect(x: 40, y: 200, width: 1840, height: 700)
        var dirty = DirtyRegion()
        #expect(renderer.residentLevelBytes == 0)
        renderer.drawDry(.cubic(CubicSegment(p0: Point(500, 250), c1: Point(500, 450), c2: Point(500, 650), p3: Point(500, 850), startWidth: 3, endWidth: 3)), dirty: &dirty)
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let mapped = renderer.residentLevelBytes / page
        #expect(mapped >= 10 && mapped <= 22, "\(mapped) pages for a stroke crossing 600 rows")
        renderer.clearInk(dirty: &dirty)
        #expect(renderer.residentLevelBytes / page == mapped, "Clear mapped more")
        #expect(renderer.dryCoverage(x: 500, y: 500) == 0)

        renderer.drawDry(.cubic(CubicSegment(p0: Point(100, 250), c1: Point(500, 450), c2: Point(900, 650), p3: Point(1300, 850), startWidth: 3, endWidth: 3)), dirty: &dirty)
        let diagonal = renderer.residentLevelBytes / page
        renderer.clearInk(dirty: &dirty)
        #expect(renderer.residentLevelBytes / page == diagonal, "Clear mapped the tiles in the diagonal's bounds")
        #expect(renderer.dryCoverage(x: 700, y: 550) == 0)
    }

    @Test func inkStaysInsideTheClip() {
        var renderer = InkRenderer(width: 100, height: 100)
        // Neither side on a multiple of eight, so both edges cut through a block of lanes.
        renderer.clip = PixelRect(x: 20, y: 20, width: 59, height: 60)
        var dirty = DirtyRegion()
        renderer.drawDry(.cubic(CubicSegment(p0: Point(0, 50), c1: Point(30, 50), c2: Point(70, 50), p3: Point(100, 50), startWidth: 4, endWidth: 4)), dirty: &dirty)
        #expect(renderer.canvas[50, 50] == 0x000000)
        // The clip's edge columns are inked and nothing beyond them is, not even a lane's worth.
        #expect(renderer.canvas[20, 50] == 0x000000 && renderer.canvas[78, 50] == 0x000000)
        for y in 0..<100 {
            for x in 0..<100 where !renderer.clip.contains(x: x, y: y) {
                #expect(renderer.canvas[x, y] == 0xFFFFFF, "pixel (\(x), \(y)) is outside the clip")
            }
        }
        #expect(dirty.rects.allSatisfy { $0.minX >= 20 && $0.maxX <= 79 })
    }

    /// A line a hair off horizontal has a band wider than the canvas; it must still get whole rows.
    @Test func aNearlyHorizontalStrokeDrawsLikeAHorizontalOne() {
        func drawn(rise: Double) -> Canvas {
            var renderer = InkRenderer(width: 1100, height: 100)
            var dirty = DirtyRegion()
            renderer.drawDry(.cubic(CubicSegment(p0: Point(10, 50), c1: Point(370, 50 + rise / 3), c2: Point(730, 50 + 2 * rise / 3),
                                                 p3: Point(1090, 50 + rise), startWidth: 2.5, endWidth: 2.5)), dirty: &dirty)
            return renderer.canvas
        }
        let level = drawn(rise: 0)
        #expect(level[500, 50] == 0x000000)
        for rise in [1.5e-6, 2e-9, -3e-6] {
            let differing = zip(drawn(rise: rise).pixels, level.pixels).filter { $0 != $1 }.count
            #expect(differing == 0, "rise \(rise): \(differing) pixels differ from the horizontal stroke")
        }
    }

    @Test func dirtyRectanglesAreTightToThePen() {
        var renderer = InkRenderer(width: 100, height: 100)
        var dirty = DirtyRegion()
        renderer.drawDry(.dot(center: Point(50, 50), diameter: 4), dirty: &dirty)
        // radius 2 plus 1 px of antialiasing on each side, at most.
        #expect(dirty.bounds.width <= 6 && dirty.bounds.height <= 6)
        #expect(dirty.contains(x: 50, y: 50))
    }

    /// The pixels a piece can touch: a cubic lies within the hull of its control points, and ink
    /// reaches half the pen's widest width plus half a pixel of antialiasing beyond that.
    static func reach(_ piece: InkPiece) -> PixelRect {
        let low: Point, high: Point, radius: Double
        switch piece {
        case .cubic(let s):
            low = Point(min(s.p0.x, s.c1.x, s.c2.x, s.p3.x), min(s.p0.y, s.c1.y, s.c2.y, s.p3.y))
            high = Point(max(s.p0.x, s.c1.x, s.c2.x, s.p3.x), max(s.p0.y, s.c1.y, s.c2.y, s.p3.y))
            radius = max(s.startWidth, s.endWidth) / 2 + 0.5
        case .dot(let center, let diameter):
            (low, high) = (center, center)
            radius = diameter / 2 + 0.5
        }
        return PixelRect(minX: Int((low.x - radius).rounded(.down)), minY: Int((low.y - radius).rounded(.down)),
                         maxX: Int((high.x + radius).rounded(.up)), maxY: Int((high.y + radius).rounded(.up)))
    }

    @Test func everyPixelAPieceChangesIsWithinItsReach() {
        let pieces: [InkPiece] = [
            .dot(center: Point(50.3, 40.8), diameter: 5),
            .cubic(CubicSegment(p0: Point(10, 90), c1: Point(40, 10), c2: Point(80, 170), p3: Point(95, 20), startWidth: 1.5, endWidth: 6)),
            .cubic(CubicSegment(p0: Point(20.5, 20.5), c1: Point(20.5, 20.5), c2: Point(60.2, 21), p3: Point(60.2, 21), startWidth: 3, endWidth: 3)),
        ]
        for piece in pieces {
            var renderer = InkRenderer(width: 120, height: 120)
            var dirty = DirtyRegion()
            renderer.drawDry(piece, dirty: &dirty)
            let reach = Self.reach(piece)
            var inked = 0, outside = 0
            for y in 0..<120 {
                for x in 0..<120 where renderer.dryCoverage(x: x, y: y) > 0 {
                    inked += 1
                    if !(reach.minX...reach.maxX - 1).contains(x) || !(reach.minY...reach.maxY - 1).contains(y) { outside += 1 }
                }
            }
            #expect(inked > 0)
            #expect(outside == 0, "\(piece): \(outside) inked pixels outside \(reach)")
        }
    }

    @Test func aDiagonalStrokeReportsBandsNotItsBoundingBox() {
        var renderer = InkRenderer(width: 200, height: 200)
        var dirty = DirtyRegion()
        let before = renderer.canvas
        renderer.drawDry(.cubic(CubicSegment(p0: Point(10, 10), c1: Point(70, 70), c2: Point(130, 130), p3: Point(190, 190), startWidth: 3, endWidth: 3)), dirty: &dirty)
        #expect(changedOutside(dirty, before: before, after: renderer.canvas) == 0)
        #expect(dirty.rects.count > 1)
        #expect(dirty.area * 4 < dirty.bounds.area, "\(dirty.area) px reported of a \(dirty.bounds.area) px bounding box")
    }

    @Test func inkOverAPatternedBackgroundBlendsWithEachPixel() {
        // Stripes inside the clip make every row mixed, so the renderer must read the background.
        var background = Canvas(width: 40, height: 40, fill: 0xFFFFFF)
        for y in 0..<40 { for x in stride(from: 0, to: 40, by: 2) { background[x, y] = 0x00FF00 } }
        var renderer = InkRenderer(background: background, inkColor: 0x0000FF)
        var dirty = DirtyRegion()
        renderer.drawDry(.dot(center: Point(20, 20), diameter: 9), dirty: &dirty)
        var checked = 0
        for y in 10..<30 {
            for x in 10..<30 {
                let level = renderer.dryCoverage(x: x, y: y)
                #expect(renderer.canvas[x, y] == XRGB.blend(background[x, y], 0x0000FF, level))
                if level > 0 && level < 255 { checked += 1 }
            }
        }
        #expect(checked > 8, "the dot's antialiased rim was checked")
    }

    /// A chunk of a patterned row is painted from the palette only if all eight of its pixels
    /// are the paper: one pixel of another colour, in whichever lane, is blended over itself.
    @Test func aChunkWithOnePixelOffThePaperBlendsThatPixel() {
        var background = Canvas(width: 80, height: 24, fill: 0xFFFFFF)
        // Every ninth column of the stroke's antialiased rows, so the odd pixels fall in every
        // lane; the other rows stay plain, so the palette has the paper.
        for y in [10, 14] { for x in stride(from: y % 9, to: 80, by: 9) { background[x, y] = 0xFF0000 } }
        var renderer = InkRenderer(background: background, inkColor: 0x000080)
        var dirty = DirtyRegion()
        renderer.drawDry(.cubic(CubicSegment(p0: Point(2, 12.3), c1: Point(26, 12.3), c2: Point(52, 12.3), p3: Point(76, 12.3), startWidth: 4, endWidth: 4)),
                         dirty: &dirty)
        var lanes = Set<Int>()
        for y in 0..<24 {
            for x in 0..<80 {
                let level = renderer.dryCoverage(x: x, y: y)
                #expect(renderer.canvas[x, y] == XRGB.blend(background[x, y], 0x000080, level), "(\(x), \(y))")
                if x >= 32 && background[x, y] != 0xFFFFFF && level > 0 && level < 255 { lanes.insert(x % 8) }
            }
        }
        // The rim rows are painted from near column 2, and a chunk that would leave its 32-column
        // segment steps back to the segment's column 24 (`LevelLayout.chunkStart`), so from
        // column 32 on their chunks start on multiples of 8: there the residues are the lanes.
        #expect(lanes.count == 8, "odd pixels under partial ink at column residues \(lanes.sorted())")
    }

    /// The screen repainted under ink (a message appearing, the box's paper changing) inside some
    /// rectangles only: there the ink lies over the new picture, everywhere else nothing moves,
    /// and ink cleared afterwards uncovers the new picture, not the old one.
    @Test func aRepaintUnderTheInkKeepsItOverTheNewPicture() {
        let clip = PixelRect(minX: 37, minY: 12, maxX: 161, maxY: 88)
        var renderer = InkRenderer(background: Canvas(width: 200, height: 100, fill: 0xFFFFFF), inkColor: 0x000080, clip: clip)
        var dirty = DirtyRegion()
        let stroke = InkPiece.cubic(CubicSegment(p0: Point(20, 50), c1: Point(70, 20), c2: Point(130, 80), p3: Point(180, 50), startWidth: 6, endWidth: 6))
        renderer.drawDry(stroke, dirty: &dirty)
        let before = renderer.canvas
        // Stripes over the left half of the box and a grey band across the screen's top.
        let changed = [PixelRect(minX: 0, minY: 0, maxX: 200, maxY: 10), PixelRect(minX: 30, minY: 30, maxX: 100, maxY: 70)]
        func picture(_ x: Int, _ y: Int) -> UInt32 {
            if changed[0].contains(x: x, y: y) { return 0x808080 }
            if changed[1].contains(x: x, y: y) { return x % 3 == 0 ? 0x00FF00 : 0xFFFFF0 }
            return 0xFFFFFF
        }
        renderer.repaintBackground(changed: changed, dirty: &dirty) { canvas, rects in
            #expect(rects == changed)
            for r in rects { for y in r.minY..<r.maxY { for x in r.minX..<r.maxX { canvas[x, y] = picture(x, y) } } }
        }
        var inked = 0
        for y in 0..<100 {
            for x in 0..<200 {
                let level = renderer.dryCoverage(x: x, y: y)
                if changed.contains(where: { $0.contains(x: x, y: y) }) {
                    #expect(renderer.canvas[x, y] == XRGB.blend(picture(x, y), 0x000080, level), "(\(x), \(y))")
                    if level > 0 && changed[1].contains(x: x, y: y) { inked += 1 }
                } else {
                    #expect(renderer.canvas[x, y] == before[x, y], "(\(x), \(y)) is outside what changed")
                }
            }
        }
        #expect(inked > 50, "ink lies over the stripes")
        renderer.clearInk(dirty: &dirty)
        for y in 0..<100 { for x in 0..<200 where renderer.canvas[x, y] != picture(x, y) { Issue.record("(\(x), \(y)) after clearing: \(renderer.canvas[x, y])") } }
    }

    /// A repaint while a stroke's wet tail is all the ink shown (a message appearing as the pen
    /// lands): the tail lies over the new picture as if the picture had been there first.
    @Test func aRepaintKeepsTheWetTailShown() {
        let clip = PixelRect(minX: 10, minY: 10, maxX: 190, maxY: 90)
        func renderer() -> InkRenderer { InkRenderer(background: Canvas(width: 200, height: 100, fill: 0xFFFFFF), inkColor: 0x000080, clip: clip) }
        var step = SmootherStep()
        for (x, y) in [(40.0, 30.0), (90.0, 60.0), (150.0, 40.0)] { step.wet.append(FlatPoint(point: Point(x, y), radius: 3)) }
        let picture = { (canvas: inout Canvas, rects: [PixelRect]) in for r in rects { canvas.fill(r, with: 0xF0F0D0) } }
        var dirty = DirtyRegion()
        var repaintedUnder = renderer()
        repaintedUnder.apply(step, dirty: &dirty)
        repaintedUnder.repaintBackground(changed: [clip], dirty: &dirty, paint: picture)
        var repaintedFirst = renderer()
        repaintedFirst.repaintBackground(changed: [clip], dirty: &dirty, paint: picture)
        repaintedFirst.apply(step, dirty: &dirty)
        let inked = repaintedFirst.canvas.pixels.count { $0 != 0xF0F0D0 && $0 != 0xFFFFFF }
        #expect(inked > 300, "the tail is drawn")
        let differing = zip(repaintedUnder.canvas.pixels, repaintedFirst.canvas.pixels).count { $0 != $1 }
        #expect(differing == 0, "pixels where the tail was lost")
    }

    /// The levels cover the clip only: ink at its very edges and corners, drawn and cleared
    /// again, stays inside it and leaves the rest of the canvas as it was.
    @Test(arguments: [PixelRect(minX: 0, minY: 0, maxX: 64, maxY: 40), PixelRect(minX: 31, minY: 7, maxX: 33, maxY: 9),
                      PixelRect(minX: 33, minY: 20, maxX: 190, maxY: 97), PixelRect(minX: 100, minY: 50, maxX: 100, maxY: 60)])
    func inkAtTheClipsEdgesStaysInsideIt(clip: PixelRect) {
        var background = Canvas(width: 200, height: 100, fill: 0xFFFFFF)
        for y in 0..<100 { background[y * 2, y] = 0xFF0000 }
        let original = background
        var renderer = InkRenderer(background: background, inkColor: 0x000000, clip: clip)
        var dirty = DirtyRegion()
        for corner in [Point(Double(clip.minX), Double(clip.minY)), Point(Double(clip.maxX), Double(clip.maxY)),
                       Point(Double(clip.minX), Double(clip.maxY)), Point(Double(clip.maxX), Double(clip.minY))] {
            renderer.drawDry(.dot(center: corner, diameter: 30), dirty: &dirty)
        }
        renderer.drawDry(.cubic(CubicSegment(p0: Point(-10, -10), c1: Point(60, 120), c2: Point(140, -20), p3: Point(210, 110), startWidth: 9, endWidth: 9)), dirty: &dirty)
        var inside = 0
        for y in 0..<100 {
            for x in 0..<200 {
                if clip.contains(x: x, y: y) {
                    if renderer.canvas[x, y] != original[x, y] { inside += 1 }
                } else {
                    #expect(renderer.canvas[x, y] == original[x, y] && renderer.dryCoverage(x: x, y: y) == 0, "(\(x), \(y)) is outside the clip")
                }
            }
        }
        #expect(clip.isEmpty || inside > 0)
        _ = renderer.clearInk(in: PixelRect(minX: clip.minX, minY: clip.minY, maxX: clip.minX + 5, maxY: clip.maxY), dirty: &dirty)
        renderer.clearInk(dirty: &dirty)
        #expect(renderer.canvas == original)
    }

    /// Mapping every page of the levels (the bench's kiosk that has drawn for a while) keeps
    /// the ink there, and a copy of the renderer keeps its own levels.
    @Test func levelsMadeResidentKeepTheirInkAndCopiesTheirOwn() {
        var renderer = InkRenderer(width: 300, height: 200)
        var dirty = DirtyRegion()
        renderer.drawDry(.dot(center: Point(150, 100), diameter: 20), dirty: &dirty)
        let copy = renderer
        renderer.makeLevelsResident()
        #expect(renderer.dryCoverage(x: 150, y: 100) == 255 && renderer.canvas == copy.canvas)
        renderer.clearInk(dirty: &dirty)
        #expect(renderer.dryCoverage(x: 150, y: 100) == 0)
        #expect(copy.dryCoverage(x: 150, y: 100) == 255, "the copy's levels are its own")
    }

    /// A new clip (a request's text takes room from the box) forgets the ink of the old one and
    /// draws in the new one only.
    @Test func aNewClipForgetsTheOldInk() {
        var renderer = InkRenderer(background: Canvas(width: 120, height: 80, fill: 0xFFFFFF), inkColor: 0, clip: PixelRect(minX: 10, minY: 10, maxX: 110, maxY: 70))
        var dirty = DirtyRegion()
        renderer.drawDry(.dot(center: Point(60, 20), diameter: 12), dirty: &dirty)
        renderer.clip = PixelRect(minX: 40, minY: 40, maxX: 100, maxY: 75)
        #expect(renderer.canvas == Canvas(width: 120, height: 80, fill: 0xFFFFFF), "the old ink is off the canvas")
        #expect(renderer.dryCoverage(x: 60, y: 20) == 0)
        renderer.drawDry(.dot(center: Point(60, 50), diameter: 12), dirty: &dirty)
        #expect(renderer.dryCoverage(x: 60, y: 50) == 255 && renderer.canvas[60, 50] == 0)
        renderer.clearInk(dirty: &dirty)
        #expect(renderer.canvas == Canvas(width: 120, height: 80, fill: 0xFFFFFF))
    }

    /// Each request changes the layout, and so the clip: the levels keep their pages, cleared,
    /// so that a kiosk asked for one signature after another maps them once, not at each
    /// signature. Under a clip of other columns and rows, and with a wet tail shown when it
    /// changes, they draw as a fresh renderer's do.
    @Test func aNewClipKeepsTheLevelsPagesCleared() {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let walkUp = PixelRect(x: 40, y: 200, width: 1840, height: 700), requested = PixelRect(x: 100, y: 400, width: 1700, height: 500)
        let stroke = InkPiece.cubic(CubicSegment(p0: Point(100, 450), c1: Point(500, 600), c2: Point(900, 700), p3: Point(1300, 850), startWidth: 3, endWidth: 3))
        let tail = Self.tail([(1300, 850), (1350, 820), (1400, 800)], sampled: 3, ahead: (1430, 790))
        func fresh(_ clip: PixelRect) -> InkRenderer { InkRenderer(background: Canvas(width: 1920, height: 1080, fill: 0xFFFFFF), clip: clip) }
        func drawn(_ renderer: inout InkRenderer) {
            var dirty = DirtyRegion()
            renderer.drawDry(stroke, dirty: &dirty)
            renderer.apply(tail, dirty: &dirty)
        }
        var renderer = fresh(walkUp)
        drawn(&renderer)
        let mapped = renderer.residentLevelBytes / page
        #expect(mapped > 0)
        for clip in [requested, walkUp] {
            renderer.clip = clip
            #expect(renderer.residentLevelBytes / page >= mapped, "the pages ink reached were mapped again")
            #expect(renderer.canvas == fresh(clip).canvas, "ink of the old clip is left")
            drawn(&renderer)
            var expected = fresh(clip)
            drawn(&expected)
            #expect(renderer.canvas == expected.canvas, "ink drawn on kept levels differs from a fresh renderer's")
        }
        // A clip whose levels the pages cannot hold maps new ones.
        renderer.clip = PixelRect(x: 0, y: 0, width: 1920, height: 1080)
        #expect(renderer.residentLevelBytes == 0)
    }

    @Test func inkOverPlainPaperMatchesTheBlend() {
        var renderer = InkRenderer(width: 40, height: 40, backgroundColor: 0xF0E0D0, inkColor: 0x102030)
        var dirty = DirtyRegion()
        renderer.drawDry(.dot(center: Point(20.3, 19.6), diameter: 7), dirty: &dirty)
        var levels = Set<UInt8>()
        for y in 0..<40 {
            for x in 0..<40 {
                let level = renderer.dryCoverage(x: x, y: y)
                levels.insert(level)
                #expect(renderer.canvas[x, y] == XRGB.blend(0xF0E0D0, 0x102030, level))
            }
        }
        #expect(levels.count > 5, "partial levels were drawn: \(levels.count)")
    }

    /// Every pixel's level is the analytic coverage clamp(radius + 0.5 − distance, 0, 1) × 255,
    /// computed here in double precision: within one level (the rasteriser works in single precision).
    @Test(arguments: [(2.5, 2.5), (1.5, 6.0), (4.0, 4.0)])
    func coverageIsTheDistanceToTheCapsule(startWidth: Double, endWidth: Double) {
        let a = Point(13.3, 17.8), b = Point(61.7, 40.2)
        var renderer = InkRenderer(width: 80, height: 60)
        var dirty = DirtyRegion()
        // Straight, so it flattens to one capsule whose radius runs from one end to the other.
        renderer.drawDry(.cubic(CubicSegment(p0: a, c1: a + (b - a) * (1.0 / 3), c2: a + (b - a) * (2.0 / 3), p3: b,
                                             startWidth: startWidth, endWidth: endWidth)), dirty: &dirty)
        var worst = 0, partial = 0
        for y in 0..<60 {
            for x in 0..<80 {
                let p = Point(Double(x) + 0.5, Double(y) + 0.5), ab = b - a, ap = p - a
                let t = min(max((ap.x * ab.x + ap.y * ab.y) / (ab.x * ab.x + ab.y * ab.y), 0), 1)
                let radius = (startWidth + (endWidth - startWidth) * t) / 2
                let coverage = min(max(radius + 0.5 - p.distance(to: a + ab * t), 0), 1)
                let expected = Int((coverage * 255).rounded())
                worst = max(worst, abs(Int(renderer.dryCoverage(x: x, y: y)) - expected))
                if expected > 0 && expected < 255 { partial += 1 }
            }
        }
        #expect(worst <= 1, "a level is \(worst) away from the analytic coverage")
        #expect(partial > 100, "the antialiased rim was checked: \(partial) pixels")
    }

    @Test func flatteningStaysWithinATenthOfAPixel() {
        var rasterizer = InkRasterizer()
        let curve = CubicSegment(p0: Point(0, 0), c1: Point(100, 0), c2: Point(0, 100), p3: Point(100, 100), startWidth: 2, endWidth: 2)
        rasterizer.flatten(.cubic(curve))
        let polyline = rasterizer.polyline.map(\.point)
        for i in 0...400 {
            let p = curve.point(at: Double(i) / 400)
            let nearest = zip(polyline, polyline.dropFirst()).map { distanceToSegment(p, $0, $1) }.min()!
            #expect(nearest <= 0.1 + 1e-9)
        }
    }
}

func distanceToSegment(_ p: Point, _ a: Point, _ b: Point) -> Double {
    let ab = b - a, ap = p - a
    let l2 = ab.x * ab.x + ab.y * ab.y
    let t = l2 > 0 ? min(max((ap.x * ab.x + ap.y * ab.y) / l2, 0), 1) : 0
    return p.distance(to: a + ab * t)
}

@Suite(.enabled(if: SharedRecordings.available, "skipped: ../shared/data/recordings is absent (a fresh clone has no shared recordings)"))
struct InkOnRealRecordingsTests {
    @Test(arguments: SharedRecordings.all)
    func everyJunctionIsC1(name: String) throws {
        let events = try SharedRecordings.strokeEvents(name)
        let checked = expectC1Junctions(dryPieces(events))
        #expect(checked > 10, "\(name): only \(checked) junctions checked")
    }

    @Test(arguments: SharedRecordings.all)
    func incrementalEqualsWholeAndEveryChangeIsReported(name: String) throws {
        let events = try SharedRecordings.strokeEvents(name)
        var run = IncrementalRun(width: 800, height: 480)
        run.run(events)
        #expect(run.events == events.count)
        #expect(run.unreported == 0, "\(name): \(run.unreported) pixels changed outside the dirty rectangles")
        #expect(run.wetMismatches == 0, "\(name): after \(run.wetMismatches) events the wet tail differs from one drawn whole")
        #expect(run.renderer.canvas == renderWhole(run.dry, width: 800, height: 480), "\(name): no wet pixel may remain")
    }

    @Test(arguments: SharedRecordings.all)
    func incrementalEqualsWholeWithPredictedInk(name: String) throws {
        let events = try SharedRecordings.strokeEvents(name)
        var run = IncrementalRun(width: 800, height: 480, predicting: 0.016)
        run.run(events)
        #expect(run.predictedEvents > 50, "\(name): only \(run.predictedEvents) tails ended ahead")
        #expect(run.unreported == 0, "\(name): \(run.unreported) pixels changed outside the dirty rectangles")
        #expect(run.wetMismatches == 0, "\(name): after \(run.wetMismatches) events the wet tail differs from one drawn whole")
        #expect(run.renderer.canvas == renderWhole(run.dry, width: 800, height: 480), "\(name): no wet pixel may remain")
    }

    @Test(arguments: SharedRecordings.all)
    func everyStrokeEndsOnItsLastSample(name: String) throws {
        let events = try SharedRecordings.strokeEvents(name)
        var smoother = MidpointSmoother()
        var lastSample: Point?
        var ends = 0
        for event in events {
            if case .down(let s) = event { lastSample = s.point }
            if case .move(let s) = event { lastSample = s.point }
            let step = smoother.handle(event)
            if step.strokeEnded, let lastSample, let end = step.dry.last {
                if case .cubic = end { #expect(end.endPoint == lastSample) }
                ends += 1
            }
        }
        #expect(ends >= 1)
    }
}
