import Foundation
import SignpadConfig
import SignpadKiosk
import SignpadOutbox
@testable import SignpadSession
import SignpadTestSupport
import SignpadVocabulary
import Testing

/// A button pressed and let go is drawn from its pictures, kept at start-up, not painted again:
/// the screen is still exactly what the painter paints for the kiosk's state.
@Suite struct ButtonPictureTests {
    /// The daemon's painter, counting the times it paints.
    final class CountingPainter: ScreenPainter {
        let inner: any ScreenPainter
        var paints = 0

        init(_ inner: any ScreenPainter) { self.inner = inner }

        func paint(_ items: [ChromeItem], into canvas: inout Canvas, within rects: [PixelRect]) {
            paints += 1
            inner.paint(items, into: &canvas, within: rects)
        }

        func textRows(_ text: String, width: Int, size: Double) -> Int { inner.textRows(text, width: width, size: size) }
    }

    /// The screen a session shows, beside the one the painter paints whole for the kiosk as it is.
    static func painted(_ session: Session, _ painter: any ScreenPainter) -> Canvas {
        var canvas = Canvas(width: session.renderer.canvas.width, height: session.renderer.canvas.height)
        painter.paint(KioskScreen.items(kiosk: session.kiosk, labels: session.options.kiosk.labels, style: session.options.kiosk.style), into: &canvas)
        return canvas
    }

    @Test(arguments: [(800, 480), (1920, 1080)])
    func everyButtonPressedHeldAndLetGoShowsWhatThePainterPaints(width: Int, height: Int) throws {
        let folder = scratch()
        defer { removeScratch(folder) }
        let config = try Config.load(text: "", file: "(test)", overrides: ["control.socket=\"\""])
        let exporter = Exporter(directory: folder, options: config.export, evidence: testEvidence, retrySeconds: 1)
        let painter = CountingPainter(try cairoPainter(width: width, height: height))
        let session = try Session(SessionOptions(config), display: OffscreenDisplay(width: width, height: height), exporter: exporter,
                                  painter: { _, _ in painter })
        let started = painter.paints
        let buttons = session.kiosk.layout.buttons.filter { $0.button != .done }
        #expect(buttons.count >= 2, "Clear and Undo")
        for (button, rect) in buttons {
            let centre = Point(Double(rect.minX + rect.width / 2), Double(rect.minY + rect.height / 2))
            session.handle(.down(Sample(centre, time: 0)), device: "test", now: 0)
            #expect(session.kiosk.pressedButton == button)
            #expect(differing(session.renderer.canvas, Self.painted(session, painter.inner)) == 0, "\(button) held at \(width)x\(height)")
            // Slid off the button, and back: it lets go and is pressed again.
            session.handle(.move(Sample(Point(centre.x, Double(rect.minY - 20)), time: 0.1)), device: "test", now: 0.1)
            #expect(session.kiosk.pressedButton == nil)
            #expect(differing(session.renderer.canvas, Self.painted(session, painter.inner)) == 0, "\(button) slid off at \(width)x\(height)")
            session.handle(.move(Sample(centre, time: 0.2)), device: "test", now: 0.2)
            session.handle(.up, device: "test", now: 0.3)
            #expect(differing(session.renderer.canvas, Self.painted(session, painter.inner)) == 0, "\(button) let go at \(width)x\(height)")
        }
        #expect(painter.paints == started, "no button was painted again: \(painter.paints - started) paints")
    }

    /// What else changes with a press is still painted: Done on too little ink shows its hint,
    /// and the hint going leaves the screen as the painter paints it.
    @Test func aMessageAppearingWithAPressIsPainted() throws {
        let folder = scratch()
        defer { removeScratch(folder) }
        let config = try Config.load(text: "", file: "(test)", overrides: ["control.socket=\"\""])
        let exporter = Exporter(directory: folder, options: config.export, evidence: testEvidence, retrySeconds: 1)
        let painter = CountingPainter(try cairoPainter(width: 800, height: 480))
        let session = try Session(SessionOptions(config), display: OffscreenDisplay(width: 800, height: 480), exporter: exporter,
                                  painter: { _, _ in painter })
        let done = session.kiosk.layout.doneButton
        let centre = Point(Double(done.minX + done.width / 2), Double(done.minY + done.height / 2))
        session.handle(.down(Sample(centre, time: 0)), device: "test", now: 0)
        session.handle(.up, device: "test", now: 0.1)
        #expect(session.kiosk.message == .tooLittleInk)
        #expect(differing(session.renderer.canvas, Self.painted(session, painter.inner)) == 0)
        session.tick(now: 60)
        #expect(session.kiosk.message == .none)
        #expect(differing(session.renderer.canvas, Self.painted(session, painter.inner)) == 0)
    }

    /// A picture keeps far fewer pixels than its button has, and draws it back exactly.
    @Test func aPictureKeepsAFewPixelsAndDrawsTheButtonBack() throws {
        let painter = try cairoPainter(width: 800, height: 480)
        let rect = PixelRect(x: 40, y: 300, width: 200, height: 60)
        var canvas = Canvas(width: 800, height: 480)
        painter.paint([ChromeItem(rect, .button("Löschen", pressed: true))], into: &canvas)
        let picture = ButtonPicture(rect, of: canvas)
        #expect(picture.keptPixels < rect.area / 2, "\(picture.keptPixels) of \(rect.area)")
        var drawn = Canvas(width: 800, height: 480, fill: 0x123456)
        picture.draw(into: &drawn, at: (rect.minX, rect.minY))
        var mismatches = 0
        for y in 0..<480 {
            for x in 0..<800 {
                let expected = rect.contains(x: x, y: y) ? canvas[x, y] : 0x123456
                if drawn[x, y] & 0xFFFFFF != expected & 0xFFFFFF { mismatches += 1 }
            }
        }
        #expect(mismatches == 0)
    }
}
