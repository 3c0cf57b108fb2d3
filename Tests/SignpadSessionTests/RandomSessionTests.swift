import Foundation
import SignpadConfig
import SignpadExport
import SignpadKiosk
@testable import SignpadOutbox
@testable import SignpadSession
import SignpadTestSupport
import SignpadVocabulary
import Testing

/// A customer who does anything at all, in any order: signs in the box, starts outside it, taps
/// Clear and Done, erases with a pen's other end, rests a hand, leaves a finger down, pauses
/// past the idle timeout, pauses with the pen raised. What the kiosk promises holds whatever
/// they did: the next customer finds the panel as blank as a fresh one, and every signature
/// confirmed is written.
struct RandomCustomer {
    var random: SeededRandom
    let session: Session
    var now = 1.0
    /// Every export the kiosk handed out (seen after each event: only a tick finishes one).
    var confirmed: Set<Int> = []

    var layout: KioskLayout { session.kiosk.layout }

    mutating func point(in rect: PixelRect) -> Point {
        Point(Double.random(in: Double(rect.minX)..<Double(rect.maxX), using: &random),
              Double.random(in: Double(rect.minY)..<Double(rect.maxY), using: &random))
    }

    mutating func handle(_ event: StrokeEvent) {
        session.handle(event, device: "t", now: now)
        confirmed.formUnion(session.kiosk.pendingExports)
    }

    mutating func sample(_ p: Point, erasing: Bool = false) -> Sample {
        now += [0.004, 0.008, 0.02][Int.random(in: 0..<3, using: &random)]
        let screen = PixelRect(x: 0, y: 0, width: layout.width, height: layout.height)
        let clamped = Point(min(max(p.x, 0), Double(screen.maxX) - 0.01), min(max(p.y, 0), Double(screen.maxY) - 0.01))
        return Sample(clamped, time: now, erasing: erasing)
    }

    /// A stroke from `start`, wandering; ends lifted, cancelled, withdrawn (a resting hand taken
    /// back) or, when `leftDown`, not at all.
    mutating func stroke(from start: Point, erasing: Bool = false, leftDown: Bool = false) {
        var p = start
        handle(.down(sample(p, erasing: erasing)))
        for _ in 0..<Int.random(in: 0...30, using: &random) {
            p = Point(p.x + Double.random(in: -40...40, using: &random), p.y + Double.random(in: -25...25, using: &random))
            handle(.move(sample(p, erasing: erasing)))
        }
        guard !leftDown else { return }
        handle([.cancel, .withdraw, .up, .up, .up][Int.random(in: 0..<5, using: &random)])
    }

    mutating func tap(_ rect: PixelRect) {
        let p = point(in: rect)
        handle(.down(sample(p)))
        handle(.up)
    }

    mutating func act() {
        switch Int.random(in: 0..<10, using: &random) {
        case 0...2: stroke(from: point(in: layout.box))
        case 3: stroke(from: point(in: PixelRect(x: 0, y: 0, width: layout.width, height: layout.box.minY)))
        case 4: tap(layout.clearButton)
        case 5: tap(layout.doneButton)
        case 6: stroke(from: point(in: layout.box), erasing: true)
        case 7:
            // A finger left on the glass: the idle timeout lets it go, and it sends nothing more.
            stroke(from: point(in: layout.box), leftDown: true)
            now += session.kiosk.rules.idleTimeout + 0.5
            session.tick(now: now)
        case 8:
            // A pause with the pen raised, moving over the screen, for up to twice the idle timeout.
            let until = now + Double.random(in: 0...(2 * session.kiosk.rules.idleTimeout), using: &random)
            while now < until {
                session.penHovers(at: point(in: PixelRect(x: 0, y: 0, width: layout.width, height: layout.height)), now: now)
                now += Double.random(in: 0.01...5, using: &random)
                session.tick(now: now)
            }
        default:
            tap(PixelRect(x: 0, y: 0, width: layout.width, height: layout.height))
        }
        now += [0.05, 0.5, 3, session.kiosk.rules.idleTimeout + 1][Int.random(in: 0..<4, using: &random)]
        session.tick(now: now)
    }

    /// A contact left down at `place` (landing there unless `landed`) that keeps reporting moves of
    /// a pixel or two, until `until`; it lifts when `lifts`.
    mutating func jitter(at place: Point, until: Double, landed: Bool = false, lifts: Bool = true) {
        if !landed { handle(.down(sample(place))) }
        while now < until {
            handle(.move(sample(Point(place.x + Double.random(in: -2...2, using: &random), place.y + Double.random(in: -2...2, using: &random)))))
            now += Double.random(in: 0.01...0.5, using: &random)
            session.tick(now: now)
        }
        if lifts { handle(.up) }
    }

    /// A pen put down near the glass at `place`: it reports positions a pixel or two apart, and
    /// leaves and comes back into range, until `until`.
    mutating func penLying(at place: Point, until: Double) {
        while now < until {
            session.penHovers(at: Point(place.x + Double.random(in: -2...2, using: &random), place.y + Double.random(in: -2...2, using: &random)), now: now)
            now += Double.random(in: 0.01...5, using: &random)
            session.tick(now: now)
        }
    }

    /// Water on the glass at `place` making and breaking contact, every 0.1–5 s, until `until`.
    mutating func flicker(at place: Point, until: Double) {
        while now < until {
            handle(.down(sample(place)))
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                handle(.move(sample(Point(place.x + Double.random(in: -3...3, using: &random), place.y + Double.random(in: -3...3, using: &random)))))
            }
            handle(.up)
            now += Double.random(in: 0.1...5, using: &random)
            session.tick(now: now)
        }
    }
}

@Suite struct RandomSessionTests {
    @Test(arguments: 1...16)
    func whateverACustomerDoesTheNextFindsABlankPanelAndEveryConfirmedSignatureIsWritten(seed: UInt64) throws {
        let dir = scratch()
        defer { removeScratch(dir) }
        let exporter = Exporter(directory: dir, options: ExportOptions(), evidence: testEvidence, retrySeconds: 0.05)
        defer { exporter.stop() }
        let display = OffscreenDisplay(width: 800, height: 480)
        let session = try Session(SessionOptions(try quietConfig()), display: display, exporter: exporter, painter: cairoPainter)
        let fresh = try Session(SessionOptions(try quietConfig()), display: OffscreenDisplay(width: 800, height: 480), exporter: exporter, painter: cairoPainter)
        var customer = RandomCustomer(random: SeededRandom(state: seed), session: session)
        for _ in 0..<Int.random(in: 5...30, using: &customer.random) { customer.act() }

        // The customer walks away: the writes finish, "saved" shows and goes, the idle timeout
        // passes. A quarter of the time a drop of water they left flickers on the glass all the
        // while (a phantom's first contacts are taps like any, on a button too), a quarter of
        // the time a contact stays down and jitters, and a quarter of the time the pen they put
        // down lies near the glass.
        #expect(exporter.waitUntilIdle(timeout: 20))
        let rules = session.kiosk.rules
        let wait = rules.idleTimeout + rules.savedSeconds + rules.hintSeconds
        let place = customer.point(in: PixelRect(x: 0, y: 0, width: 800, height: 480))
        switch Int.random(in: 0..<4, using: &customer.random) {
        case 0:
            customer.flicker(at: place, until: customer.now + 3 * wait)
            #expect(exporter.waitUntilIdle(timeout: 20))
            customer.flicker(at: place, until: customer.now + rules.savedSeconds + rules.hintSeconds + 1)
        case 1:
            customer.jitter(at: place, until: customer.now + 3 * wait, lifts: false)
            #expect(exporter.waitUntilIdle(timeout: 20))
            customer.jitter(at: place, until: customer.now + rules.savedSeconds + rules.hintSeconds + 1, landed: true)
        case 2:
            // They sign a last stroke, put the pen down and go.
            customer.stroke(from: customer.point(in: customer.layout.box))
            customer.penLying(at: place, until: customer.now + 3 * wait)
        default:
            for _ in 0..<3 {
                customer.now += wait
                session.tick(now: customer.now)
            }
        }
        let differing = zip(session.renderer.canvas.pixels, fresh.renderer.canvas.pixels).filter { $0 & 0xFF_FFFF != $1 & 0xFF_FFFF }.count
        #expect(differing == 0, "seed \(seed): \(differing) pixels differ from a fresh panel")
        #expect(session.savedCount == customer.confirmed.count, "seed \(seed): \(customer.confirmed.count) confirmed, \(session.savedCount) written")
        // The folder is made by the first write.
        let metadata = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasSuffix(".meta.json") }
        #expect(metadata.count == customer.confirmed.count, "seed \(seed): \(metadata.count) metadata files")
        #expect(session.lastFailure == nil, "seed \(seed): \(session.lastFailure ?? "")")
    }
}
