import SignpadConfig
import SignpadExport
import SignpadInput
import SignpadOutbox
import SignpadSession
import SignpadTestSupport
import SignpadVocabulary
import Testing

/// The kiosk gives a touch up (a request begins or is cancelled under it, or the idle timeout):
/// the touch's device must let go of it at once, so the next finger is followed, not only when
/// time passes (`tick`).
@Suite struct LetGoTests {
    /// A multitouch panel whose units are the screen's pixels, 800x480, 4 slots.
    static func panel() -> DeviceDescription {
        typealias C = EventCode
        var d = DeviceDescription(name: "panel")
        d.properties = [C.INPUT_PROP_DIRECT]
        d.codes[C.EV_KEY] = [C.BTN_TOUCH]
        d.codes[C.EV_ABS] = [C.ABS_MT_SLOT, C.ABS_MT_POSITION_X, C.ABS_MT_POSITION_Y, C.ABS_MT_TRACKING_ID]
        d.absInfo[C.ABS_MT_POSITION_X] = AbsInfo(minimum: 0, maximum: 799)
        d.absInfo[C.ABS_MT_POSITION_Y] = AbsInfo(minimum: 0, maximum: 479)
        d.absInfo[C.ABS_MT_SLOT] = AbsInfo(minimum: 0, maximum: 3)
        d.absInfo[C.ABS_MT_TRACKING_ID] = AbsInfo(minimum: 0, maximum: 65535)
        return d
    }

    /// Feeds the session one frame of the panel's events at `time`.
    struct Panel {
        let session: Session
        let device: Int
        var time = 1.0

        mutating func frame(_ body: [(UInt16, Int32)]) {
            time += 0.01
            for (code, value) in body { session.feed(rawEvent(time, EventCode.EV_ABS, code, value), from: device, now: time) }
            session.feed(rawEvent(time, EventCode.EV_SYN, EventCode.SYN_REPORT, 0), from: device, now: time)
        }

        mutating func touch(slot: Int32, id: Int32, at point: (Int32, Int32)) {
            frame([(EventCode.ABS_MT_SLOT, slot), (EventCode.ABS_MT_TRACKING_ID, id), (EventCode.ABS_MT_POSITION_X, point.0), (EventCode.ABS_MT_POSITION_Y, point.1)])
        }

        mutating func move(slot: Int32, to point: (Int32, Int32)) {
            frame([(EventCode.ABS_MT_SLOT, slot), (EventCode.ABS_MT_POSITION_X, point.0), (EventCode.ABS_MT_POSITION_Y, point.1)])
        }

        /// A finger in `slot` lands at `start` and writes 60 px to the right.
        mutating func write(slot: Int32, id: Int32, from start: (Int32, Int32)) {
            touch(slot: slot, id: id, at: start)
            for step in 1...6 { move(slot: slot, to: (start.0 + Int32(step) * 10, start.1)) }
        }
    }

    static func session() throws -> (Session, Panel, Exporter) {
        let config = try Config.load(text: "", file: "(test)", overrides: ["control.socket=\"\""])
        let exporter = Exporter(directory: "/proc/signpad-never-written", options: ExportOptions(), evidence: testEvidence, retrySeconds: 60)
        let session = try Session(SessionOptions(config), display: OffscreenDisplay(width: 800, height: 480), exporter: exporter,
                                  painter: { _, _ in BoxPainter() })
        let decoder = try ContactDecoder(device: panel(), screenWidth: 800, screenHeight: 480)
        let device = session.addInput(path: "/dev/input/event7", name: "panel", kind: decoder.kind, decoder: decoder)
        return (session, Panel(session: session, device: device), exporter)
    }

    /// Where in the box a finger lands: `fraction` of the way across, in the middle.
    static func inBox(_ session: Session, _ fraction: Double) -> (Int32, Int32) {
        let box = session.kiosk.layout.box
        return (Int32(Double(box.minX) + Double(box.width) * fraction), Int32(box.minY + box.height / 2))
    }

    /// Finger A writes; a request begins (its text takes the box, the walk-up ink is wiped, A let
    /// go of); finger B writes while A stays down. B is the customer's signature.
    @Test func aFingerWritingAfterARequestBeganUnderAnotherIsDrawn() throws {
        var (session, panel, exporter) = try Self.session()
        defer { exporter.stop() }
        panel.write(slot: 0, id: 1, from: Self.inBox(session, 0.2))
        #expect(session.kiosk.hasInk, "finger A drew")
        session.beginRequest(id: "R1", context: SignatureRequest(reference: "R1"), timeout: 60, now: panel.time)
        #expect(!session.kiosk.hasInk, "the request wiped the walk-up ink")
        let told = session.takeEvents().compactMap { if case .notice(let notice) = $0 { notice } else { nil } }
        let letGo = Notice(.info, "a touch is let go of; the next finger to land is followed", ["device": "/dev/input/event7", "why": "a request began under it"])
        #expect(told.contains(letGo), "\(told)")
        panel.move(slot: 0, to: Self.inBox(session, 0.3))
        let b = Self.inBox(session, 0.5)
        panel.write(slot: 1, id: 2, from: b)
        let strokes = session.kiosk.signature.strokes
        #expect(strokes.count == 1 && strokes.first?.first?.point == Point(Double(b.0), Double(b.1)), "finger B is drawn: \(strokes)")
    }

    /// The same when the point of sale cancels its request under finger A.
    @Test func aFingerWritingAfterARequestWasCancelledUnderAnotherIsDrawn() throws {
        var (session, panel, exporter) = try Self.session()
        defer { exporter.stop() }
        session.beginRequest(id: "R1", context: SignatureRequest(reference: "R1"), timeout: 60, now: panel.time)
        panel.write(slot: 0, id: 1, from: Self.inBox(session, 0.2))
        #expect(session.kiosk.hasInk, "finger A drew")
        session.cancelRequest(now: panel.time)
        panel.move(slot: 0, to: Self.inBox(session, 0.3))
        let b = Self.inBox(session, 0.5)
        panel.write(slot: 1, id: 2, from: b)
        let strokes = session.kiosk.signature.strokes
        #expect(strokes.count == 1 && strokes.first?.first?.point == Point(Double(b.0), Double(b.1)), "finger B is drawn: \(strokes)")
    }
}
