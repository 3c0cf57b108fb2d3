import Dispatch
import SignpadConfig
import SignpadCrypto
import SignpadExport
import SignpadInk
import SignpadKiosk
import SignpadOutbox
import SignpadSession
import SignpadText
import SignpadVocabulary

/// The screen's moments beside the ink, on the daemon's own code and, where the peer does the
/// same, beside cairo's (the bench's (e)): a button pressed and let go, Clear with the recording's
/// signature on the screen, the whole frame drawn again with it, and start-up.
public struct ScreenMoments: Codable, Sendable {
    public struct Moment: Codable, Sendable {
        /// The median of the runs, in µs.
        public var microseconds: Double
        /// The peer's, the median of as many runs; nil where it has no such moment.
        public var peerMicroseconds: Double?
        /// Heap allocations, the most of any run; nil where not counted.
        public var allocations: Int?
    }

    /// Clear pressed and let go on a screen without ink: the button's feedback, both ways.
    public var buttonPress: Moment
    /// Clear pressed and let go with the signature on the screen, in the `Session`; the peer
    /// paints its images back to the background and copies the frame.
    public var clear: Moment
    /// The signature drawn again from nothing on a cleared frame, and the whole frame presented:
    /// signpad's renderer beside cairo's images.
    public var fullRedraw: Moment
    /// A `Session` made and its first frame presented, the text and shapes the painter draws set
    /// apart (they are cairo's and Pango's, the same for any renderer).
    public var startUp: Moment

    static let runs = 9

    /// Times every moment on `events` (the recording as the bench draws it) at `width`×`height`.
    public static func measure(_ events: [StrokeEvent], config: Config, width: Int, height: Int, painter: @escaping MakeScreenPainter,
                               counter: AllocationCounter?) throws -> ScreenMoments {
        let pieces = dryPieces(of: events, pen: config.ink.pen)
        let scene = try ScreenScene(config: config, width: width, height: height, painter: painter)
        var press: [Double] = [], clear: [Double] = []
        for _ in 0..<runs {
            press.append(clock { scene.pressClear() })
            scene.draw(events)
            clear.append(clock { scene.pressClear() })
        }
        var redraw: [Double] = [], peerClear: [Double] = [], peerRedraw: [Double] = []
        var ink = RendererFrame(width: width, height: height), peer = PeerFrame(width: width, height: height)
        for _ in 0..<runs {
            redraw.append(clock { ink.redraw(pieces) })
            peerRedraw.append(clock { peer.redraw(pieces) })
            peerClear.append(clock { peer.clear() })
        }
        var startUp: [Double] = []
        for _ in 0..<runs {
            let paint = PaintClock()
            let total = try ScreenScene.withParts(config: config, width: width, height: height) { display, exporter in
                var made: Session?
                let total = clock { made = try? Session(SessionOptions(config), display: display, exporter: exporter, painter: paint.wrapping(painter)) }
                guard made != nil else { throw ScreenMomentsFailure(description: "the session did not start at \(width)x\(height)") }
                return total
            }
            startUp.append(total - paint.microseconds)
        }
        let pressAllocations = try counter.map { try buttonPressAllocations(config: config, width: width, height: height, painter: painter, counter: $0) }
        return ScreenMoments(buttonPress: Moment(microseconds: median(press), allocations: pressAllocations),
                             clear: Moment(microseconds: median(clear), peerMicroseconds: median(peerClear)),
                             fullRedraw: Moment(microseconds: median(redraw), peerMicroseconds: median(peerRedraw)),
                             startUp: Moment(microseconds: median(startUp)))
    }

    /// The most heap allocations a press and release of Clear made, on a screen without ink, over
    /// `runs` of them from the session's first.
    public static func buttonPressAllocations(config: Config, width: Int, height: Int, painter: @escaping MakeScreenPainter,
                                              counter: AllocationCounter) throws -> Int {
        guard counter.seesAnAllocation() else { throw BlindCounter() }
        let scene = try ScreenScene(config: config, width: width, height: height, painter: painter)
        return (0..<runs).map { _ in counter.count { scene.pressClear() } }.max() ?? 0
    }

    /// Each moment once, after one untimed run of it, for `scripts/count-instructions` (callgrind
    /// counts the `InstructionCount` function of each).
    public static func replayOnce(_ events: [StrokeEvent], config: Config, width: Int, height: Int, painter: @escaping MakeScreenPainter) throws {
        let pieces = dryPieces(of: events, pen: config.ink.pen)
        _ = try ScreenScene(config: config, width: width, height: height, painter: painter)
        try ScreenScene.withParts(config: config, width: width, height: height) { display, exporter in
            let session = try InstructionCount.startUp {
                try Session(SessionOptions(config), display: display, exporter: exporter, painter: SetApartPainter.wrapping(painter))
            }
            withExtendedLifetime(session) {}
        }
        let scene = try ScreenScene(config: config, width: width, height: height, painter: painter)
        scene.pressClear()
        InstructionCount.buttonPress(scene)
        scene.draw(events)
        scene.pressClear()
        scene.draw(events)
        InstructionCount.clear(scene)
        var ink = RendererFrame(width: width, height: height), peer = PeerFrame(width: width, height: height)
        ink.redraw(pieces)
        InstructionCount.fullRedraw(&ink, pieces)
        peer.redraw(pieces)
        InstructionCount.peerFullRedraw(&peer, pieces)
        peer.clear()
        InstructionCount.peerClear(&peer)
    }

    /// The strokes' dry pieces as the smoother makes them, a withdrawn stroke's left out.
    static func dryPieces(of events: [StrokeEvent], pen: SmootherOptions) -> [InkPiece] {
        var smoother = MidpointSmoother(options: pen), pieces: [InkPiece] = [], strokeStart = 0
        for event in events {
            if case .down = event { strokeStart = pieces.count }
            pieces += smoother.handle(event).dry
            if event == .withdraw { pieces.removeSubrange(strokeStart...) }
        }
        return pieces
    }

    private static func clock(_ body: () -> Void) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1000
    }

    /// (d)'s costliest event (a take-back, most often) over a full redraw of the signature, from
    /// the same run: nil without (d)'s row.
    public func worstEventShare(of rows: [Bench.Row]) -> Double? {
        rows.first { $0.strategy == Bench.Strategy.signpad.rawValue }.map { $0.maxMicroseconds / Swift.max(fullRedraw.microseconds, 1e-9) }
    }

    /// The table's lines, each with its goal.
    public var lines: String {
        func ratio(_ m: Moment) -> String { m.peerMicroseconds.map { String(printf: ", cairo %.1f µs, ratio %.2f", $0, m.microseconds / Swift.max($0, 1e-9)) } ?? "" }
        var out = String(printf: "button pressed and let go: %.1f µs", buttonPress.microseconds)
        out += buttonPress.allocations.map { ", \($0) allocations [≤ 10]" } ?? ", allocations not counted"
        out += String(printf: "\nClear with the signature on the screen: %.1f µs", clear.microseconds) + ratio(clear) + " [≤ 1]"
        out += String(printf: "\nfull redraw of the signature: %.1f µs", fullRedraw.microseconds) + ratio(fullRedraw) + " [≤ 1]"
        out += String(printf: "\nstart-up without the painter's text and shapes: %.1f µs (median of %ld runs each)", startUp.microseconds, Self.runs)
        return out
    }
}

struct ScreenMomentsFailure: Error, CustomStringConvertible {
    var description: String
}

/// A `Session` as the daemon has it, driven by stroke events of its own device. Its exporter's
/// threads are stopped with it: left waiting, they would outlive the bench's own teardown.
final class ScreenScene {
    let session: Session
    let clearAt: Point
    /// Clears pressed with ink on the screen.
    var inkCleared = 0
    /// The process's threads before the scene's exporter started its own.
    private let threadsBefore: Int

    init(config: Config, width: Int, height: Int, painter: MakeScreenPainter) throws {
        threadsBefore = ProcessThreads.ids.count
        let (display, exporter) = try Self.parts(config: config, width: width, height: height)
        do {
            let running = ProcessThreads.ids.count
            session = try Session(SessionOptions(config), display: display, exporter: exporter, painter: painter)
            ProcessThreads.wait(untilAtMost: running)
        } catch {
            exporter.stop()
            ProcessThreads.wait(untilAtMost: threadsBefore)
            throw error
        }
        let button = session.kiosk.layout.clearButton
        clearAt = Point(Double(button.minX + button.width / 2), Double(button.minY + button.height / 2))
    }

    deinit {
        session.exporter.stop()
        ProcessThreads.wait(untilAtMost: threadsBefore)
    }

    /// What a `Session` is made with, for `body`: start-up counts from there. The exporter is
    /// stopped when `body` returns.
    static func withParts<T>(config: Config, width: Int, height: Int, _ body: (OffscreenDisplay, Exporter) throws -> T) throws -> T {
        let threads = ProcessThreads.ids.count
        let (display, exporter) = try parts(config: config, width: width, height: height)
        defer {
            exporter.stop()
            ProcessThreads.wait(untilAtMost: threads)
        }
        return try body(display, exporter)
    }

    private static func parts(config: Config, width: Int, height: Int) throws -> (display: OffscreenDisplay, exporter: Exporter) {
        let display = OffscreenDisplay(width: width, height: height, rotation: config.display.rotation)
        // Never written: Done is not pressed.
        let exporter = Exporter(directory: "/nonexistent/signpad-bench", options: config.export, evidence: Evidence(signingKey: try SigningKey.generate()),
                                retrySeconds: 3600)
        return (display, exporter)
    }

    func draw(_ events: [StrokeEvent]) {
        for event in events { session.handle(event, device: "bench", now: now(event)) }
    }

    func pressClear() {
        session.handle(.down(Sample(clearAt, time: 0)), device: "bench", now: 0)
        session.handle(.up, device: "bench", now: 0)
    }

    private func now(_ event: StrokeEvent) -> Double {
        switch event {
        case .down(let s), .move(let s): s.time
        case .up, .cancel, .withdraw: 0
        }
    }
}

/// signpad's renderer drawing the signature again on a cleared frame, and presenting all of it.
struct RendererFrame {
    var renderer: InkRenderer
    let display: OffscreenDisplay
    let frame: DirtyRegion
    var dirty = DirtyRegion()

    init(width: Int, height: Int) {
        renderer = InkRenderer(width: width, height: height)
        display = OffscreenDisplay(width: width, height: height)
        frame = DirtyRegion([PixelRect(x: 0, y: 0, width: width, height: height)])
    }

    mutating func redraw(_ pieces: [InkPiece]) {
        dirty.removeAll()
        renderer.clearInk(dirty: &dirty)
        for piece in pieces { renderer.drawDry(piece, dirty: &dirty) }
        renderer.present(frame, on: display)
    }
}

/// The peer's: cairo's images, and the canvas it copies them into for the display.
struct PeerFrame {
    let cairo: CairoInk
    var canvas: Canvas
    let display: OffscreenDisplay
    let frame: DirtyRegion

    init(width: Int, height: Int) {
        cairo = CairoInk(width: width, height: height)
        canvas = Canvas(width: width, height: height)
        display = OffscreenDisplay(width: width, height: height)
        frame = DirtyRegion([PixelRect(x: 0, y: 0, width: width, height: height)])
    }

    mutating func clear() {
        cairo.copy(cairo.clear(), into: &canvas)
        display.present(canvas, dirty: frame)
    }

    mutating func redraw(_ pieces: [InkPiece]) {
        _ = cairo.clear()
        for piece in pieces { _ = cairo.strokeDry(piece) }
        cairo.copy(cairo.showDry(), into: &canvas)
        display.present(canvas, dirty: frame)
    }
}

/// The time a painter spent painting, to set it apart from start-up's.
final class PaintClock {
    var microseconds = 0.0

    func wrapping(_ make: @escaping MakeScreenPainter) -> MakeScreenPainter {
        { [self] width, height in ClockedPainter(inner: try make(width, height), clock: self) }
    }
}

private struct ClockedPainter: ScreenPainter {
    let inner: any ScreenPainter
    let clock: PaintClock

    func paint(_ items: [ChromeItem], into canvas: inout Canvas, within rects: [PixelRect]) {
        let start = DispatchTime.now().uptimeNanoseconds
        inner.paint(items, into: &canvas, within: rects)
        clock.microseconds += Double(DispatchTime.now().uptimeNanoseconds - start) / 1000
    }

    func textRows(_ text: String, width: Int, size: Double) -> Int { inner.textRows(text, width: width, size: size) }
}

/// A painter whose painting callgrind sets apart from start-up (`InstructionCount.screenPaint`).
struct SetApartPainter: ScreenPainter {
    let inner: any ScreenPainter

    static func wrapping(_ make: @escaping MakeScreenPainter) -> MakeScreenPainter {
        { width, height in SetApartPainter(inner: try make(width, height)) }
    }

    func paint(_ items: [ChromeItem], into canvas: inout Canvas, within rects: [PixelRect]) {
        InstructionCount.screenPaint(inner, items, &canvas, rects)
    }

    func textRows(_ text: String, width: Int, size: Double) -> Int { inner.textRows(text, width: width, size: size) }
}
