import Dispatch
import FoundationEssentials
import Glibc
import SignpadConfig
import SignpadCrypto
import SignpadExport
import SignpadInk
import SignpadInput
import SignpadKiosk
import SignpadOutbox
import SignpadSession
import SignpadText
import SignpadVocabulary

/// `signpad bench`: the same recording through five ways of drawing ink, one run, one table:
/// signpad's (d) beside the ladder it climbed (a to c) and a peer written with cairo (e).
public struct Bench {
    public enum Strategy: String, CaseIterable, Sendable {
        case naive = "a naive"
        case backingStore = "b backing store"
        case backingStoreDirty = "c backing+dirty"
        case signpad = "d signpad"
        case cairo = "e cairo"
    }

    public struct Row: Codable, Sendable {
        public var strategy: String
        public var events: Int
        public var p50Microseconds: Double
        public var p99Microseconds: Double
        public var meanMicroseconds: Double
        /// The costliest event: a spike a customer may see, which p99 hides.
        public var maxMicroseconds: Double
        /// The first event of the untimed warm-up: running cold, as a daemon's first touch does.
        public var coldFirstEventMicroseconds: Double
        public var bytesPerEvent: Double
        public var framePercent: Double
        public var p99RatioToSignpad: Double
        public var bytesRatioToSignpad: Double
        public var meanInkLag: Double
        public var maxInkLag: Int
        /// Pixels whose coverage signpad's rasteriser computed per event: work that is the same
        /// on any machine. Nil for cairo's strategy, whose rasteriser does not say.
        public var rasterisedMeanPixels: Double?
        public var rasterisedMaxPixels: Int?
        /// The most kept pieces one event drew again (a take-back redrawing what its clearing
        /// uncovered; no sample is smoothed again): signpad's strategy only, as the others redraw everything.
        public var redrawnMaxPieces: Int?
    }

    public let events: [StrokeEvent]
    /// Where every strategy presents: an `OffscreenDisplay`, or the panel itself (`signpad bench
    /// --on-screen`), where a full-frame copy goes to the scanout buffer as it does in a kiosk.
    public let display: Display
    public let pen: SmootherOptions
    /// Asked between events, outside the timing: true ends the run early (on the panel, a signal
    /// must not end the process while it holds the screen).
    public var shouldStop: () -> Bool = { false }

    public init(events: [StrokeEvent], display: Display, pen: SmootherOptions = SmootherOptions()) {
        self.events = events
        self.display = display
        self.pen = pen
    }

    /// The bench of `recording` as a kiosk with `input` draws it on `display`: calibrated,
    /// flipped and turned by the one `InputDeviceSetup` the daemon uses.
    public init(recording: EvemuRecording, input: InputOptions, display: Display, pen: SmootherOptions = SmootherOptions()) throws(UnusableDeviceError) {
        let setup = InputDeviceSetup(options: input, scanout: display.scanout)
        self.init(events: try setup.strokeEvents(of: recording).map(\.event), display: display, pen: pen)
    }

    public func run() -> [Row] {
        var rows = Strategy.allCases.map { measure($0) }
        let reference = rows.first { $0.strategy == Strategy.signpad.rawValue }!
        for i in rows.indices {
            rows[i].p99RatioToSignpad = rows[i].p99Microseconds / max(reference.p99Microseconds, 1e-9)
            rows[i].bytesRatioToSignpad = rows[i].bytesPerEvent / max(reference.bytesPerEvent, 1e-9)
        }
        return rows
    }

    /// Replays the recording's first stroke (at most `warmUpEvents` events) untimed, on a canvas
    /// of its own, and returns the cost of its first event. A daemon runs each code path cold
    /// once, at its first touch; the table measures drawing, so it starts warm, and the cold
    /// figure is shown apart. The timed canvas is allocated afterwards, so its memory is as cold as before.
    private func warmUp(_ strategy: Strategy) -> Double {
        var pass = Pass(strategy: strategy, display: display, pen: pen)
        var firstCost = 0.0
        for (index, event) in events.prefix(Self.warmUpEvents).enumerated() {
            if shouldStop() { break }
            let cost = pass.handle(event).cost
            if index == 0 { firstCost = cost }
            if event.endsStroke { break }
        }
        return firstCost
    }

    private static let warmUpEvents = 64

    private func measure(_ strategy: Strategy) -> Row {
        let coldFirstEvent = warmUp(strategy)
        var pass = Pass(strategy: strategy, display: display, pen: pen)
        // As in a kiosk that has drawn for a while: its levels' pages are mapped (not cached).
        pass.renderer.makeLevelsResident()
        var costs: [Double] = []
        costs.reserveCapacity(events.count)
        var lagTotal = 0, lagMax = 0, rasterisedMax = 0, redrawnMax = 0
        for event in events {
            if shouldStop() { break }
            let before = pass.renderer.pixelsRasterised
            pass.redrawn = 0
            let (cost, lag) = pass.handle(event)
            costs.append(cost)
            lagTotal += lag
            lagMax = max(lagMax, lag)
            rasterisedMax = max(rasterisedMax, pass.renderer.pixelsRasterised - before)
            redrawnMax = max(redrawnMax, pass.redrawn)
        }
        costs.sort()
        func percentile(_ p: Double) -> Double { costs.isEmpty ? 0 : costs[min(Int(Double(costs.count) * p), costs.count - 1)] }
        let bytes = Double(pass.bytesCopied) / Double(max(events.count, 1))
        let frameBytes = Double(display.scanout.width * display.scanout.height * 4)
        return Row(strategy: strategy.rawValue, events: events.count, p50Microseconds: percentile(0.5), p99Microseconds: percentile(0.99),
                   meanMicroseconds: costs.isEmpty ? 0 : costs.reduce(0, +) / Double(costs.count), maxMicroseconds: costs.last ?? 0,
                   coldFirstEventMicroseconds: coldFirstEvent,
                   bytesPerEvent: bytes, framePercent: 100 * bytes / frameBytes, p99RatioToSignpad: 0,
                   bytesRatioToSignpad: 0, meanInkLag: Double(lagTotal) / Double(max(events.count, 1)), maxInkLag: lagMax,
                   rasterisedMeanPixels: strategy == .cairo ? nil : Double(pass.renderer.pixelsRasterised) / Double(max(events.count, 1)),
                   rasterisedMaxPixels: strategy == .cairo ? nil : rasterisedMax,
                   redrawnMaxPieces: strategy == .signpad ? redrawnMax : nil)
    }

    /// The peer (e) drawing every event once, untimed and with no warm-up, for
    /// `scripts/count-instructions`: callgrind counts `InstructionCount.peerEvent`, one call per
    /// event. Returns the events.
    public func replayPeerOnce() -> Int {
        var pass = Pass(strategy: .cairo, display: display, pen: pen)
        for event in events { InstructionCount.peerEvent(&pass, event) }
        return events.count
    }

    /// `screen` names where it drew, e.g. "1920x1080 offscreen".
    public static func table(_ rows: [Row], recording: String, screen: String) -> String {
        var out = "signpad bench: \(recording) on \(screen), \(rows.first?.events ?? 0) events, one run\n"
        out += "strategy          p50 µs    p99 µs    max µs   bytes/event  % frame  p99/(d)  bytes/(d)  lag mean  lag max\n"
        for r in rows {
            out += r.strategy.padded(to: 16)
            out += String(printf: " %8.1f  %8.1f  %8.1f  %12.0f  %7.3f  %7.1f  %9.1f  %8.2f  %7ld\n", r.p50Microseconds, r.p99Microseconds, r.maxMicroseconds,
                          r.bytesPerEvent, r.framePercent, r.p99RatioToSignpad, r.bytesRatioToSignpad, r.meanInkLag, r.maxInkLag)
        }
        if let d = rows.first(where: { $0.strategy == Strategy.signpad.rawValue }), let e = rows.first(where: { $0.strategy == Strategy.cairo.rawValue }) {
            out += String(printf: "(d)/(e): mean %.2f [≤ 0.2], p50 %.2f, p99 %.2f, max %.2f; (d) bytes/event = %.3f%% of a frame [≤ 0.5%%]; (d) ink lag max %ld [0]\n",
                          d.meanMicroseconds / max(e.meanMicroseconds, 1e-9), d.p50Microseconds / max(e.p50Microseconds, 1e-9),
                          d.p99Microseconds / max(e.p99Microseconds, 1e-9), d.maxMicroseconds / max(e.maxMicroseconds, 1e-9), d.framePercent, d.maxInkLag)
        }
        out += "pixels rasterised per event, mean / max: "
        out += rows.compactMap { r in r.rasterisedMeanPixels.map { "\(r.strategy.prefix(1)) " + String(printf: "%.0f / %ld", $0, r.rasterisedMaxPixels ?? 0) } }
            .joined(separator: ", ") + "\n"
        if let most = rows.first(where: { $0.strategy == Strategy.signpad.rawValue })?.redrawnMaxPieces {
            out += "(d) pieces drawn again by one event (a take-back; no sample is smoothed again), max: \(most)\n"
        }
        out += "cold first event (untimed warm-up, not in the table): "
        out += rows.map { "\($0.strategy.prefix(1)) " + String(printf: "%.1f µs", $0.coldFirstEventMicroseconds) }.joined(separator: ", ") + "\n"
        return out
    }
}

/// One strategy drawing a recording event by event on its own canvas and display.
private struct Pass {
    let strategy: Bench.Strategy
    var renderer: InkRenderer
    let display: Display
    let frame: DirtyRegion
    var smoother: MidpointSmoother
    /// (d)'s: each stroke's pieces and reach, as the daemon keeps them.
    var kept = KeptInk()
    let pen: SmootherOptions
    var allDry: [InkPiece] = []
    /// Where the stroke being drawn starts in `allDry`: a withdrawn stroke's ink is taken back.
    var strokeStart = 0
    var dirty = DirtyRegion()
    /// Kept pieces drawn again by the event being handled.
    var redrawn = 0
    /// (e): cairo's images, and the canvas it copies its changes into for the display.
    let cairo: CairoInk?
    var cairoCanvas: Canvas
    private let bytesBefore: Int

    init(strategy: Bench.Strategy, display: Display, pen: SmootherOptions) {
        self.strategy = strategy
        let width = display.scanout.logicalWidth, height = display.scanout.logicalHeight
        renderer = InkRenderer(width: width, height: height)
        self.display = display
        frame = DirtyRegion([PixelRect(x: 0, y: 0, width: width, height: height)])
        smoother = MidpointSmoother(options: pen)
        self.pen = pen
        cairo = strategy == .cairo ? CairoInk(width: width, height: height) : nil
        cairoCanvas = Canvas(width: strategy == .cairo ? width : 1, height: strategy == .cairo ? height : 1)
        bytesBefore = display.bytesCopied
    }

    /// Bytes this pass copied to the screen; the display is shared with the other passes. Each
    /// pass draws the same strokes in the same places, so on a panel nothing stale shows.
    var bytesCopied: Int { display.bytesCopied - bytesBefore }

    /// Draws one event; returns its cost in µs and the ink lag after it.
    mutating func handle(_ event: StrokeEvent) -> (cost: Double, lag: Int) {
        let start = DispatchTime.now().uptimeNanoseconds
        dirty.removeAll()
        var step = smoother.handle(event)
        switch event {
        case .down(let s):
            strokeStart = allDry.count
            kept.beginStroke()
            kept.reach(s.point)
        case .move(let s):
            kept.reach(s.point)
        case .up, .cancel, .withdraw: break
        }
        kept.add(step.dry)
        if event == .withdraw {
            takeBack()
        } else {
            draw(&step)
        }
        let cost = Double(DispatchTime.now().uptimeNanoseconds - start) / 1000
        switch event {
        case .down(let s), .move(let s):
            let drawnEnd = step.wet.last?.point ?? step.dry.last?.endPoint
            return (cost, drawnEnd == s.point ? 0 : max(smoother.samplesBehindDryInk, 1))
        case .up, .cancel, .withdraw:
            return (cost, 0)
        }
    }

    /// A withdrawn stroke's ink taken back as each strategy would: (a) re-strokes what is left,
    /// (b) and (c) rebuild their bitmap from what is left, (d) clears where the stroke reached and
    /// draws again the kept pieces that meet it, as the daemon does.
    private mutating func takeBack() {
        allDry.removeSubrange(strokeStart...)
        switch strategy {
        case .naive, .backingStore, .backingStoreDirty:
            renderer.clearInk(dirty: &dirty)
            for piece in allDry { renderer.drawDry(piece, dirty: &dirty) }
            renderer.present(strategy == .backingStoreDirty ? dirty : frame, on: display)
        case .cairo:
            _ = cairo!.clear()
            for piece in allDry { _ = cairo!.strokeDry(piece) }
            cairo!.copy(cairo!.showDry(), into: &cairoCanvas)
            display.present(cairoCanvas, dirty: frame)
        case .signpad:
            let margin = pen.width.maximum + 2
            if let reach = kept.removeLastStroke().rect(margin: margin) {
                let cleared = renderer.clearInk(in: reach, dirty: &dirty)
                if !cleared.isEmpty {
                    kept.forEachPiece(meeting: cleared, margin: margin) {
                        renderer.redrawDry($0, within: cleared, dirty: &dirty)
                        redrawn += 1
                    }
                }
            }
            renderer.present(dirty, on: display)
        }
    }

    private mutating func draw(_ step: inout SmootherStep) {
        allDry.append(contentsOf: step.dry)
        switch strategy {
        case .naive:
            // Re-stroke the whole path from nothing and send the whole frame.
            renderer.clearInk(dirty: &dirty)
            for piece in allDry { renderer.drawDry(piece, dirty: &dirty) }
            var wetOnly = SmootherStep()
            wetOnly.wet = step.wet
            renderer.apply(wetOnly, dirty: &dirty)
            renderer.present(frame, on: display)
        case .backingStore, .backingStoreDirty:
            // Only final curves go into the cached bitmap: no wet tail.
            step.wet = WetPath()
            renderer.apply(step, dirty: &dirty)
            renderer.present(strategy == .backingStore ? frame : dirty, on: display)
        case .signpad:
            renderer.apply(step, dirty: &dirty)
            renderer.present(dirty, on: display)
        case .cairo:
            let changed = cairo!.apply(step)
            cairo!.copy(changed, into: &cairoCanvas)
            if !changed.isEmpty { dirty.add(changed) }
            display.present(cairoCanvas, dirty: dirty)
        }
    }
}

/// The functions `scripts/count-instructions` has callgrind count (`--toggle-collect`): each is
/// one event, never inlined, so its name stays in an optimised build.
enum InstructionCount {
    @inline(never) fileprivate static func peerEvent(_ pass: inout Pass, _ event: StrokeEvent) { _ = pass.handle(event) }
    @inline(never) static func liveEvent(_ session: Session, _ event: InputEvent, _ device: Int, _ now: Double) { session.feed(event, from: device, now: now) }
    // The screen's moments (`ScreenMoments.replayOnce`); callgrind gives each one's inclusive cost.
    @inline(never) static func startUp(_ make: () throws -> Session) rethrows -> Session { try make() }
    @inline(never) static func screenPaint(_ painter: any ScreenPainter, _ items: [ChromeItem], _ canvas: inout Canvas, _ rects: [PixelRect]) {
        painter.paint(items, into: &canvas, within: rects)
    }
    @inline(never) static func buttonPress(_ scene: ScreenScene) { scene.pressClear() }
    @inline(never) static func clear(_ scene: ScreenScene) {
        scene.pressClear()
        // Not the same code as `buttonPress`, which the optimiser would otherwise merge with it.
        scene.inkCleared += 1
    }
    @inline(never) static func fullRedraw(_ frame: inout RendererFrame, _ pieces: [InkPiece]) { frame.redraw(pieces) }
    @inline(never) static func peerFullRedraw(_ frame: inout PeerFrame, _ pieces: [InkPiece]) { frame.redraw(pieces) }
    @inline(never) static func peerClear(_ frame: inout PeerFrame) { frame.clear() }
}

/// A recording's raw events through a `Session` offscreen, as `signpad run` has it: the input
/// pipeline, the kiosk, the smoother, the renderer and the display.
public enum LivePath {
    /// Feeds every event, each inside `around`, after the loop's `tick` once a frame: the daemon
    /// ticks once per turn of its loop, after the frames it read, and the timers' work and the
    /// room the kiosk reserves are the loop's, not an input event's.
    /// `residentLevels`: the ink's levels are mapped from the start, as in a kiosk that has drawn
    /// for a while (its pages stay mapped across Clear and from one request to the next); else
    /// they are mapped as ink first reaches them, as in a daemon's first signature. Returns the
    /// events fed.
    static func replay(_ recording: EvemuRecording, config: Config, width: Int, height: Int, painter: MakeScreenPainter,
                       residentLevels: Bool, around: (Int, InputEvent, () -> Void) -> Void) throws -> Int {
        let display = OffscreenDisplay(width: width, height: height, rotation: config.display.rotation)
        let threads = ProcessThreads.ids.count
        // Never written: a recording that taps Done hands its signature to the export thread, which is not counted.
        let exporter = Exporter(directory: "/nonexistent/signpad-bench", options: config.export, evidence: Evidence(signingKey: try SigningKey.generate()),
                                retrySeconds: 3600)
        defer {
            exporter.stop()
            ProcessThreads.wait(untilAtMost: threads)
        }
        let running = ProcessThreads.ids.count
        let session = try Session(SessionOptions(config), display: display, exporter: exporter, painter: painter)
        ProcessThreads.wait(untilAtMost: running)
        if residentLevels { session.makeInkLevelsResident() }
        let decoder = try session.inputSetup.decoder(for: recording.device)
        let kind = decoder.kind
        let device = session.addInput(path: recording.device.name, name: recording.device.name, kind: kind, decoder: consume decoder)
        var frameBegins = true
        for (index, event) in recording.events.enumerated() {
            let now = event.seconds
            if frameBegins { session.tick(now: now) }
            frameBegins = event.endsFrame
            around(index, event) { InstructionCount.liveEvent(session, event, device, now) }
        }
        return recording.events.count
    }

    /// The live path's time on a recording: its raw events fed a frame at a time, as the daemon
    /// reads them, each frame timed, after an untimed pass that warms the code, as the table's
    /// strategies have. Twice: a fresh session, whose ink maps the levels' pages it reaches, as
    /// in a daemon's first signature; then as a running kiosk is, its levels mapped as the
    /// table's (d) has them. `strokeEvents`: the bench's count, to set it beside the strategies,
    /// which draw per stroke event.
    public static func time(_ recording: EvemuRecording, config: Config, width: Int, height: Int, painter: MakeScreenPainter, strokeEvents: Int) throws -> LivePathTime {
        _ = try replay(recording, config: config, width: width, height: height, painter: painter, residentLevels: false) { _, _, feed in feed() }
        let first = try timeFrames(recording, config: config, width: width, height: height, painter: painter, residentLevels: false)
        let warm = try timeFrames(recording, config: config, width: width, height: height, painter: painter, residentLevels: true)
        return LivePathTime(rawEvents: recording.events.count, strokeEvents: strokeEvents, frames: warm.frames, totalMicroseconds: warm.total, maxFrameMicroseconds: warm.most,
                            pageFaults: warm.faults, firstSignatureMicroseconds: first.total, firstSignaturePageFaults: first.faults)
    }

    /// One replay timed a frame at a time, with the page faults its frames took (counted outside the timing).
    private static func timeFrames(_ recording: EvemuRecording, config: Config, width: Int, height: Int, painter: MakeScreenPainter,
                                   residentLevels: Bool) throws -> (total: Double, most: Double, frames: Int, faults: Int) {
        var total: UInt64 = 0, most: UInt64 = 0, frames = 0, start: UInt64 = 0, faults = 0, faultsBefore = 0
        _ = try replay(recording, config: config, width: width, height: height, painter: painter, residentLevels: residentLevels) { index, event, feed in
            let first = index == 0 || recording.events[index - 1].endsFrame
            if first {
                faultsBefore = PageFaults.count
                start = DispatchTime.now().uptimeNanoseconds
            }
            feed()
            guard event.endsFrame || index == recording.events.count - 1 else { return }
            let spent = DispatchTime.now().uptimeNanoseconds - start
            faults += PageFaults.count - faultsBefore
            total += spent
            most = Swift.max(most, spent)
            frames += 1
        }
        return (Double(total) / 1000, Double(most) / 1000, frames, faults)
    }

    /// Every raw event once through the live path, for `scripts/count-instructions`.
    public static func replayOnce(_ recording: EvemuRecording, config: Config, width: Int, height: Int, painter: MakeScreenPainter) throws -> Int {
        try replay(recording, config: config, width: width, height: height, painter: painter, residentLevels: true) { _, _, feed in feed() }
    }
}

/// `LivePath.time`: the whole live path's time on one recording, beside the strategies'.
public struct LivePathTime: Codable, Sendable {
    public var rawEvents: Int
    public var strokeEvents: Int
    /// The frames timed: the raw events up to each SYN_REPORT, fed together as the daemon reads them.
    public var frames: Int
    public var totalMicroseconds: Double
    /// The costliest frame.
    public var maxFrameMicroseconds: Double
    /// Page faults while the frames ran: none where the ink's levels are mapped.
    public var pageFaults: Int
    /// The same recording as a fresh session's first signature, its code warm: its ink maps the
    /// levels' pages it reaches.
    public var firstSignatureMicroseconds: Double
    /// The page faults that pass took: the levels' pages its ink mapped.
    public var firstSignaturePageFaults: Int
    /// Per stroke event, as the strategies' rows count.
    public var meanMicroseconds: Double { totalMicroseconds / Double(Swift.max(strokeEvents, 1)) }
    public var firstSignatureMeanMicroseconds: Double { firstSignatureMicroseconds / Double(Swift.max(strokeEvents, 1)) }

    /// The table's line: the mean against (e)'s, whose goal is at most 0.25.
    public func line(peerMeanMicroseconds: Double?) -> String {
        var line = String(printf: "live path (f: every raw event through the daemon's Session, %ld raw in %ld frames for %ld stroke events): mean %.1f µs per stroke event, max %.1f µs per frame",
                          rawEvents, frames, strokeEvents, meanMicroseconds, maxFrameMicroseconds)
        if let peer = peerMeanMicroseconds { line += String(printf: "; (f)/(e) mean %.2f [≤ 0.25]", meanMicroseconds / Swift.max(peer, 1e-9)) }
        line += String(printf: "\n  a fresh session's first signature (code warm): mean %.1f µs per stroke event, %ld page faults mapping the ink's levels (none once mapped: %ld)",
                       firstSignatureMeanMicroseconds, firstSignaturePageFaults, pageFaults)
        return line
    }
}

/// The page faults the calling thread has taken (getrusage's minor and major): not those of
/// the exporter's or Pango's threads.
enum PageFaults {
    static var count: Int {
        var usage = rusage()
        // RUSAGE_THREAD, which Glibc's Swift overlay leaves out (it is _GNU_SOURCE's).
        guard getrusage(1, &usage) == 0 else { return 0 }
        return usage.ru_minflt + usage.ru_majflt
    }
}

/// Heap allocations per raw input event on the daemon's whole path: the input pipeline, the
/// kiosk, the smoother, the renderer and the display, in a `Session` as `signpad run` has it.
public struct LivePathAllocations: Codable, Sendable {
    public var events: Int
    public var mean: Double
    public var max: Int
    /// The events that allocated, with how often: at most the first ten, for whoever makes it 0 again.
    public var firstAllocating: [String]

    public static func measure(_ recording: EvemuRecording, config: Config, width: Int, height: Int,
                               painter: MakeScreenPainter, counter: AllocationCounter) throws -> LivePathAllocations {
        guard counter.seesAnAllocation() else { throw BlindCounter() }
        var total = 0, most = 0, first: [String] = []
        _ = try LivePath.replay(recording, config: config, width: width, height: height, painter: painter, residentLevels: true) { index, event, feed in
            let allocations = counter.count(feed)
            total += allocations
            most = Swift.max(most, allocations)
            if allocations > 0 && first.count < 10 { first.append("event \(index) (\(event)): \(allocations)") }
        }
        return LivePathAllocations(events: recording.events.count, mean: Double(total) / Double(Swift.max(recording.events.count, 1)),
                                   max: most, firstAllocating: first)
    }
}

/// The preloaded interposer counted none of an allocation made to check it.
public struct BlindCounter: Error, CustomStringConvertible {
    public var description: String {
        "\(AllocationCounter.libraryName) is loaded but counted no allocation where one was made: allocations per event cannot be measured with it (is it ordo-one's malloc-interposer, built with this signpad?)"
    }
}

extension LivePathAllocations {
    /// The table's line for it; without the counter, how to get one.
    public static func line(_ figures: LivePathAllocations?, library: String) -> String {
        guard let figures else {
            return "allocations per input event: not counted (no \(library) beside signpad: scripts/build-interposer)"
        }
        var line = String(printf: "allocations per input event, whole live path (%ld events): mean %.3f, max %ld [0]", figures.events, figures.mean, figures.max)
        for event in figures.firstAllocating { line += "\n  \(event)" }
        return line
    }
}

/// `signpad bench --json`.
public struct BenchReport: Codable, Sendable {
    public var recording: String
    public var screen: String
    public var strategies: [Bench.Row]
    /// Mean heap allocations per raw input event on the live path (`allocations.mean`, at the top
    /// for whoever reads only that); nil when not counted.
    public var allocationsPerEvent: Double?
    public var allocations: LivePathAllocations?
    /// The most heap allocations a button's press and release made (`ScreenMoments.buttonPressAllocations`); nil when not counted.
    public var buttonPressAllocations: Int?
    /// The whole live path's time (`LivePath.time`); nil when not measured.
    public var livePath: LivePathTime?
    /// A button, Clear, a full redraw and start-up (`ScreenMoments`); nil when not measured.
    public var screenMoments: ScreenMoments?
    /// (d)'s costliest event over the full redraw's time (`ScreenMoments.worstEventShare`); nil when not measured.
    public var worstEventPerFullRedraw: Double?
    /// Predicted ink against what the recording did next; nil when not measured.
    public var prediction: PredictionAccuracy?
    /// The bench's own peak resident memory, all strategies' buffers included.
    public var peakRSSBytes: Int = PeakMemory.residentBytes
    /// The kiosk's own peak on this recording (see `KioskMemory`); nil when the bench's own
    /// peak at the time hid it.
    public var kioskPeakRSSBytes: Int?
    /// The whole daemon's peak signing this recording (see `KioskMemory.daemonPeakResidentBytes`);
    /// nil when it could not be measured.
    public var daemonPeakRSSBytes: Int?

    public init(recording: String, screen: String, strategies: [Bench.Row], allocations: LivePathAllocations?) {
        self.recording = recording
        self.screen = screen
        self.strategies = strategies
        allocationsPerEvent = allocations?.mean
        self.allocations = allocations
    }

    public func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}

/// The process's peak resident memory so far (getrusage's ru_maxrss, which Linux gives in KiB).
public enum PeakMemory {
    public static var residentBytes: Int {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
        return Int(usage.ru_maxrss) * 1024
    }

    public static var line: String { String(printf: "peak resident memory of this run: %.1f MiB", Double(residentBytes) / 1_048_576) }
}
