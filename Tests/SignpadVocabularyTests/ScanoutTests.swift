import SignpadInput
import SignpadVocabulary
import Testing

extension Scanout {
    /// Every clip `forEachClip` hands out, as a list.
    func clips(_ rects: [PixelRect]) -> [(x1: UInt16, y1: UInt16, x2: UInt16, y2: UInt16)] {
        var result: [(x1: UInt16, y1: UInt16, x2: UInt16, y2: UInt16)] = []
        forEachClip(rects) { result.append(($0, $1, $2, $3)) }
        return result
    }
}

@Suite struct ScanoutTests {
    func numbered(_ w: Int, _ h: Int) -> Canvas {
        var c = Canvas(width: w, height: h)
        for y in 0..<h { for x in 0..<w { c[x, y] = UInt32(y * 1000 + x) } }
        return c
    }

    @Test(arguments: Rotation.allCases)
    func rotatedCopyPutsEveryPixelWhereTheMapSays(rotation: Rotation) {
        let scanout = Scanout(width: 6, height: 4, rotation: rotation)
        let canvas = numbered(scanout.logicalWidth, scanout.logicalHeight)
        let pitch = 8 * 4  // wider than the 6-pixel row
        var buffer = [UInt32](repeating: 0xDEAD, count: 8 * 4)
        buffer.withUnsafeMutableBytes { _ = scanout.copy(canvas.bounds, from: canvas, to: $0.baseAddress!, pitch: pitch) }
        for y in 0..<canvas.height {
            for x in 0..<canvas.width {
                let s = scanout.map(x: x, y: y)
                #expect(buffer[s.y * 8 + s.x] == canvas[x, y])
            }
        }
        #expect(buffer[6] == 0xDEAD && buffer[7] == 0xDEAD, "the padding past the row is never written")
    }

    @Test(arguments: Rotation.allCases)
    func touchesLandWhereTheInkAppears(rotation: Rotation) {
        // A panel laminated on the display reports scanout coordinates; the same rotation value
        // must bring them back to the logical pixel that was drawn there.
        let scanout = Scanout(width: 200, height: 100, rotation: rotation)
        let axisX = AbsInfo(minimum: 0, maximum: 199), axisY = AbsInfo(minimum: 0, maximum: 99)
        let mapping = ScreenMapping(xAxis: axisX, yAxis: axisY, screenWidth: scanout.logicalWidth, screenHeight: scanout.logicalHeight, rotation: rotation)
        for (x, y) in [(10, 20), (50, 5), (scanout.logicalWidth - 1, scanout.logicalHeight - 1)] {
            let s = scanout.map(x: x, y: y)
            let p = mapping.point(x: Int32(s.x), y: Int32(s.y))
            #expect(abs(p.x - Double(x)) <= 1 + 1e-9 && abs(p.y - Double(y)) <= 1 + 1e-9, "\(rotation): (\(x),\(y)) → scanout \(s) → \(p)")
        }
    }

    /// A 1920x1080 mode on a 480 x 270 mm panel mounted in portrait: the canvas's x runs
    /// along the panel's 270 mm side, at 1080 / 270 pixels per millimetre.
    @Test(arguments: Rotation.allCases)
    func pixelDensityFollowsTheCanvasAxes(rotation: Rotation) {
        let scanout = Scanout(width: 1920, height: 1080, rotation: rotation, millimetres: Millimetres(width: 480, height: 270))
        let density = scanout.pixelDensity
        #expect(density?.x == Double(scanout.logicalWidth) / (rotation.swapsAxes ? 270 : 480))
        #expect(density?.y == Double(scanout.logicalHeight) / (rotation.swapsAxes ? 480 : 270))
        #expect(Scanout(width: 1920, height: 1080, rotation: rotation).pixelDensity == nil)
        #expect(Scanout(width: 1920, height: 1080, rotation: rotation, millimetres: Millimetres(width: 0, height: 0)).pixelDensity == nil)
    }

    @Test func clipsAreClampedSixteenBitAndAtMost256() {
        let scanout = Scanout(width: 1920, height: 1080, rotation: .none)
        let rects = (0..<400).map { PixelRect(x: ($0 % 40) * 48, y: ($0 / 40) * 100, width: 10, height: 10) }
        let clips = scanout.clips(rects + [PixelRect(x: 1900, y: 1070, width: 100, height: 100)])
        #expect(clips.count <= 256)
        #expect(clips.allSatisfy { $0.x2 <= 1920 && $0.y2 <= 1080 && $0.x1 < $0.x2 && $0.y1 < $0.y2 })
        // Merging keeps every original pixel covered.
        for r in rects {
            #expect(clips.contains { Int($0.x1) <= r.minX && Int($0.x2) >= r.maxX && Int($0.y1) <= r.minY && Int($0.y2) >= r.maxY })
        }
    }

    @Test func offscreenDisplayShowsOnlyWhatWasPresented() {
        let display = OffscreenDisplay(width: 4, height: 6, rotation: .quarter)
        var canvas = Canvas(width: 6, height: 4, fill: 0x111111)
        canvas[5, 0] = 0xFF0000
        display.present(canvas, dirty: DirtyRegion([PixelRect(x: 4, y: 0, width: 2, height: 1)]))
        #expect(display.screen[0, 0] == 0xFF0000)  // logical (5,0) → scanout (0, 6-1-5)
        #expect(display.screen[0, 1] == 0x111111)
        #expect(display.screen[3, 3] == 0, "not presented, still black")
        #expect(display.bytesCopied == 8)
    }

    @Test func dirtyRegionKeepsMisalignedNeighboursApart() {
        var region = DirtyRegion()
        region.add(PixelRect(x: 0, y: 0, width: 10, height: 4))
        region.add(PixelRect(x: 6, y: 4, width: 10, height: 4))  // touches, but the union would add 48 px
        region.add(PixelRect(x: 0, y: -4, width: 10, height: 4))  // touches and lines up: merged for free
        #expect(region.rects.count == 2)
        #expect(region.area == 120)
    }

    @Test func dirtyRegionMergesOverlapsIntoOne() {
        var region = DirtyRegion()
        region.add(PixelRect(x: 0, y: 0, width: 10, height: 10))
        region.add(PixelRect(x: 50, y: 50, width: 10, height: 10))
        region.add(PixelRect(x: 5, y: 5, width: 50, height: 50))
        #expect(region.rects == [PixelRect(x: 0, y: 0, width: 60, height: 60)])
    }
}
