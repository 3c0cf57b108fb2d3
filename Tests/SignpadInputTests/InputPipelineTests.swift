import SignpadInput
import SignpadTestSupport
import SignpadVocabulary
import Testing

/// What reaches the kiosk from the pipeline, in order.
private final class Recorder: InputSink {
    var strokes: [(event: StrokeEvent, device: String)] = []
    var hovers: [Point] = []
    var notices: [InputNotice] = []

    func handle(_ event: StrokeEvent, device: String, now: Double) { strokes.append((event, device)) }
    func penHovers(at point: Point, now: Double) { hovers.append(point) }
    func inputNotice(_ notice: InputNotice, now: Double) { notices.append(notice) }
    func takeInputCommand() -> InputCommand? { nil }

    var downs: [String] { strokes.compactMap { if case .down = $0.event { $0.device } else { nil } } }
    var withdrawals: Int { strokes.filter { if case .withdraw = $0.event { true } else { false } }.count }
}

/// The daemon and replay read every device through one pipeline: decoders, the arbiter between
/// them, the pen's proximity and the let-go of a contact the kiosk gave up.
@Suite struct InputPipelineTests {
    static let touchPath = "/dev/input/event4", penPath = "/dev/input/event5"

    /// A pipeline reading a touchscreen (index 0) and a pen (index 1) on an 800x480 screen.
    static func panel() throws -> InputPipeline {
        var pipeline = InputPipeline()
        for (path, description) in [(touchPath, DeviceDescription.touchscreen(name: "panel touch", xMaximum: 799, yMaximum: 479)), (penPath, DeviceDescription.pen(name: "panel pen", axisMaximum: 799))] {
            let decoder = try ContactDecoder(device: description, screenWidth: 800, screenHeight: 480)
            pipeline.add(path: path, name: description.name, kind: decoder.kind, decoder: decoder)
        }
        return pipeline
    }

    static let event = rawEvent

    /// The events of one frame at `time`, ended by SYN_REPORT.
    static func frame(_ time: Double, _ items: [(UInt16, UInt16, Int32)]) -> [InputEvent] {
        items.map { event(time, $0.0, $0.1, $0.2) } + [event(time, EventCode.EV_SYN, EventCode.SYN_REPORT, 0)]
    }

    typealias C = EventCode

    /// A panel whose driver reports the position on ABS_Z and ABS_RX: ABS_X and ABS_Y stay put, so
    /// every touch draws a dot where the last left off. After three such touches the journal hears
    /// which axes moved instead, once; touches that move where signpad reads never raise it.
    @Test func touchesThatNeverMoveWhereSignpadReadsWhileOtherAxesDoAreToldOnce() throws {
        var pipeline = try Self.panel()
        let sink = Recorder()
        func touch(at time: Double, movingX: Bool) -> [InputEvent] {
            let moving: (UInt16, UInt16, Int32) = movingX ? (C.EV_ABS, C.ABS_X, 300 + Int32(time)) : (C.EV_ABS, 0x02, 300 + Int32(time))
            return Self.frame(time, [(C.EV_ABS, C.ABS_X, 100), (C.EV_ABS, C.ABS_Y, 100), (C.EV_KEY, C.BTN_TOUCH, 1)])
                + Self.frame(time + 0.01, [moving, (C.EV_ABS, 0x03, 200 + Int32(time))])
                + Self.frame(time + 0.02, [(C.EV_KEY, C.BTN_TOUCH, 0)])
        }
        for event in touch(at: 1, movingX: true) + touch(at: 2, movingX: false) + touch(at: 3, movingX: false) {
            pipeline.feed(event, from: 0, now: event.seconds, into: sink)
        }
        #expect(sink.notices.isEmpty, "two touches are not enough to say")
        for event in touch(at: 4, movingX: false) + touch(at: 5, movingX: false) {
            pipeline.feed(event, from: 0, now: event.seconds, into: sink)
        }
        #expect(sink.notices == [.positionNeverMoves(path: Self.touchPath, movingAxes: ["ABS_Z", "ABS_RX"])])
    }

    @Test func signpadDevicesNamesTheAxesItDoesNotReadThatCouldHoldAPosition() {
        var description = DeviceDescription.touchscreen(name: "odd panel", xMaximum: 799, yMaximum: 479)
        #expect(description.unreadPositionLikeAxes.isEmpty, "x, y and pressure are read or no position")
        for axis: UInt16 in [0x03, 0x02, 0x1a] { description.absInfo[axis] = description.absInfo[C.ABS_X] }
        #expect(description.unreadPositionLikeAxes == ["ABS_Z", "ABS_RX"], "tilt is no position")
    }

    @Test func eachStrokeCarriesTheDeviceItWasDrawnWith() throws {
        var pipeline = try Self.panel()
        let sink = Recorder()
        let touchStroke = Self.frame(0, [(C.EV_ABS, C.ABS_X, 100), (C.EV_ABS, C.ABS_Y, 100), (C.EV_KEY, C.BTN_TOUCH, 1)])
            + Self.frame(0.01, [(C.EV_ABS, C.ABS_X, 140)]) + Self.frame(0.02, [(C.EV_KEY, C.BTN_TOUCH, 0)])
        for event in touchStroke { pipeline.feed(event, from: 0, now: event.seconds, into: sink) }
        let penStroke = Self.frame(3, [(C.EV_KEY, C.BTN_TOOL_PEN, 1), (C.EV_ABS, C.ABS_X, 300), (C.EV_ABS, C.ABS_Y, 300)])
            + Self.frame(3.01, [(C.EV_KEY, C.BTN_TOUCH, 1)]) + Self.frame(3.02, [(C.EV_ABS, C.ABS_X, 350)])
            + Self.frame(3.03, [(C.EV_KEY, C.BTN_TOUCH, 0)]) + Self.frame(3.04, [(C.EV_KEY, C.BTN_TOOL_PEN, 0)])
        for event in penStroke { pipeline.feed(event, from: 1, now: event.seconds, into: sink) }
        #expect(sink.downs == ["panel touch", "panel pen"])
        #expect(sink.strokes.allSatisfy { !$0.device.isEmpty })
        #expect(!sink.hovers.isEmpty, "the pen above the glass is reported as it hovers")
    }

    /// A hand writing on the touchscreen when the pen comes near is taken back, inside the
    /// pipeline: neither the daemon nor replay wires it.
    @Test func aPenComingNearTakesBackTheTouchInProgress() throws {
        var pipeline = try Self.panel()
        let sink = Recorder()
        let hand = Self.frame(0, [(C.EV_ABS, C.ABS_X, 100), (C.EV_ABS, C.ABS_Y, 100), (C.EV_KEY, C.BTN_TOUCH, 1)])
            + Self.frame(0.05, [(C.EV_ABS, C.ABS_X, 160)])
        for event in hand { pipeline.feed(event, from: 0, now: event.seconds, into: sink) }
        #expect(sink.withdrawals == 0)
        for event in Self.frame(0.1, [(C.EV_KEY, C.BTN_TOOL_PEN, 1), (C.EV_ABS, C.ABS_X, 300), (C.EV_ABS, C.ABS_Y, 300)]) {
            pipeline.feed(event, from: 1, now: event.seconds, into: sink)
        }
        #expect(sink.withdrawals == 1)
        #expect(sink.notices == [.penTookBackTouch(path: Self.penPath, landed: false)])
        // The hand goes on moving: it draws nothing while the pen is near.
        let before = sink.strokes.count
        for event in Self.frame(0.15, [(C.EV_ABS, C.ABS_X, 200)]) { pipeline.feed(event, from: 0, now: event.seconds, into: sink) }
        #expect(sink.strokes.count == before)
    }

    /// The same on a multitouch panel, where the hand stays down and moves on: the arbiter's take-
    /// back lets its decoder go of it, so once the pen has gone a finger that writes beside the
    /// hand is drawn, not held back behind a hand its decoder still followed.
    @Test func aHandTakenBackForThePenIsLetGoOfByItsDecoder() throws {
        var pipeline = InputPipeline()
        for (path, description) in [(Self.touchPath, SignpadInputTests.panel()), (Self.penPath, DeviceDescription.pen(name: "panel pen", axisMaximum: 999))] {
            let decoder = try ContactDecoder(device: description, screenWidth: 1000, screenHeight: 1000)
            pipeline.add(path: path, name: description.name, kind: decoder.kind, decoder: decoder)
        }
        let sink = Recorder()
        func feed(_ events: [InputEvent], from index: Int) { for event in events { pipeline.feed(event, from: index, now: event.seconds, into: sink) } }
        feed(Self.frame(0, touch(slot: 0, id: 1, x: 100, y: 100)) + Self.frame(0.05, moveTo(slot: 0, x: 160, y: 100)), from: 0)
        feed(Self.frame(0.1, [(C.EV_KEY, C.BTN_TOOL_PEN, 1), (C.EV_ABS, C.ABS_X, 500), (C.EV_ABS, C.ABS_Y, 500)]), from: 1)
        feed(Self.frame(0.2, [(C.EV_KEY, C.BTN_TOOL_PEN, 0)]), from: 1)
        #expect(sink.withdrawals == 1, "the hand is taken back for the pen")
        // The pen has gone; the hand moves on, and a finger writes beside it.
        feed(Self.frame(2, moveTo(slot: 0, x: 200, y: 100)) + Self.frame(2.1, touch(slot: 1, id: 2, x: 600, y: 600)), from: 0)
        for step in 1...4 { feed(Self.frame(2.1 + Double(step) * 0.01, moveTo(slot: 1, x: 600 + Int32(step) * 20, y: 600)), from: 0) }
        #expect(sink.downs == ["test panel", "test panel"], "the finger beside the hand is drawn")
        #expect(sink.strokes.last.map { if case .move(let s) = $0.event { s.point == Point(680, 600) } else { false } } == true)
    }

    /// The kiosk gave up a touch held past the idle timeout: the device stops following it and
    /// the paper is free, so the next touch to land (here on the pen) draws.
    @Test func aTouchLetGoOfFreesThePaperForTheNextContact() throws {
        var pipeline = try Self.panel()
        let sink = Recorder()
        for event in Self.frame(0, [(C.EV_ABS, C.ABS_X, 100), (C.EV_ABS, C.ABS_Y, 100), (C.EV_KEY, C.BTN_TOUCH, 1)]) {
            pipeline.feed(event, from: 0, now: event.seconds, into: sink)
        }
        pipeline.letGoOfTouch(now: 60, into: sink)
        #expect(sink.notices == [.touchLetGo(path: Self.touchPath)])
        // The held touch moves on: let go of, it draws nothing.
        for event in Self.frame(61, [(C.EV_ABS, C.ABS_X, 300)]) { pipeline.feed(event, from: 0, now: event.seconds, into: sink) }
        #expect(sink.strokes.count == 1)
        for event in Self.frame(62, [(C.EV_KEY, C.BTN_TOOL_PEN, 1), (C.EV_ABS, C.ABS_X, 400), (C.EV_ABS, C.ABS_Y, 400), (C.EV_KEY, C.BTN_TOUCH, 1)]) {
            pipeline.feed(event, from: 1, now: event.seconds, into: sink)
        }
        #expect(sink.downs == ["panel touch", "panel pen"])
    }

    /// A device unplugged mid-stroke ends that stroke; the other device draws on.
    @Test func aDeviceRemovedMidStrokeEndsItsStroke() throws {
        var pipeline = try Self.panel()
        let sink = Recorder()
        for event in Self.frame(0, [(C.EV_ABS, C.ABS_X, 100), (C.EV_ABS, C.ABS_Y, 100), (C.EV_KEY, C.BTN_TOUCH, 1)]) {
            pipeline.feed(event, from: 0, now: event.seconds, into: sink)
        }
        pipeline.remove(Self.touchPath, now: 1, into: sink)
        #expect(sink.strokes.last.map { if case .cancel = $0.event { true } else { false } } == true)
        #expect(pipeline.devices.map(\.path) == [Self.penPath])
        #expect(pipeline.index(of: Self.penPath) == 0)
    }

    /// The touchscreen unplugged while the pen writes: the pen, now first in the list, keeps the
    /// paper and its stroke goes on to its lift.
    @Test func aDeviceRemovedBeforeTheWritingOneLeavesItsStrokeWhole() throws {
        var pipeline = try Self.panel()
        let sink = Recorder()
        func pen(_ events: [InputEvent]) { for event in events { pipeline.feed(event, from: pipeline.index(of: Self.penPath)!, now: event.seconds, into: sink) } }
        pen(Self.frame(0, [(C.EV_KEY, C.BTN_TOOL_PEN, 1), (C.EV_ABS, C.ABS_X, 300), (C.EV_ABS, C.ABS_Y, 300), (C.EV_KEY, C.BTN_TOUCH, 1)]))
        pipeline.remove(Self.touchPath, now: 0.5, into: sink)
        pen(Self.frame(1, [(C.EV_ABS, C.ABS_X, 350)]) + Self.frame(1.01, [(C.EV_KEY, C.BTN_TOUCH, 0)]))
        let events = sink.strokes.map { stroke -> String in
            switch stroke.event {
            case .down: "down"
            case .move: "move"
            case .up: "up"
            case .cancel: "cancel"
            case .withdraw: "withdraw"
            }
        }
        #expect(events == ["down", "move", "up"])
    }

    @Test func droppedEventsAreToldWithTheirDevice() throws {
        var pipeline = try Self.panel()
        let sink = Recorder()
        pipeline.feed(Self.event(0, C.EV_SYN, C.SYN_DROPPED, 0), from: 1, now: 0, into: sink)
        #expect(sink.notices == [.eventsDropped(path: Self.penPath)])
    }
}
