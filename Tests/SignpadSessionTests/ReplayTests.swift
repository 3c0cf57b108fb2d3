import Foundation
import SignpadConfig
import SignpadCrypto
import SignpadExport
import SignpadInput
import SignpadKiosk
@testable import SignpadOutbox
@testable import SignpadSession
import SignpadTestSupport
import SignpadText
import SignpadVocabulary
import Testing

let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// Appends a tap at a screen point (in a 0…4095 panel mapped to the replay's screen) to a recording.
func appendingTap(_ recording: EvemuRecording, at p: Point, screen: (Int, Int), id: Int32) -> EvemuRecording {
    var r = recording
    var t = (r.events.last?.microseconds ?? 0) + 300_000
    let x = Int32(p.x / Double(screen.0) * 4096), y = Int32(p.y / Double(screen.1) * 4096)
    for frame: [(UInt16, UInt16, Int32)] in [[(3, 0x2f, 0), (3, 0x39, id), (3, 0x35, x), (3, 0x36, y)], [(3, 0x39, -1)]] {
        for (type, code, value) in frame + [(0, 0, 0)] { r.events.append(rawEvent(Double(t) / 1e6, type, code, value)) }
        t += 50_000
    }
    return r
}

@Suite struct ReplayTests {
    /// A protocol-A panel recorded as evemu-record writes one (no slots, no tracking ids, each
    /// contact closed by SYN_MT_REPORT): a hand rests at the bottom right while a finger signs at
    /// the top left. The saved signature is the finger's alone, with nothing joining the two.
    @Test func aProtocolAPanelsRestingHandIsNeitherDrawnNorJoinedToTheFinger() throws {
        var text = """
        # EVEMU 1.3
        N: protocol A panel
        I: 0003 0eef 0001 0001
        P: 02 00 00 00 00 00 00 00
        B: 00 0b 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 04 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 02 00 00 00 00 00 00 00 00
        B: 03 03 00 00 00 00 00 60 00
        B: 04 00 00 00 00 00 00 00 00
        B: 05 00 00 00 00 00 00 00 00
        B: 11 00 00 00 00 00 00 00 00
        B: 12 00 00 00 00 00 00 00 00
        B: 14 00 00 00 00 00 00 00 00
        B: 15 00 00 00 00 00 00 00 00
        B: 15 00 00 00 00 00 00 00 00
        A: 00 0 4095 0 0 0
        A: 01 0 4095 0 0 0
        A: 35 0 4095 0 0 0
        A: 36 0 4095 0 0 0

        """
        var time = 1.0
        func frame(_ contacts: [(Int, Int)]) {
            for (x, y) in contacts { text += "E: \(String(format: "%.6f", time)) 0003 0035 \(x)\nE: \(String(format: "%.6f", time)) 0003 0036 \(y)\nE: \(String(format: "%.6f", time)) 0000 0002 0\n" }
            if contacts.isEmpty { text += "E: \(String(format: "%.6f", time)) 0000 0002 0\n" }
            if let (x, y) = contacts.first { text += "E: \(String(format: "%.6f", time)) 0003 0000 \(x)\nE: \(String(format: "%.6f", time)) 0003 0001 \(y)\n" }
            text += "E: \(String(format: "%.6f", time)) 0001 014a \(contacts.isEmpty ? 0 : 1)\nE: \(String(format: "%.6f", time)) 0000 0000 0\n"
            time += 0.01
        }
        let hand = (3500, 3300)
        for _ in 0..<20 { frame([hand]) }
        // The finger lands and signs a wave; the panel lists it first from then on.
        for step in 0..<80 { frame([(900 + step * 25, 1200 + Int(300 * sin(Double(step) / 8))), hand]) }
        for _ in 0..<20 { frame([hand]) }
        frame([])
        let recording = try EvemuRecording.parse(text, file: "protocol-a.evemu")
        let dir = scratch()
        defer { removeScratch(dir) }
        let outcome = try Replay(ReplayOptions(try quietConfig()), width: 1280, height: 800, painter: cairoPainter).run(recording, outputDirectory: dir) { _ in }
        let id = try #require(outcome.saved.first)
        let meta = try JSONDecoder().decode(SignatureMetadata.self, from: Data(contentsOf: URL(fileURLWithPath: "\(dir)/\(id).meta.json")))
        #expect(meta.strokes == 1 && meta.samples == 80, "the finger's stroke alone: \(meta.strokes) strokes, \(meta.samples) samples")
        let groups = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(dir)/\(id).json"))) as? [[String: Any]] ?? []
        let xs = groups.flatMap { ($0["points"] as? [[String: Any]] ?? []).compactMap { $0["x"] as? Double } }
        #expect(!xs.isEmpty && xs.allSatisfy { $0 < 1280 * 3000 / 4096 }, "no sample where the hand rests: \(xs.max() ?? 0)")
    }

    @Test func theDemoSignatureIsSavedInEveryFormatAndTheScreenIsBlankAfterwards() throws {
        let dir = scratch()
        defer { removeScratch(dir) }
        let config = try quietConfig(["export.kiosk_name=\"desk 4\"", "ink.color=\"#0000C0\""])
        let outcome = try Replay(ReplayOptions(config), width: 1280, height: 800, painter: cairoPainter).run(try demoRecording(), outputDirectory: dir) { _ in }
        #expect(outcome.saved.count == 1)
        let id = try #require(outcome.saved.first)
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: dir))
        #expect(names == Set(["png", "svg", "inkml", "json", "meta.json.sig", "meta.json"].map { "\(id).\($0)" }))
        let meta = try JSONDecoder().decode(SignatureMetadata.self, from: Data(contentsOf: URL(fileURLWithPath: "\(dir)/\(id).meta.json")))
        #expect(meta.strokes == 5)
        #expect(meta.device == "signpad demo touchscreen")
        #expect(meta.kiosk == "desk 4", "the kiosk's name as configured when the customer confirmed")
        let json = String(decoding: try Data(contentsOf: URL(fileURLWithPath: "\(dir)/\(id).json")), as: UTF8.self)
        #expect(json.contains("\"penColor\":\"rgb(0, 0, 192)\""), "the ink as it was on the screen")
        for (name, entry) in meta.files {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(dir)/\(name)")))
            #expect(SHA256.hex(bytes) == entry.sha256)
        }
        // Nothing of the signature stays: the box holds no ink pixel.
        let box = outcome.session.kiosk.layout.box
        let screen = outcome.screen
        var inkLeft = 0
        for y in (box.minY + 4)..<(box.maxY - 4) {
            for x in (box.minX + 4)..<(box.maxX - 4) where screen[x, y] == config.ink.color { inkLeft += 1 }
        }
        #expect(inkLeft == 0)
    }

    /// Replays the demo signature followed by a tap on a button, on a 1280×800 screen.
    func replayWithTap(on button: (KioskLayout) -> PixelRect, confirmAtEnd: Bool) throws -> Replay.Outcome {
        let rect = button(KioskLayout(width: 1280, height: 800))
        let recording = appendingTap(try demoRecording(), at: Point(Double(rect.minX + 20), Double(rect.minY + 20)), screen: (1280, 800), id: 90)
        var replay = Replay(ReplayOptions(try quietConfig()), width: 1280, height: 800, painter: cairoPainter)
        replay.confirmAtEnd = confirmAtEnd
        let dir = scratch()
        defer { removeScratch(dir) }
        return try replay.run(recording, outputDirectory: dir) { _ in }
    }

    @Test func clearButtonTapWipesAndNothingIsSaved() throws {
        let outcome = try replayWithTap(on: \.clearButton, confirmAtEnd: true)
        #expect(outcome.saved.isEmpty, "after Clear there is nothing left to save")
    }

    @Test func doneButtonTapSavesOnce() throws {
        let outcome = try replayWithTap(on: \.doneButton, confirmAtEnd: false)
        #expect(outcome.saved.count == 1)
    }

    /// With `kiosk.double_tap_confirm`, two taps above the box confirm once their quiet has
    /// passed, through the session to the exporter; a third tap means they were not a double tap.
    @Test(arguments: [2, 3])
    func aDoubleTapConfirmsThroughTheSessionAndATripleTapDoesNot(taps: Int) throws {
        let above = Point(640, 10)
        var recording = try demoRecording()
        for i in 0..<taps { recording = appendingTap(recording, at: above, screen: (1280, 800), id: 90 + Int32(i)) }
        var replay = Replay(ReplayOptions(try quietConfig(["kiosk.double_tap_confirm=true"])), width: 1280, height: 800, painter: cairoPainter)
        replay.confirmAtEnd = false
        let dir = scratch()
        defer { removeScratch(dir) }
        let outcome = try replay.run(recording, outputDirectory: dir) { _ in }
        #expect(outcome.saved.count == (taps == 2 ? 1 : 0), "\(taps) taps")
        #expect(outcome.session.kiosk.hasInk == (taps != 2))
    }

    /// A kiosk on an 800×480 offscreen display, saving into `exporter`.
    func offscreenSession(_ exporter: Exporter) throws -> Session {
        try Session(SessionOptions(try quietConfig()), display: OffscreenDisplay(width: 800, height: 480), exporter: exporter, painter: cairoPainter)
    }

    /// How many pixels two sessions' panels differ in. Counted, not compared whole: a failed
    /// comparison of two frames would print both. The top byte is XRGB's X, which no display
    /// reads (wiped ink takes the background's, 0xFF).
    func differingPixels(_ a: Session, _ b: Session) -> Int {
        zip(a.renderer.canvas.pixels, b.renderer.canvas.pixels).filter { $0 & 0xFF_FFFF != $1 & 0xFF_FFFF }.count
    }

    /// A session that has taken the demo signature and been told to save it into `exporter`.
    func signedAndConfirmed(into exporter: Exporter) throws -> Session {
        let session = try offscreenSession(exporter)
        let recording = try demoRecording()
        var decoder = try ContactDecoder(device: recording.device, screenWidth: 800, screenHeight: 480)
        for event in recording.events { decoder.feed(event) { session.handle($0, device: "t", now: event.seconds) } }
        session.confirm(now: 100)
        return session
    }

    /// A panel's pen and touchscreen are two devices: a signature drawn with both names both.
    @Test func theMetadataNamesEveryDeviceTheSignatureWasDrawnWith() throws {
        let dir = scratch()
        defer { removeScratch(dir) }
        let exporter = Exporter(directory: dir, options: ExportOptions(), evidence: testEvidence, retrySeconds: 0.05)
        defer { exporter.stop() }
        let session = try offscreenSession(exporter)
        let recording = try demoRecording()
        var decoder = try ContactDecoder(device: recording.device, screenWidth: 800, screenHeight: 480)
        var strokes = 0
        for event in recording.events {
            decoder.feed(event) { stroke in
                if case .down = stroke { strokes += 1 }
                session.handle(stroke, device: strokes <= 2 ? "panel pen" : "panel touch", now: event.seconds)
            }
        }
        #expect(strokes > 2)
        session.confirm(now: 100)
        #expect(exporter.waitUntilIdle(timeout: 10))
        let metas = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".meta.json") }
        #expect(metas.count == 1)
        let meta = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/" + metas[0]))) as? [String: Any]
        #expect(meta?["device"] as? String == "panel pen, panel touch")
    }

    /// The pen comes near while a hand rests on the glass: the hand's stroke is taken back, and the
    /// panel shows exactly what it would had the hand never landed.
    @Test func aStrokeTakenBackLeavesThePixelsOfTheOthersAlone() throws {
        let exporter = Exporter(directory: "/proc/signpad-never-written", options: ExportOptions(), evidence: testEvidence, retrySeconds: 60)
        defer { exporter.stop() }
        let recording = try demoRecording()
        var decoder = try ContactDecoder(device: recording.device, screenWidth: 800, screenHeight: 480)
        var strokes: [[(StrokeEvent, Double)]] = []
        for event in recording.events {
            decoder.feed(event) { stroke in
                if case .down = stroke { strokes.append([]) }
                strokes[strokes.count - 1].append((stroke, event.seconds))
            }
        }
        #expect(strokes.count >= 3)
        let withHand = try offscreenSession(exporter), without = try offscreenSession(exporter)
        for stroke in strokes.dropLast() {
            for (event, time) in stroke {
                withHand.handle(event, device: "t", now: time)
                without.handle(event, device: "t", now: time)
            }
        }
        // The last stroke, half drawn and taken back, stands for the hand.
        let hand = strokes.last!.prefix(strokes.last!.count / 2)
        for (event, time) in hand { withHand.handle(event, device: "t", now: time) }
        #expect(differingPixels(withHand, without) > 50, "the hand drew ink")
        withHand.handle(.withdraw, device: "t", now: hand.last!.1)
        #expect(withHand.kiosk.signature == without.kiosk.signature)
        #expect(differingPixels(withHand, without) == 0)
        // And the next stroke draws as on a panel the hand never touched.
        for (event, time) in strokes.last! {
            withHand.handle(event, device: "t", now: time + 10)
            without.handle(event, device: "t", now: time + 10)
        }
        #expect(differingPixels(withHand, without) == 0)
    }

    /// Ink predicted ahead of the finger shows while a stroke is drawn and is gone without trace
    /// at its lift: after each stroke the panel equals one that predicts nothing, and so does the
    /// signature kept.
    @Test func predictedInkShowsWhileDrawingAndLeavesNoTraceAtTheLift() throws {
        let exporter = Exporter(directory: "/proc/signpad-never-written", options: ExportOptions(), evidence: testEvidence, retrySeconds: 60)
        defer { exporter.stop() }
        func session(predicting milliseconds: Int) throws -> Session {
            try Session(SessionOptions(try quietConfig(["ink.predict_ms=\(milliseconds)"])), display: OffscreenDisplay(width: 800, height: 480),
                        exporter: exporter, painter: cairoPainter)
        }
        let ahead = try session(predicting: 16), plain = try session(predicting: 0)
        let recording = try demoRecording()
        var decoder = try ContactDecoder(device: recording.device, screenWidth: 800, screenHeight: 480)
        var looked = 0, differedWhileDrawing = 0, differedAfterLift = 0, lifts = 0
        for event in recording.events {
            decoder.feed(event) { stroke in
                ahead.handle(stroke, device: "t", now: event.seconds)
                plain.handle(stroke, device: "t", now: event.seconds)
                if stroke == .up {
                    lifts += 1
                    differedAfterLift += differingPixels(ahead, plain)
                } else if case .move = stroke {
                    // Every tenth move: comparing whole panels is slow in a debug build.
                    looked += 1
                    if looked % 10 == 0 && differingPixels(ahead, plain) > 0 { differedWhileDrawing += 1 }
                }
            }
        }
        #expect(lifts == 5)
        #expect(differedWhileDrawing * 10 > looked / 2, "the prediction showed on \(differedWhileDrawing) of \(looked / 10) moves looked at")
        #expect(differedAfterLift == 0, "\(differedAfterLift) pixels differed after the lifts")
        #expect(ahead.kiosk.signature == plain.kiosk.signature ? true : false, "the signature kept holds the samples alone")
    }

    /// A resting hand's dot taken back while a signature is on screen is the cheapest event there
    /// is: only the screen around the dot is touched, never the whole signature drawn again.
    @Test func takingBackAHandsDotTouchesOnlyTheScreenAroundIt() throws {
        let exporter = Exporter(directory: "/proc/signpad-never-written", options: ExportOptions(), evidence: testEvidence, retrySeconds: 60)
        defer { exporter.stop() }
        let display = OffscreenDisplay(width: 800, height: 480)
        let session = try Session(SessionOptions(try quietConfig()), display: display, exporter: exporter, painter: cairoPainter)
        let recording = try demoRecording()
        var decoder = try ContactDecoder(device: recording.device, screenWidth: 800, screenHeight: 480)
        for event in recording.events { decoder.feed(event) { session.handle($0, device: "t", now: event.seconds) } }
        let signed = session.renderer.inkBounds
        #expect(signed.area > 100_000, "the demo signature covers much of the box: \(signed)")
        // The hand lands at the box's bottom right and lies still.
        let hand = Point(700, 300), at = (recording.events.last?.seconds ?? 0) + 1
        session.handle(.down(Sample(hand, time: at)), device: "t", now: at)
        session.handle(.move(Sample(Point(701, 300.5), time: at + 0.01)), device: "t", now: at + 0.01)
        let before = display.bytesCopied
        session.handle(.withdraw, device: "t", now: at + 0.02)
        let copied = display.bytesCopied - before
        // The dot's reach (a few pixels), widened to whole 32-column segments: a few kilobytes.
        #expect(copied > 0 && copied <= 64 * 32 * 4, "\(copied) bytes copied to take back a dot; the signature spans \(signed.area * 4)")
    }

    /// A hand (or water) rests on the glass in slot 0 before the customer signs the demo signature
    /// with a finger in slot 1, stroke after stroke, while it stays: the hand's dot is taken back,
    /// and the panel and the signature are the dry panel's, through one decoder as the daemon reads.
    @Test func aHandRestingOnTheGlassLeavesTheSignatureAsOnADryPanel() throws {
        let exporter = Exporter(directory: "/proc/signpad-never-written", options: ExportOptions(), evidence: testEvidence, retrySeconds: 60)
        defer { exporter.stop() }
        let recording = try demoRecording()
        let event = rawEvent
        typealias C = EventCode
        let hand = [event(0.5, C.EV_ABS, C.ABS_MT_SLOT, 0), event(0.5, C.EV_ABS, C.ABS_MT_TRACKING_ID, 900),
                    event(0.5, C.EV_ABS, C.ABS_MT_POSITION_X, 3800), event(0.5, C.EV_ABS, C.ABS_MT_POSITION_Y, 3050),
                    event(0.5, C.EV_SYN, C.SYN_REPORT, 0)]
        // The demo's contact moved to slot 1, without the single-touch emulation the hand holds.
        let finger = recording.events.compactMap { e -> InputEvent? in
            if e.type == C.EV_KEY || (e.type == C.EV_ABS && (e.code == C.ABS_X || e.code == C.ABS_Y)) { return nil }
            return e.type == C.EV_ABS && e.code == C.ABS_MT_SLOT ? event(e.seconds, e.type, e.code, 1) : e
        }
        let withHand = try offscreenSession(exporter), dry = try offscreenSession(exporter)
        var decoder = try ContactDecoder(device: recording.device, screenWidth: 800, screenHeight: 480)
        var withdrawn = 0
        for e in hand + finger {
            decoder.feed(e) { stroke in
                if stroke == .withdraw { withdrawn += 1 }
                withHand.handle(stroke, device: "t", now: e.seconds)
            }
        }
        var dryDecoder = try ContactDecoder(device: recording.device, screenWidth: 800, screenHeight: 480)
        for e in recording.events { dryDecoder.feed(e) { dry.handle($0, device: "t", now: e.seconds) } }
        #expect(withdrawn == 1)
        #expect(dry.kiosk.signature.strokes.count >= 3)
        // Compared as a Bool: a failed comparison of two signatures would print both whole.
        #expect(withHand.kiosk.signature.strokes.count == dry.kiosk.signature.strokes.count)
        #expect(withHand.kiosk.signature == dry.kiosk.signature ? true : false)
        #expect(differingPixels(withHand, dry) == 0)
    }

    /// The customer signs, then rests a hand on the glass in the box and taps Done beside it: the
    /// signature is saved as signed, without the hand's dot, not held off until the idle timeout
    /// wipes it.
    @Test func aTapOnDoneBesideARestingHandSavesTheSignatureAsSigned() throws {
        let dir = scratch()
        defer { removeScratch(dir) }
        let exporter = Exporter(directory: dir, options: ExportOptions(), evidence: testEvidence, retrySeconds: 0.05)
        defer { exporter.stop() }
        let recording = try demoRecording()
        typealias C = EventCode
        let event = rawEvent
        func frame(_ seconds: Double, slot: Int32, id: Int32, at point: (x: Int32, y: Int32)? = nil) -> [InputEvent] {
            [event(seconds, C.EV_ABS, C.ABS_MT_SLOT, slot), event(seconds, C.EV_ABS, C.ABS_MT_TRACKING_ID, id)]
                + (point.map { [event(seconds, C.EV_ABS, C.ABS_MT_POSITION_X, $0.x), event(seconds, C.EV_ABS, C.ABS_MT_POSITION_Y, $0.y)] } ?? [])
                + [event(seconds, C.EV_SYN, C.SYN_REPORT, 0)]
        }
        let session = try offscreenSession(exporter)
        let done = session.kiosk.layout.doneButton
        // Screen 800×480 from axes 0…4095.
        let doneOnPanel = (x: Int32(Double(done.minX + done.maxX) / 2 * 4096 / 800), y: Int32(Double(done.minY + done.maxY) / 2 * 4096 / 480))
        let end = recording.events.last!.seconds
        let events = recording.events + frame(end + 0.5, slot: 0, id: 900, at: (3800, 3050))
            + frame(end + 1.0, slot: 1, id: 901, at: doneOnPanel) + frame(end + 1.1, slot: 1, id: -1)
        var decoder = try ContactDecoder(device: recording.device, screenWidth: 800, screenHeight: 480)
        var signed = Signature()
        for e in events {
            decoder.feed(e) { session.handle($0, device: "t", now: e.seconds) }
            if e.seconds <= end { signed = session.kiosk.signature }
        }
        #expect(exporter.waitUntilIdle(timeout: 10))
        session.tick(now: end + 1.2)
        // No folder: nothing was ever written.
        let metas = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasSuffix(".meta.json") }
        #expect(metas.count == 1, "the tap on Done saved the signature")
        guard let name = metas.first else { return }
        let meta = try JSONDecoder().decode(SignatureMetadata.self, from: Data(contentsOf: URL(fileURLWithPath: dir + "/" + name)))
        #expect(signed.strokes.count >= 3)
        #expect(meta.strokes == signed.strokes.count, "the hand's dot is no stroke of it")
        #expect(meta.samples == signed.sampleCount)
    }

    /// A stroke still down when the idle timeout comes: the panel is wiped as blank as a fresh
    /// one's, and the held touch's later moves draw nothing.
    @Test func aStrokeHeldThroughTheIdleTimeoutLeavesNoInk() throws {
        let exporter = Exporter(directory: "/proc/signpad-never-written", options: ExportOptions(), evidence: testEvidence, retrySeconds: 60)
        defer { exporter.stop() }
        let recording = try demoRecording()
        let decoder = try ContactDecoder(device: recording.device, screenWidth: 800, screenHeight: 480)
        let downs = try recording.strokeEvents(screenWidth: 800, screenHeight: 480).filter { if case .down = $0.event { true } else { false } }.count
        let session = try Session(SessionOptions(try quietConfig()), display: OffscreenDisplay(width: 800, height: 480), exporter: exporter, painter: cairoPainter)
        let fresh = try offscreenSession(exporter)
        let device = session.addInput(path: "/dev/input/event9", name: "t", kind: decoder.kind, decoder: decoder)
        // Through the last stroke's landing and four frames more: that stroke is held down.
        var framesAfterLastDown = 0, held = 0
        for event in recording.events where framesAfterLastDown < 5 {
            session.feed(event, from: device, now: event.seconds)
            held += 1
            if session.kiosk.signature.strokes.count == downs && event.type == EventCode.EV_SYN { framesAfterLastDown += 1 }
        }
        #expect(differingPixels(session, fresh) > 1000, "the signature and the held stroke are on the panel")
        let idle = recording.events[held - 1].seconds + session.kiosk.rules.idleTimeout
        session.tick(now: idle)
        #expect(notices(session).contains { $0.message.contains("down and still at the idle timeout") && $0.fields["device"] == "/dev/input/event9" },
                "the held touch is let go of")
        let strokesLeft = session.kiosk.signature.strokes.count
        #expect(strokesLeft == 0)
        #expect(differingPixels(session, fresh) == 0)
        for event in recording.events[held...] { session.feed(event, from: device, now: idle + event.seconds) }
        #expect(differingPixels(session, fresh) == 0, "the held touch drew after the wipe")
    }

    /// A drop of water lands in the box and stays; past the idle timeout its dot is wiped and it is
    /// let go of, and a customer signing with another finger while it stays is drawn and saved as
    /// on a dry panel.
    @Test func aContactLeftDownIsLetGoOfAndTheNextFingerSigns() throws {
        let demo = try demoRecording()
        let water: [(UInt16, UInt16, Int32)] = [(3, 0x2f, 0), (3, 0x39, 500), (3, 0x35, 3800), (3, 0x36, 3050), (1, 0x14a, 1), (0, 0, 0)]
        let dried: [(UInt16, UInt16, Int32)] = [(3, 0x2f, 0), (3, 0x39, -1), (1, 0x14a, 0), (0, 0, 0)]
        let start = demo.events[0].microseconds, idle = Int64(try quietConfig().kiosk.rules.idleTimeout * 1_000_000)
        var wet = demo
        wet.events = water.map { rawEvent(Double(start - 1_000_000) / 1e6, $0.0, $0.1, $0.2) }
        // The customer's finger in slot 1, without the single-touch emulation the drop holds.
        for event in demo.events where !(event.type == 1 || (event.type == 3 && event.code < 2)) {
            var moved = event
            moved.microseconds += idle + 1_000_000
            if event.type == 3 && event.code == 0x2f { moved.value = 1 }
            wet.events.append(moved)
        }
        wet.events += dried.map { rawEvent(Double(wet.events.last!.microseconds + 500_000) / 1e6, $0.0, $0.1, $0.2) }

        func replay(_ recording: EvemuRecording) throws -> Replay.Outcome {
            let dir = scratch()
            defer { removeScratch(dir) }
            var replay = Replay(ReplayOptions(try quietConfig()), width: 1024, height: 768, painter: cairoPainter)
            replay.confirmAtEnd = false
            return try replay.run(recording, outputDirectory: dir) { _ in }
        }
        let onWater = try replay(wet), dry = try replay(demo)
        let drawn = onWater.session.kiosk.signature.strokes.map { $0.map(\.point) }
        let signed = dry.session.kiosk.signature.strokes.map { $0.map(\.point) }
        let strokes = drawn.count, same = drawn == signed
        #expect(strokes == 5 && same)
        let differing = zip(onWater.screen.pixels, dry.screen.pixels).filter { $0 & 0xFF_FFFF != $1 & 0xFF_FFFF }.count
        #expect(differing == 0)
    }

    /// A customer signs a first name with a pen, then thinks for three idle timeouts with the pen
    /// moving above the glass, and signs the surname: both are saved. The same pause with the pen
    /// taken away wipes the first name, as before.
    @Test func aPauseWithThePenRaisedKeepsTheSignature() throws {
        typealias C = EventCode
        let pen = DeviceDescription.pen(axisMaximum: 4095)
        let (width, height) = (1024, 768), idle = try quietConfig().kiosk.rules.idleTimeout
        let box = KioskLayout(width: width, height: height).box
        var events: [InputEvent] = []
        var t = 1.0
        func frame(_ changes: [(UInt16, UInt16, Int32)]) {
            for (type, code, value) in changes + [(C.EV_SYN, C.SYN_REPORT, 0)] {
                events.append(rawEvent(t, type, code, value))
            }
        }
        func panel(_ x: Double, _ y: Double) -> [(UInt16, UInt16, Int32)] {
            [(C.EV_ABS, C.ABS_X, Int32(x / Double(width) * 4096)), (C.EV_ABS, C.ABS_Y, Int32(y / Double(height) * 4096))]
        }
        func write(from x: Double) {
            let y = Double(box.minY + box.maxY) / 2
            frame([(C.EV_KEY, C.BTN_TOOL_PEN, 1)] + panel(x, y - 30))
            frame([(C.EV_KEY, C.BTN_TOUCH, 1), (C.EV_ABS, C.ABS_PRESSURE, 600)] + panel(x, y))
            for step in 1...30 {
                t += 0.01
                frame(panel(x + Double(step) * 5, y + Double(step % 4) * 6))
            }
            t += 0.01
            frame([(C.EV_KEY, C.BTN_TOUCH, 0), (C.EV_ABS, C.ABS_PRESSURE, 0)])
        }
        func signature(pausingWithPenRaised raised: Bool) throws -> Signature {
            events = []
            t = 1
            write(from: Double(box.minX) + 40)
            let pauseEnds = t + 3 * idle
            if !raised { frame([(C.EV_KEY, C.BTN_TOOL_PEN, 0)]) }
            while raised && t < pauseEnds {
                t += 5
                frame(panel(Double(box.minX) + 200 + (Int(t) % 2 == 0 ? 60 : 0), Double(box.minY) + 40))
            }
            t = pauseEnds
            write(from: Double(box.minX) + 240)
            t += 0.5
            frame([(C.EV_KEY, C.BTN_TOOL_PEN, 0)])
            let dir = scratch()
            defer { removeScratch(dir) }
            var replay = Replay(ReplayOptions(try quietConfig()), width: width, height: height, painter: cairoPainter)
            replay.confirmAtEnd = false
            return try replay.run(EvemuRecording(device: pen, events: events), outputDirectory: dir) { _ in }.session.kiosk.signature
        }
        let paused = try signature(pausingWithPenRaised: true), away = try signature(pausingWithPenRaised: false)
        #expect(paused.strokes.count == 2, "the first name was wiped while the pen moved above the glass")
        #expect(away.strokes.count == 1, "a pause with nobody at the pad still wipes the signature")
        #expect(paused.strokes.last == away.strokes.last ? true : false)
    }

    /// The pen's eraser end over the first stroke: the panel then shows exactly what a session
    /// shows that was given only the strokes left.
    @Test func erasedStrokesLeaveThePixelsOfASignatureWithoutThem() throws {
        let exporter = Exporter(directory: "/proc/signpad-never-written", options: ExportOptions(), evidence: testEvidence, retrySeconds: 60)
        defer { exporter.stop() }
        let recording = try demoRecording()
        var decoder = try ContactDecoder(device: recording.device, screenWidth: 800, screenHeight: 480)
        let erased = try offscreenSession(exporter)
        for event in recording.events { decoder.feed(event) { erased.handle($0, device: "t", now: event.seconds) } }
        let before = erased.kiosk.signature
        let start = before.strokes[0][0]
        erased.handle(.down(Sample(start.point, time: 100, erasing: true)), device: "t", now: 100)
        erased.handle(.move(Sample(start.point + Point(3, 3), time: 100.1, erasing: true)), device: "t", now: 100.1)
        erased.handle(.up, device: "t", now: 100.2)
        let left = erased.kiosk.signature
        #expect(left.strokes.count < before.strokes.count && !left.strokes.isEmpty)
        #expect(left.strokes.allSatisfy { before.strokes.contains($0) })

        let redrawn = try offscreenSession(exporter)
        for stroke in left.strokes {
            for (index, sample) in stroke.enumerated() { redrawn.handle(index == 0 ? .down(sample) : .move(sample), device: "t", now: sample.time) }
            redrawn.handle(.up, device: "t", now: stroke.last!.time)
        }
        #expect(redrawn.kiosk.signature == left)
        #expect(differingPixels(erased, redrawn) == 0)
    }

    @Test func anUnwritableFolderIsReportedAndTheSignatureIsKeptForRetry() throws {
        let exporter = Exporter(directory: "/proc/signpad-cannot-exist", options: ExportOptions(), evidence: testEvidence, retrySeconds: 0.05)
        defer { exporter.stop() }
        let session = try signedAndConfirmed(into: exporter)
        #expect(!exporter.waitUntilIdle(timeout: 0.5), "the export keeps failing")
        session.tick(now: 101)
        guard case .saveFailed(let reason) = session.kiosk.message else { Issue.record("expected a staff message, got \(session.kiosk.message)"); return }
        #expect(reason.contains("/proc/signpad-cannot-exist"))
        #expect(exporter.pending == 1, "the signature is still held")
    }

    @Test func aWriteThatHangsIsShownToStaffUntilItReturns() throws {
        let parent = scratch()
        defer { removeScratch(parent) }
        let dir = parent + "/signatures"
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        let entered = DispatchSemaphore(value: 0), answer = DispatchSemaphore(value: 0)
        let exporter = Exporter(directory: dir, options: ExportOptions(), evidence: testEvidence, retrySeconds: 0.05, spool: nil, write: { files in
            entered.signal()
            answer.wait()
            try FolderWriter(directory: dir).write(files.map { ($0.name, $0.bytes) })
        })
        defer { exporter.stop() }
        let session = try signedAndConfirmed(into: exporter)
        session.stalledWriteSeconds = 1.0
        #expect(entered.wait(timeout: .now() + 5) == .success)
        session.tick(now: 101)
        #expect(session.kiosk.message == .saving, "not yet long enough to tell staff")
        usleep(1_100_000)
        session.tick(now: 102)
        guard case .saveFailed(let reason) = session.kiosk.message else { Issue.record("expected a staff message, got \(session.kiosk.message)"); return }
        #expect(reason.contains(dir) && reason.contains("no answer"), "\(reason)")

        answer.signal()
        #expect(exporter.waitUntilIdle(timeout: 10))
        session.tick(now: 103)
        let saved = session.savedCount, message = session.kiosk.message
        #expect(saved == 1)
        #expect(message == .saved, "the write returned: the staff message gives way to saved")
    }

    @Test func aFolderThatDoesNotAnswerSinceTheStartIsLoggedOnceBeforeAnySignatureWaits() throws {
        let parent = scratch()
        defer { removeScratch(parent) }
        let answer = DispatchSemaphore(value: 0)
        let clock = ManualClock()
        let exporter = Exporter(directory: parent + "/signatures", options: ExportOptions(), evidence: testEvidence, retrySeconds: 0.05,
                                spool: SignatureSpool(directory: parent + "/spool"), write: nil,
                                prepare: { _ = answer.wait(timeout: .now() + 10) }, clock: TimeSource(wall: clock.now, uptime: clock.now))
        defer { exporter.stop() }
        exporter.prepareBeforeWriting { _ in }
        let session = try Session(SessionOptions(try quietConfig()), display: OffscreenDisplay(width: 800, height: 480), exporter: exporter, painter: cairoPainter)
        session.stalledWriteSeconds = 0.2
        // The writer's thread has begun to prepare the folder, however slowly the machine runs.
        let started = Date(timeIntervalSinceNow: 10)
        while exporter.stall(longerThan: -1) == nil && Date() < started { usleep(1_000) }
        session.tick(now: 1)
        #expect(notices(session).isEmpty, "not yet long enough")
        clock.advance(0.3)
        session.tick(now: 2)
        session.tick(now: 3)
        #expect(notices(session) == [Notice(.warning, "the export folder does not answer; signatures are kept until it does", [
            "folder": "\(parent)/signatures", "seconds": "0", "kept": "kept in the spool \(parent)/spool", "why": "a network share whose server is down?",
        ])])
        #expect(session.kiosk.message == .none, "nobody's signature waits: nothing for the customer to see")
        answer.signal()
    }

    /// A folder unwritable for 25 minutes (a retry every 0.05 s here, every 5 s by default) is
    /// said once, then every ten minutes with how often it failed meanwhile, and its end is said:
    /// it used to be one line per retry, and a list of every failure kept for as long as the daemon ran.
    @Test func aFolderThatStaysUnwritableIsLoggedOnceEveryTenMinutes() throws {
        let parent = scratch()
        defer { removeScratch(parent) }
        let exporter = Exporter(directory: parent + "/signatures", options: ExportOptions(), evidence: testEvidence, retrySeconds: 0.05)
        defer { exporter.stop() }
        let session = try Session(SessionOptions(try quietConfig()), display: OffscreenDisplay(width: 800, height: 480), exporter: exporter, painter: cairoPainter)
        var told: [Notice] = []
        var decoder = try ContactDecoder(device: try demoRecording().device, screenWidth: 800, screenHeight: 480)
        for event in try demoRecording().events { decoder.feed(event) { session.handle($0, device: "t", now: event.seconds) } }
        session.confirm(now: 100)
        usleep(300_000)  // the first failures are in by the first tick
        for minute in 1...25 {
            usleep(100_000)
            session.tick(now: 100 + Double(minute) * 60)
            told += notices(session)
        }
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        #expect(exporter.waitUntilIdle(timeout: 10))
        session.tick(now: 100 + 26 * 60)
        told += notices(session)
        let failures = told.filter { $0.level == .error && $0.message == "export failed, kept and retried" }
        // A retry's result is read at the next tick, so the lines come at minutes 1, 11 or 12, and 21 to 23.
        #expect(failures.count == 3, "\(failures)")
        #expect(failures.dropFirst().allSatisfy { ($0.fields["repeated"] ?? "").contains(" more times over the last 1") && ($0.fields["repeated"] ?? "").hasSuffix(" min") },
                "\(failures.map(\.line))")
        #expect(told.contains { $0.level == .notice && $0.message == "signature saved; writes work again after 25 min of failures" }, "\(told.filter { $0.level != .error })")
        #expect(session.savedCount == 1 && session.lastFailure != nil)
    }

    @Test func anExportThatFailsIsWrittenOnceTheFolderWorks() throws {
        let parent = scratch()
        defer { removeScratch(parent) }
        let dir = parent + "/signatures"
        let exporter = Exporter(directory: dir, options: ExportOptions(), evidence: testEvidence, retrySeconds: 0.05)
        defer { exporter.stop() }
        let session = try signedAndConfirmed(into: exporter)  // the parent folder does not exist yet: fails
        #expect(!exporter.waitUntilIdle(timeout: 0.3))
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        #expect(exporter.waitUntilIdle(timeout: 10))
        session.tick(now: 102)
        // Read into locals first: in debug builds, #expect reading these through the class
        // reference crashed in swift_retain (ASan and TSan clean; a print beforehand hid it).
        let saved = session.savedCount, message = session.kiosk.message
        #expect(saved == 1)
        #expect(message == .saved)
    }
}

/// The kiosk screen as the daemon draws it, with cairo, in the default style.
func cairoPainter(width: Int, height: Int) throws -> any ScreenPainter {
    try ChromePainter(style: KioskStyle(), backgroundImage: nil, width: width, height: height)
}

/// What the session told the journal since the last take (its other events dropped).
func notices(_ session: Session) -> [Notice] {
    session.takeEvents().compactMap { if case .notice(let notice) = $0 { notice } else { nil } }
}
