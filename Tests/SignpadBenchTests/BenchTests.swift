import Foundation
@testable import SignpadBench
import SignpadConfig
import SignpadKiosk
import SignpadInk
import SignpadInput
import SignpadTestSupport
import SignpadText
import SignpadVocabulary
import Testing

@Suite struct BenchTests {
    /// The bench draws a recording as the kiosk would: the configured calibration and flips apply.
    @Test func theBenchDrawsCalibratedAsThePanelDoes() throws {
        let display = OffscreenDisplay(width: 640, height: 400)
        var input = InputOptions()
        let plain = try Bench(recording: demoRecording(), input: input, display: display).events
        input.calibration = [0.5, 0, 0, 0, 0.5, 0]
        let calibrated = try Bench(recording: demoRecording(), input: input, display: display).events
        func xs(_ events: [StrokeEvent]) -> [Double] {
            events.compactMap { switch $0 { case .down(let sample), .move(let sample): sample.point.x; default: nil } }
        }
        #expect(!xs(plain).isEmpty && xs(plain).count == xs(calibrated).count)
        for (x, halved) in zip(xs(plain), xs(calibrated)) { #expect(abs(halved - x / 2) < 1, "\(x) → \(halved)") }
        input.calibration = nil
        input.flipX = true
        let flipped = try Bench(recording: demoRecording(), input: input, display: display).events
        for (x, mirrored) in zip(xs(plain), xs(flipped)) { #expect(abs(mirrored - (640 - x)) < 1.5, "\(x) → \(mirrored)") }
    }

    @Test func signpadDrawsTheLeastAndNeverLags() throws {
        let events = try demoRecording().strokeEvents(screenWidth: 640, screenHeight: 400).map(\.event)
        let rows = Bench(events: events, display: OffscreenDisplay(width: 640, height: 400)).run()
        #expect(rows.map(\.strategy) == ["a naive", "b backing store", "c backing+dirty", "d signpad", "e cairo"])
        let signpad = rows[3], backing = rows[1], cairo = rows[4]
        #expect(cairo.maxInkLag == 0 && cairo.bytesPerEvent > 0, "the peer draws, with its wet tail")
        #expect(signpad.maxInkLag == 0)
        #expect(backing.maxInkLag > 0, "without a wet tail the ink trails the finger")
        #expect(signpad.bytesPerEvent < backing.bytesPerEvent / 50)
        #expect(rows[2].bytesPerEvent < backing.bytesPerEvent)
        #expect(rows.allSatisfy { $0.coldFirstEventMicroseconds > 0 }, "each strategy's warm-up is timed and shown apart")
        // The work figure: the same on a second run, none for cairo, and re-stroking everything
        // on every event (a) far above drawing only what is new (d).
        let again = Bench(events: events, display: OffscreenDisplay(width: 640, height: 400)).run()
        #expect(rows.map(\.rasterisedMeanPixels) == again.map(\.rasterisedMeanPixels))
        #expect(rows.map(\.rasterisedMaxPixels) == again.map(\.rasterisedMaxPixels))
        #expect(cairo.rasterisedMeanPixels == nil)
        let d = try #require(signpad.rasterisedMeanPixels), a = try #require(rows[0].rasterisedMeanPixels)
        #expect(d > 0 && a > 20 * d, "a: \(a), d: \(d) pixels per event")
        #expect(try #require(signpad.rasterisedMaxPixels) >= Int(d))
    }

    /// A take-back draws again only the kept pieces that meet what it cleared: of the stroke it
    /// crossed, the few near it; of the one apart, none. The figure counts them.
    @Test func aTakeBackDrawsAgainOnlyThePiecesItUncovered() throws {
        func stroke(_ points: [Point], from time: Double) -> [StrokeEvent] {
            points.enumerated().map { i, p in i == 0 ? .down(Sample(p, time: time)) : .move(Sample(p, time: time + Double(i) / 100)) }
        }
        let crossed = (0..<10).map { Point(100 + Double($0) * 10, 100) }, apart = (0..<20).map { Point(100 + Double($0) * 10, 300) }
        let resting = (0..<5).map { Point(150, 80 + Double($0) * 10) }
        let events = stroke(crossed, from: 0) + [.up] + stroke(apart, from: 1) + [.up] + stroke(resting, from: 2) + [.withdraw]
        let rows = Bench(events: events, display: OffscreenDisplay(width: 640, height: 400)).run()
        #expect(rows.map { $0.redrawnMaxPieces == nil } == [true, true, true, false, true])
        let redrawn = try #require(rows[3].redrawnMaxPieces)
        #expect(redrawn >= 1 && redrawn <= 4, "\(redrawn) of the crossed stroke's 9 pieces")
    }

    @Test func aTurnedPanelIsBenchedAtItsLogicalSize() throws {
        // A portrait-mounted 400x640 panel shows a 640x400 canvas; (b) copies all of it every event.
        let display = OffscreenDisplay(width: 400, height: 640, rotation: .quarter)
        // A hundred events are enough: turned copies go pixel by pixel, slow in a debug build.
        let events = try demoRecording().strokeEvents(screenWidth: 640, screenHeight: 400).map(\.event).prefix(100)
        let rows = Bench(events: Array(events), display: display).run()
        #expect(rows[1].bytesPerEvent == Double(400 * 640 * 4))
        #expect(rows[1].framePercent == 100)
        #expect(rows[3].framePercent < 0.5)
        #expect(display.bytesCopied > 0)
    }
}

/// The peer draws the same ink as signpad, so the bench compares like with like: after the demo
/// signature, its image and signpad's have ink in the same places (antialiasing aside).
@Test func cairosPeerDrawsTheSameSignature() throws {
    let events = try demoRecording().strokeEvents(screenWidth: 640, screenHeight: 400).map(\.event)
    var smoother = MidpointSmoother(options: SmootherOptions())
    var renderer = InkRenderer(width: 640, height: 400)
    let peer = CairoInk(width: 640, height: 400)
    var canvas = Canvas(width: 640, height: 400)
    var dirty = DirtyRegion()
    for event in events {
        let step = smoother.handle(event)
        renderer.apply(step, dirty: &dirty)
        peer.copy(peer.apply(step), into: &canvas)
    }
    var both = 0, onlyOne = 0
    for (a, b) in zip(renderer.canvas.pixels, canvas.pixels) {
        let inkA = a & 0xFF < 96, inkB = b & 0xFF < 96
        if inkA && inkB { both += 1 } else if inkA != inkB { onlyOne += 1 }
    }
    #expect(both > 1000)
    #expect(onlyOne * 8 < both, "\(onlyOne) pixels inked by one only, \(both) by both")
}

/// The kiosk's memory is measured by running `signpad replay` as a child. Linux may give the
/// child this process's size as its own (see `KioskMemory`), so a figure no larger than this
/// process's peak is only a bound, and said so; a replay that fails is an error naming it.
@Test func theKioskIsMeasuredInAChildThatMustSucceed() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let signpad = root.appendingPathComponent(".build/debug/signpad").path, demo = demoRecordingPath
    let peak = try KioskMemory.peakResidentBytes(executable: signpad, recording: demo, width: 640, height: 400, configuration: nil, overrides: [])
    #expect(peak.benchBytes > 0 && peak.bytes > 20_000_000, "a kiosk maps its libraries at least")
    let line = KioskMemory.line(peak, width: 640, height: 400)
    #expect(line.contains("at 640x400"))
    #expect(line.contains("at most") == (peak.bytes <= peak.benchBytes), "\(line)")
    #expect {
        _ = try KioskMemory.peakResidentBytes(executable: signpad, recording: root.path + "/no-such.evemu", width: 640, height: 400,
                                              configuration: nil, overrides: [])
    } throws: { "\($0)".contains("signpad replay \(root.path)/no-such.evemu --screen 640x400 failed") }
}

/// The whole daemon's memory: `signpad run --offscreen` signing the demo in a folder of its own,
/// stopped once the signature is exported; it must have exported one. A recording too short to
/// sign is an error that says so, not a wait without end.
@Test func theDaemonIsMeasuredSigningInAChild() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let signpad = root.appendingPathComponent(".build/debug/signpad").path
    let peak = try KioskMemory.daemonPeakResidentBytes(executable: signpad, recording: demoRecordingPath, seconds: 6, width: 640, height: 400,
                                                       configuration: nil, overrides: [])
    #expect(peak.bytes > 20_000_000, "a daemon maps its libraries at least")
    #expect(KioskMemory.daemonLine(peak, width: 640, height: 400).contains("signpad run --offscreen 640x400"))
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("daemon-memory-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    // One tap: too little ink for Done to save anything.
    let tap = try String(contentsOfFile: demoRecordingPath, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        .filter { !$0.hasPrefix("E:") }.joined(separator: "\n") + """
        E: 1.000000 0003 0039 0001
        E: 1.000000 0003 0035 0300
        E: 1.000000 0003 0036 0300
        E: 1.000000 0001 014a 0001
        E: 1.000000 0000 0000 0000
        E: 1.010000 0003 0039 -001
        E: 1.010000 0001 014a 0000
        E: 1.010000 0000 0000 0000

        """
    let tapPath = folder.appendingPathComponent("tap.evemu").path
    try tap.write(toFile: tapPath, atomically: true, encoding: .utf8)
    #expect {
        _ = try KioskMemory.daemonPeakResidentBytes(executable: signpad, recording: tapPath, seconds: 0, width: 640, height: 400, configuration: nil, overrides: [])
    } throws: { "\($0)".contains("no signature saved") }
}

/// The screen's moments do what they are named for: the full redraw shows the whole signature
/// on both sides, alike, and a cleared peer shows none; the figures come out for each moment.
@Test func theScreensMomentsRedrawTheSignatureAndClearIt() throws {
    let events = try demoRecording().strokeEvents(screenWidth: 640, screenHeight: 400).map(\.event)
    let pieces = ScreenMoments.dryPieces(of: events, pen: SmootherOptions())
    #expect(pieces.count > 100)
    var ink = RendererFrame(width: 640, height: 400), peer = PeerFrame(width: 640, height: 400)
    ink.redraw(pieces)
    ink.redraw(pieces)
    peer.redraw(pieces)
    var both = 0, onlyOne = 0
    for (a, b) in zip(ink.display.screen.pixels, peer.display.screen.pixels) {
        let inkA = a & 0xFF < 96, inkB = b & 0xFF < 96
        if inkA && inkB { both += 1 } else if inkA != inkB { onlyOne += 1 }
    }
    #expect(both > 1000)
    #expect(onlyOne * 8 < both, "\(onlyOne) pixels inked by one only, \(both) by both")
    peer.clear()
    #expect(peer.display.screen.pixels.allSatisfy { $0 & 0xFFFFFF == 0xFFFFFF }, "the peer's Clear leaves the background")
    let moments = try ScreenMoments.measure(events, config: try Config.load(text: "", file: "(test)"), width: 640, height: 400,
                                            painter: { width, height in try ChromePainter(style: KioskStyle(), backgroundImage: nil, width: width, height: height) },
                                            counter: nil)
    for moment in [moments.buttonPress, moments.clear, moments.fullRedraw, moments.startUp] { #expect(moment.microseconds > 0) }
    #expect(moments.clear.peerMicroseconds != nil && moments.fullRedraw.peerMicroseconds != nil && moments.buttonPress.allocations == nil)
    #expect(moments.lines.contains("button pressed and let go") && moments.lines.contains("[≤ 10]") == false, "\(moments.lines)")
}
