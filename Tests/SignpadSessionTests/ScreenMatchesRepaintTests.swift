import Foundation
import SignpadConfig
import SignpadExport
import SignpadInk
import SignpadKiosk
import SignpadOutbox
@testable import SignpadSession
import SignpadTestSupport
import SignpadText
import SignpadVocabulary
import Testing

/// Whatever a customer and a point of sale do, the screen is what the painter paints for the
/// kiosk as it is, with the signature's dry ink over it, drawn again from its samples: the
/// buttons drawn from their pictures, the chrome repainted in parts, the ink taken back from the
/// kept pieces and the screen's furniture changing under ink must add up to a clean repaint.
@Suite struct ScreenMatchesRepaintTests {
    /// The clean repaint: the painter's whole screen, and every stroke smoothed anew over it.
    static func repainted(_ session: Session, painter: any ScreenPainter) -> Canvas {
        var canvas = Canvas(width: session.renderer.canvas.width, height: session.renderer.canvas.height)
        painter.paint(KioskScreen.items(kiosk: session.kiosk, labels: session.options.kiosk.labels, style: session.options.kiosk.style), into: &canvas)
        var renderer = InkRenderer(background: canvas, inkColor: session.options.ink.color, clip: session.kiosk.layout.box.insetBy(2))
        var smoother = MidpointSmoother(options: session.options.ink.pen)
        var dirty = DirtyRegion()
        for stroke in session.kiosk.signature.strokes {
            for (i, sample) in stroke.enumerated() {
                for piece in smoother.handle(i == 0 ? .down(sample) : .move(sample)).dry { renderer.drawDry(piece, dirty: &dirty) }
            }
            for piece in smoother.handle(.up).dry { renderer.drawDry(piece, dirty: &dirty) }
        }
        return renderer.canvas
    }

    /// A brand image with a pattern, so that a button's picture holds the image at its corners.
    static func brandImage() throws -> String {
        let path = NSTemporaryDirectory() + "signpad-brand-\(UUID().uuidString).png"
        try Data(PNGEncoder.encode(width: 40, height: 24, channels: .rgb) { x, y in (x + y) % 5 == 0 ? 0x2060A0 : 0xF0F4F8 })
            .write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(arguments: 1...6)
    func theScreenIsACleanRepaintAfterEveryStep(seed: UInt64) throws {
        let folder = scratch()
        defer { removeScratch(folder) }
        let exporter = Exporter(directory: folder, options: ExportOptions(), evidence: testEvidence, retrySeconds: 0.05)
        defer { exporter.stop() }
        let image = seed % 2 == 0 ? nil : try Self.brandImage()
        defer { if let image { try? FileManager.default.removeItem(atPath: image) } }
        let painter = try ChromePainter(style: KioskStyle(), backgroundImage: image, width: 800, height: 480)
        let session = try Session(SessionOptions(try quietConfig(["kiosk.decline_label=\"Decline\""])), display: OffscreenDisplay(width: 800, height: 480),
                                  exporter: exporter, painter: { _, _ in painter })
        var customer = RandomCustomer(random: SeededRandom(state: seed), session: session)
        var done: [String] = []
        for step in 0..<60 {
            switch Int.random(in: 0..<16, using: &customer.random) {
            case 0..<9:
                customer.act()
                done.append("act")
            case 9:
                if let undo = session.kiosk.layout.undoButton { customer.tap(undo) }
                done.append("undo")
            case 10:
                let lines = (0..<Int.random(in: 0...3, using: &customer.random)).map { "line \($0) of the request" }
                session.beginRequest(id: "r\(step)", context: SignatureRequest(reference: "ref\(step)", title: "Please sign", lines: lines),
                                     timeout: 1000, now: customer.now)
                done.append("request with \(lines.count) lines")
            case 11:
                session.cancelRequest(now: customer.now)
                done.append("cancel")
            case 12:
                // A button held, slid off it, back on and off again, and let go beside it.
                let buttons = session.kiosk.layout.buttons
                let rect = buttons[Int.random(in: 0..<buttons.count, using: &customer.random)].rect
                let centre = Point(Double(rect.minX + rect.width / 2), Double(rect.minY + rect.height / 2)), off = Point(centre.x, Double(rect.minY - 30))
                customer.handle(.down(customer.sample(centre)))
                for point in [off, centre, off] { customer.handle(.move(customer.sample(point))) }
                customer.handle(.up)
                done.append("slide")
            case 13:
                // A stroke during which a message comes or goes.
                var point = customer.point(in: session.kiosk.layout.box)
                customer.handle(.down(customer.sample(point)))
                for k in 0..<12 {
                    point = Point(min(max(point.x + 9, 0), 790), point.y + (k % 2 == 0 ? 7 : -7))
                    customer.handle(.move(customer.sample(point)))
                    if k == 5 {
                        customer.now += 4
                        session.tick(now: customer.now)
                    }
                }
                customer.handle(.up)
                done.append("stroke over a tick")
            default:
                customer.now += Double.random(in: 0...5, using: &customer.random)
                session.tick(now: customer.now)
                done.append("tick")
            }
            customer.now += 0.5
            session.tick(now: customer.now)
            let wrong = differing(session.renderer.canvas, Self.repainted(session, painter: painter))
            #expect(wrong == 0, "seed \(seed), step \(step): \(wrong) pixels differ after \(done.suffix(4))")
            if wrong != 0 { return }
        }
    }
}
