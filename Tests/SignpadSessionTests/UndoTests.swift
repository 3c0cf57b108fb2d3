import Foundation
import SignpadConfig
import SignpadExport
import SignpadInput
import SignpadOutbox
import SignpadSession
import SignpadTestSupport
import SignpadVocabulary
import Testing

/// Undo takes back the last stroke: the screen and the exports are then those of the signature
/// drawn without it.
/// Pixels whose colours differ, counted (a failure does not print two screens). The top byte is
/// XRGB's unused X, which scanout ignores and the painters leave as they like.
func differing(_ a: Canvas, _ b: Canvas) -> Int { zip(a.pixels, b.pixels).filter { $0 & 0xFFFFFF != $1 & 0xFFFFFF }.count }

@Suite struct UndoTests {
    static func stroke(_ index: Int, at start: Double) -> [Sample] {
        (0..<25).map { i in
            let t = Double(i), k = Double(index)
            let x: Double = 150 + t * 14 + k * 9
            let y: Double = 200 + k * 30 + 25 * sin(t / 3)
            return Sample(Point(x, y), time: start + t * 0.01)
        }
    }

    final class Drawn {
        let display = OffscreenDisplay(width: 800, height: 480)
        let exporter: Exporter
        let session: Session
        var now = 1.0

        init(folder: String) throws {
            let config = try Config.load(text: "", file: "(test)", overrides: ["control.socket=\"\""])
            exporter = Exporter(directory: folder, options: config.export, evidence: testEvidence, retrySeconds: 1)
            session = try Session(SessionOptions(config), display: display, exporter: exporter, painter: { _, _ in BoxPainter() })
        }

        func draw(_ samples: [Sample]) {
            session.handle(.down(samples[0]), device: "test", now: now)
            for sample in samples.dropFirst() { session.handle(.move(sample), device: "test", now: now) }
            session.handle(.up, device: "test", now: now)
            now += 1
        }

        func tap(_ rect: PixelRect) {
            let centre = Sample(Point(Double(rect.minX + rect.maxX) / 2, Double(rect.minY + rect.maxY) / 2), time: now)
            session.handle(.down(centre), device: "test", now: now)
            session.handle(.up, device: "test", now: now)
            now += 1
        }

        /// Done, and the saved signature's points as signature_pad's JSON has them.
        func save(in folder: String) throws -> [[SignaturePadJSON.PointData]] {
            tap(session.kiosk.layout.doneButton)
            #expect(exporter.waitUntilIdle(timeout: 10))
            let name = try #require(try FileManager.default.contentsOfDirectory(atPath: folder).first { $0.hasSuffix(".json") && !$0.hasSuffix(".meta.json") })
            let groups = try JSONDecoder().decode([SignaturePadJSON.Group].self, from: Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
            // Their times are wall-clock milliseconds, which differ between two runs.
            return groups.map { $0.points.map { var point = $0; point.time = 0; return point } }
        }
    }

    @Test func theScreenAndTheExportsAreTheSignatureWithoutTheStrokesTakenBack() throws {
        let (a, b) = (scratch(), scratch())
        defer { removeScratch(a); removeScratch(b) }
        let undone = try Drawn(folder: a), plain = try Drawn(folder: b)
        defer { undone.exporter.stop(); plain.exporter.stop() }
        let undo = try #require(undone.session.kiosk.layout.undoButton, "an Undo button by default")
        for i in 0..<4 { undone.draw(Self.stroke(i, at: Double(i))) }
        undone.tap(undo)
        undone.tap(undo)
        for i in 0..<2 { plain.draw(Self.stroke(i, at: Double(i))) }
        #expect(undone.session.kiosk.signature == plain.session.kiosk.signature)
        #expect(differing(undone.display.screen, plain.display.screen) == 0, "the screen shows the two strokes left, as drawn")
        #expect(try undone.save(in: a) == plain.save(in: b))
    }

    @Test func undoAgainAndAgainLeavesNothingAndThenDoesNothing() throws {
        let dir = scratch()
        defer { removeScratch(dir) }
        let drawn = try Drawn(folder: dir)
        defer { drawn.exporter.stop() }
        let blank = drawn.display.screen
        drawn.draw(Self.stroke(0, at: 0))
        drawn.draw(Self.stroke(1, at: 1))
        let undo = try #require(drawn.session.kiosk.layout.undoButton)
        for _ in 0..<3 { drawn.tap(undo) }
        #expect(drawn.session.kiosk.signature.isEmpty)
        #expect(differing(drawn.display.screen, blank) == 0)
    }

    /// Undoing a small stroke far from the rest costs its own few pixels, not the whole signature
    /// drawn again: no spike on the event, and the screen is as if it had never been drawn.
    @Test func undoingAStrokeRedrawsOnlyWhereItWas() throws {
        let (a, b) = (scratch(), scratch())
        defer { removeScratch(a); removeScratch(b) }
        let drawn = try Drawn(folder: a), plain = try Drawn(folder: b)
        defer { drawn.exporter.stop(); plain.exporter.stop() }
        for i in 0..<3 {
            drawn.draw(Self.stroke(i, at: Double(i)))
            plain.draw(Self.stroke(i, at: Double(i)))
        }
        let signature = drawn.session.renderer.pixelsRasterised
        let box = drawn.session.kiosk.layout.box
        let dot = [Sample(Point(Double(box.maxX - 40), Double(box.maxY - 40)), time: 10)]
        drawn.draw(dot)
        let undo = try #require(drawn.session.kiosk.layout.undoButton)
        let before = drawn.session.renderer.pixelsRasterised
        drawn.tap(undo)
        let undoing = drawn.session.renderer.pixelsRasterised - before
        #expect(undoing < signature / 10, "\(undoing) pixels rasterised for the undo; \(signature) for the signature")
        #expect(differing(drawn.display.screen, plain.display.screen) == 0)
    }
}
