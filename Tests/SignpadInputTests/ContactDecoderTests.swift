import SignpadInput
import SignpadTestSupport
import SignpadVocabulary
import Testing

typealias C = EventCode

/// A small multitouch panel, 0…999 on both axes, 4 slots, INPUT_PROP_DIRECT.
func panel() -> DeviceDescription {
    var d = DeviceDescription(name: "test panel")
    d.properties = [C.INPUT_PROP_DIRECT]
    d.codes[C.EV_KEY] = [C.BTN_TOUCH]
    d.codes[C.EV_ABS] = [C.ABS_X, C.ABS_Y, C.ABS_MT_SLOT, C.ABS_MT_POSITION_X, C.ABS_MT_POSITION_Y, C.ABS_MT_TRACKING_ID, C.ABS_MT_TOOL_TYPE]
    for code in [C.ABS_X, C.ABS_Y, C.ABS_MT_POSITION_X, C.ABS_MT_POSITION_Y] { d.absInfo[code] = AbsInfo(minimum: 0, maximum: 999) }
    d.absInfo[C.ABS_MT_SLOT] = AbsInfo(minimum: 0, maximum: 3)
    d.absInfo[C.ABS_MT_TRACKING_ID] = AbsInfo(minimum: 0, maximum: 65535)
    d.absInfo[C.ABS_MT_TOOL_TYPE] = AbsInfo(minimum: 0, maximum: 2)
    return d
}

extension RawEventStream {
    /// Decoded on the test panel.
    func decode(width: Int = 1000, height: Int = 1000) throws -> [StrokeEvent] { try decode(panel(), width: width, height: height) }
}

func touch(slot: Int32, id: Int32, x: Int32, y: Int32) -> [(UInt16, UInt16, Int32)] {
    [(C.EV_ABS, C.ABS_MT_SLOT, slot), (C.EV_ABS, C.ABS_MT_TRACKING_ID, id), (C.EV_ABS, C.ABS_MT_POSITION_X, x), (C.EV_ABS, C.ABS_MT_POSITION_Y, y)]
}

func lift(slot: Int32) -> [(UInt16, UInt16, Int32)] {
    [(C.EV_ABS, C.ABS_MT_SLOT, slot), (C.EV_ABS, C.ABS_MT_TRACKING_ID, -1)]
}

func moveTo(slot: Int32, x: Int32, y: Int32) -> [(UInt16, UInt16, Int32)] {
    [(C.EV_ABS, C.ABS_MT_SLOT, slot), (C.EV_ABS, C.ABS_MT_POSITION_X, x), (C.EV_ABS, C.ABS_MT_POSITION_Y, y)]
}

func points(_ events: [StrokeEvent]) -> [Point] {
    events.compactMap {
        switch $0 {
        case .down(let s), .move(let s): return s.point
        default: return nil
        }
    }
}

@Suite struct ContactDecoderTests {
    @Test func aLiftIsATrackingIdOfMinusOneEvenWithoutBtnTouchRelease() throws {
        var s = RawEventStream()
        s.frame(touch(slot: 0, id: 5, x: 100, y: 100) + [(C.EV_KEY, C.BTN_TOUCH, 1)])
        s.frame(moveTo(slot: 0, x: 200, y: 100))
        s.frame(lift(slot: 0))
        let out = try s.decode()
        #expect(out.count == 3)
        #expect(out[0] == .down(Sample(Point(100, 100), time: 1.01)))
        #expect(points(out) == [Point(100, 100), Point(200, 100)])
        #expect(out[2] == .up)
    }

    /// Both fingers write: the first is followed; the second, down when the first lifts, is in the
    /// middle of its path and ignored until it lifts; the next to land is followed.
    @Test func aFingerDownWhenTheFollowedOneLiftsIsIgnoredUntilItLifts() throws {
        var s = RawEventStream()
        s.frame(touch(slot: 0, id: 1, x: 100, y: 100))
        s.frame(touch(slot: 1, id: 2, x: 800, y: 800))
        s.frame(moveTo(slot: 1, x: 810, y: 810) + moveTo(slot: 0, x: 120, y: 100))
        s.frame(lift(slot: 0))
        s.frame(moveTo(slot: 1, x: 820, y: 820))  // the second finger alone: still ignored
        s.frame(lift(slot: 1))
        s.frame(touch(slot: 1, id: 3, x: 300, y: 300))  // a new finger
        let out = try s.decode()
        #expect(points(out) == [Point(100, 100), Point(120, 100), Point(300, 300)])
        #expect(out.filter { $0 == .up }.count == 1)
    }

    /// A drop of water holds slot 0 down and still; the kiosk gives it up at its idle timeout. The
    /// customer's long press (still for 1.5 s), landing while it stays, is followed; the drop's lift
    /// is nothing. (A finger that writes or taps is followed at once:
    /// `aStillContactIsWithdrawnWhenAnotherWrites`, `aTapBesideAStillContactIsTheCustomers`.)
    @Test func aContactLetGoOfNoLongerHoldsBackTheNextFinger() throws {
        var before = RawEventStream(), after = RawEventStream()
        before.frame(touch(slot: 0, id: 1, x: 900, y: 900) + [(C.EV_KEY, C.BTN_TOUCH, 1)])
        after.time = before.time + 60_000_000
        after.frame(touch(slot: 1, id: 2, x: 100, y: 100))
        after.frame(moveTo(slot: 1, x: 104, y: 100))
        after.time += 1_500_000
        after.frame(lift(slot: 1))
        after.frame(moveTo(slot: 0, x: 905, y: 900))
        after.frame(lift(slot: 0) + [(C.EV_KEY, C.BTN_TOUCH, 0)])
        after.frame(touch(slot: 0, id: 3, x: 500, y: 500) + [(C.EV_KEY, C.BTN_TOUCH, 1)])

        func decode(lettingGo: Bool) throws -> [StrokeEvent] {
            var decoder = try ContactDecoder(device: panel(), screenWidth: 1000, screenHeight: 1000)
            var out: [StrokeEvent] = []
            for e in before.events { decoder.feed(e) { out.append($0) } }
            if lettingGo { decoder.letGoOfContacts() }
            for e in after.events { decoder.feed(e) { out.append($0) } }
            return out
        }
        let letGo = try decode(lettingGo: true)
        #expect(letGo.count == 5, "the drop's down, the press's down, move and up, the next finger's down")
        #expect(points(letGo) == [Point(900, 900), Point(100, 100), Point(104, 100), Point(500, 500)])
        #expect(letGo.filter { $0 == .up }.count == 1, "the drop's lift reports nothing")
        let held = try decode(lettingGo: false)
        #expect(points(held) == [Point(900, 900), Point(905, 900), Point(500, 500)], "without it, the drop holds the panel")
    }

    @Test func aSingleTouchContactLetGoOfIsIgnoredUntilItLifts() throws {
        let d = DeviceDescription.touchscreen(name: "single", xMaximum: 999, yMaximum: 999)
        var decoder = try ContactDecoder(device: d, screenWidth: 1000, screenHeight: 1000)
        var before = RawEventStream(), after = RawEventStream()
        before.frame([(C.EV_KEY, C.BTN_TOUCH, 1), (C.EV_ABS, C.ABS_X, 900), (C.EV_ABS, C.ABS_Y, 900)])
        after.frame([(C.EV_ABS, C.ABS_X, 910)])
        after.frame([(C.EV_KEY, C.BTN_TOUCH, 0)])
        after.frame([(C.EV_KEY, C.BTN_TOUCH, 1), (C.EV_ABS, C.ABS_X, 100), (C.EV_ABS, C.ABS_Y, 100)])
        var out: [StrokeEvent] = []
        for e in before.events { decoder.feed(e) { out.append($0) } }
        decoder.letGoOfContacts()
        for e in after.events { decoder.feed(e) { out.append($0) } }
        #expect(points(out) == [Point(900, 900), Point(100, 100)])
        #expect(!out.contains(.up))
    }

    /// A hand or water rests in slot 0 and is followed; a finger lands in slot 1 and writes. The
    /// resting contact's stroke is taken back, the finger's starts where and when it landed, and
    /// the finger's next strokes are followed while the hand stays; its lift is nothing. The
    /// finger's samples before it went further than `StrokeEvent.stillRadius` are all drawn.
    @Test func aStillContactIsWithdrawnWhenAnotherWrites() throws {
        var s = RawEventStream()
        s.frame(touch(slot: 0, id: 1, x: 900, y: 900))
        s.frame(moveTo(slot: 0, x: 905, y: 903))  // the hand shifts a little: still
        s.frame(touch(slot: 1, id: 2, x: 100, y: 100))
        let landed = Double(s.time) / 1e6
        s.frame(moveTo(slot: 1, x: 106, y: 100))
        s.frame(moveTo(slot: 1, x: 130, y: 100))
        s.frame(moveTo(slot: 1, x: 160, y: 110))
        s.frame(lift(slot: 1))
        s.frame(touch(slot: 1, id: 3, x: 300, y: 300))
        s.frame(moveTo(slot: 1, x: 340, y: 300))
        s.frame(lift(slot: 1))
        s.frame(moveTo(slot: 0, x: 960, y: 900))
        s.frame(lift(slot: 0))
        let out = try s.decode()
        #expect(Array(out.prefix(4)) == [.down(Sample(Point(900, 900), time: 1.01)), .move(Sample(Point(905, 903), time: 1.02)),
                                         .withdraw, .down(Sample(Point(100, 100), time: landed))])
        #expect(points(out) == [Point(900, 900), Point(905, 903), Point(100, 100), Point(106, 100), Point(130, 100), Point(160, 110),
                                Point(300, 300), Point(340, 300)])
        #expect(out.filter { $0 == .up }.count == 2, "the finger's two strokes; the hand's lift is nothing")
        #expect(out.filter { $0 == .withdraw }.count == 1)
    }

    /// The hand lifts (its dot stays: it may have been a tap) before the finger that landed beside
    /// it moves: the finger is followed from where and when it landed once it writes.
    @Test func aFingerWaitingBesideAStillContactIsFollowedWhenItWritesAfterThatLifts() throws {
        var s = RawEventStream()
        s.frame(touch(slot: 0, id: 1, x: 900, y: 900))
        s.frame(touch(slot: 1, id: 2, x: 100, y: 100))
        let landed = Double(s.time) / 1e6
        s.frame(moveTo(slot: 1, x: 103, y: 100))
        s.frame(lift(slot: 0))
        s.frame(moveTo(slot: 1, x: 108, y: 100))
        s.frame(moveTo(slot: 1, x: 140, y: 100))
        s.frame(lift(slot: 1))
        let out = try s.decode()
        #expect(Array(out.prefix(3)) == [.down(Sample(Point(900, 900), time: 1.01)), .up, .down(Sample(Point(100, 100), time: landed))])
        #expect(points(out) == [Point(900, 900), Point(100, 100), Point(103, 100), Point(108, 100), Point(140, 100)])
        #expect(out.last == .up)
        #expect(!out.contains(.withdraw))
    }

    /// A hand or water rests in slot 0 and is followed; the customer taps (a button, a dot) in
    /// slot 1. The resting contact's stroke is taken back and the tap is drawn whole. A press held
    /// longer than `tapSeconds` is no tap, nor is one by a contact that landed before the still one.
    @Test func aTapBesideAStillContactIsTheCustomers() throws {
        var s = RawEventStream()
        s.frame(touch(slot: 0, id: 1, x: 900, y: 900))
        s.frame(touch(slot: 1, id: 2, x: 100, y: 100))
        let landed = Double(s.time) / 1e6
        s.frame(moveTo(slot: 1, x: 103, y: 101))
        s.frame(lift(slot: 1))
        s.frame(touch(slot: 1, id: 3, x: 300, y: 300))  // the hand is let go of: the next finger is followed
        let out = try s.decode()
        #expect(out == [.down(Sample(Point(900, 900), time: 1.01)), .withdraw, .down(Sample(Point(100, 100), time: landed)),
                        .move(Sample(Point(103, 101), time: landed + 0.01)), .up, .down(Sample(Point(300, 300), time: landed + 0.03))])

        var long = RawEventStream()
        long.frame(touch(slot: 0, id: 1, x: 900, y: 900))
        long.frame(touch(slot: 1, id: 2, x: 100, y: 100))
        long.time += 1_000_000
        long.frame(lift(slot: 1))
        #expect(try long.decode() == [.down(Sample(Point(900, 900), time: 1.01))], "a press of 1.01 s beside it is no tap")

        // Slot 0 lands, slot 1 waits; slot 0 lifts and slot 2 lands, still; slot 1 lifts quickly.
        var earlier = RawEventStream()
        earlier.frame(touch(slot: 0, id: 1, x: 900, y: 900))
        earlier.frame(touch(slot: 1, id: 2, x: 100, y: 100))
        earlier.frame(lift(slot: 0))
        earlier.frame(touch(slot: 2, id: 3, x: 500, y: 500))
        earlier.frame(lift(slot: 1))
        #expect(try earlier.decode() == [.down(Sample(Point(900, 900), time: 1.01)), .up, .down(Sample(Point(500, 500), time: 1.04))],
                "the contact that waited since before the still one landed is no tap beside it")
    }

    /// Two contacts landing in one frame (two fingers, or a finger and a knuckle): the first is
    /// followed, and the second draws nothing, not even a dot once the first has lifted; nor does
    /// it take the first one's dot back as a tap beside a resting hand would.
    @Test func twoContactsLandingInOneFrameDrawOneDot() throws {
        for secondLiftsFirst in [false, true] {
            var s = RawEventStream()
            s.frame(touch(slot: 0, id: 1, x: 900, y: 900) + touch(slot: 1, id: 2, x: 100, y: 100))
            s.frame(lift(slot: secondLiftsFirst ? 1 : 0))
            s.frame(lift(slot: secondLiftsFirst ? 0 : 1))
            #expect(try s.decode() == [.down(Sample(Point(900, 900), time: 1.01)), .up], "the second lifting \(secondLiftsFirst ? "first" : "last")")
        }
    }

    /// The followed finger writes: another that lands and writes meanwhile is not followed.
    @Test func aContactThatWroteIsNeverWithdrawn() throws {
        var s = RawEventStream()
        s.frame(touch(slot: 0, id: 1, x: 100, y: 100))
        s.frame(moveTo(slot: 0, x: 150, y: 100))
        s.frame(touch(slot: 1, id: 2, x: 500, y: 500))
        s.frame(moveTo(slot: 1, x: 600, y: 500))
        s.frame(moveTo(slot: 0, x: 150, y: 101))
        let out = try s.decode()
        #expect(!out.contains(.withdraw))
        #expect(points(out) == [Point(100, 100), Point(150, 100), Point(150, 101)])
    }

    /// A hand the panel calls a palm rests in slot 0: a finger landing meanwhile is followed.
    @Test func aRestingPalmDoesNotHoldBackAFinger() throws {
        var s = RawEventStream()
        s.frame(touch(slot: 0, id: 1, x: 900, y: 900) + [(C.EV_ABS, C.ABS_MT_TOOL_TYPE, C.MT_TOOL_PALM)])
        s.frame(touch(slot: 1, id: 2, x: 100, y: 100))
        s.frame(moveTo(slot: 1, x: 150, y: 100))
        s.frame(lift(slot: 1))
        let out = try s.decode()
        #expect(points(out) == [Point(100, 100), Point(150, 100)])
        #expect(out.last == .up)
    }

    /// The panel decides a contact it followed is a palm after it wrote: the stroke ends at its
    /// last sample, the ink kept (a thumb pressed flat may be called one).
    @Test func aPalmThatWroteEndsItsStroke() throws {
        var s = RawEventStream()
        s.frame(touch(slot: 0, id: 1, x: 100, y: 100))
        s.frame(moveTo(slot: 0, x: 150, y: 100))
        s.frame([(C.EV_ABS, C.ABS_MT_SLOT, 0), (C.EV_ABS, C.ABS_MT_TOOL_TYPE, C.MT_TOOL_PALM)])
        s.frame(moveTo(slot: 0, x: 400, y: 400))
        let out = try s.decode()
        #expect(out.last == .cancel)
        #expect(!points(out).contains(Point(400, 400)))
    }

    /// A contact the panel calls a palm once followed, having lain still: taken back, never writing.
    @Test func aPalmThatLayStillIsWithdrawn() throws {
        var s = RawEventStream()
        s.frame(touch(slot: 0, id: 1, x: 100, y: 100))
        s.frame(moveTo(slot: 0, x: 104, y: 100))
        s.frame([(C.EV_ABS, C.ABS_MT_SLOT, 0), (C.EV_ABS, C.ABS_MT_TOOL_TYPE, C.MT_TOOL_PALM)])
        s.frame(moveTo(slot: 0, x: 400, y: 400))
        let out = try s.decode()
        #expect(out == [.down(Sample(Point(100, 100), time: 1.01)), .move(Sample(Point(104, 100), time: 1.02)), .withdraw])
    }

    @Test func synDroppedEndsTheStrokeAtTheLastGoodSampleWithoutBridgingTheGap() throws {
        var s = RawEventStream()
        s.frame(touch(slot: 0, id: 1, x: 100, y: 100))
        s.frame(moveTo(slot: 0, x: 150, y: 100))
        s.raw(C.EV_SYN, C.SYN_DROPPED, 0)
        s.frame(moveTo(slot: 0, x: 500, y: 500))  // lost events, ended by the SYN_REPORT
        s.frame(moveTo(slot: 0, x: 600, y: 500))
        s.frame(moveTo(slot: 0, x: 650, y: 500))
        s.frame([(C.EV_ABS, C.ABS_MT_TRACKING_ID, -1)])
        let out = try s.decode()
        #expect(out[0] == .down(Sample(Point(100, 100), time: 1.01)))
        #expect(out[1] == .move(Sample(Point(150, 100), time: 1.02)))
        #expect(out[2] == .cancel)
        guard case .down(let resumed) = out[3] else { Issue.record("expected the stroke to resume as a new one, got \(out[3])"); return }
        #expect(resumed.point == Point(600, 500))
        #expect(out.last == .up)
    }

    @Test func unplugMidStrokeEndsTheStroke() throws {
        var decoder = try ContactDecoder(device: panel(), screenWidth: 1000, screenHeight: 1000)
        var s = RawEventStream()
        s.frame(touch(slot: 0, id: 1, x: 100, y: 100))
        var out: [StrokeEvent] = []
        for e in s.events { decoder.feed(e) { out.append($0) } }
        decoder.cancel { out.append($0) }
        #expect(out.count == 2)
        #expect(out.last == .cancel)
    }

    @Test func contactsAlreadyDownAtOpenAreIgnoredUntilTheyLift() throws {
        var decoder = try ContactDecoder(device: panel(), screenWidth: 1000, screenHeight: 1000)
        decoder.setInitialState(slots: [(7, 500, 500), (-1, 0, 0), (-1, 0, 0), (-1, 0, 0)], currentSlot: 0, touching: true, x: 500, y: 500)
        var s = RawEventStream()
        s.frame(moveTo(slot: 0, x: 510, y: 500))
        s.frame([(C.EV_ABS, C.ABS_MT_TRACKING_ID, -1)])
        s.frame(touch(slot: 0, id: 8, x: 100, y: 100))
        var out: [StrokeEvent] = []
        for e in s.events { decoder.feed(e) { out.append($0) } }
        #expect(points(out) == [Point(100, 100)])
    }

    /// Water on the glass when signpad starts does not make the panel deaf: a finger landing while
    /// it stays is followed.
    @Test func aContactDownAtOpenDoesNotHoldBackTheNextFinger() throws {
        var decoder = try ContactDecoder(device: panel(), screenWidth: 1000, screenHeight: 1000)
        decoder.setInitialState(slots: [(7, 500, 500), (-1, 0, 0), (-1, 0, 0), (-1, 0, 0)], currentSlot: 0, touching: true, x: 500, y: 500)
        var s = RawEventStream()
        s.frame(touch(slot: 1, id: 8, x: 100, y: 100))
        s.frame(moveTo(slot: 0, x: 560, y: 500))
        s.frame(moveTo(slot: 1, x: 102, y: 100))
        s.frame(lift(slot: 1))
        var out: [StrokeEvent] = []
        for e in s.events { decoder.feed(e) { out.append($0) } }
        #expect(points(out) == [Point(100, 100), Point(102, 100)])
        #expect(out.last == .up)
    }

    @Test func outOfRangeValuesAreClampedToTheScreen() throws {
        var s = RawEventStream()
        s.frame(touch(slot: 0, id: 1, x: -50, y: 5000))
        let p = points(try s.decode())[0]
        #expect(p.x == 0)
        #expect(p.y < 1000 && p.y > 999)
    }

    @Test func absolutePointerDrawsWhileTheLeftButtonIsDown() throws {
        var d = DeviceDescription(name: "QEMU QEMU USB Tablet")
        d.codes[C.EV_KEY] = [C.BTN_LEFT, 0x111, 0x112]
        d.codes[C.EV_ABS] = [C.ABS_X, C.ABS_Y]
        d.absInfo[C.ABS_X] = AbsInfo(minimum: 0, maximum: 32767)
        d.absInfo[C.ABS_Y] = AbsInfo(minimum: 0, maximum: 32767)
        #expect(DeviceClassifier.classify(d) == .usable(.absolutePointer, .single))
        var s = RawEventStream()
        s.frame([(C.EV_ABS, C.ABS_X, 16384), (C.EV_ABS, C.ABS_Y, 16384)])  // moving, no button: nothing
        s.frame([(C.EV_KEY, C.BTN_LEFT, 1)])
        s.frame([(C.EV_ABS, C.ABS_X, 20000)])
        s.frame([(C.EV_KEY, C.BTN_LEFT, 0)])
        let out = try s.decode(d, width: 1024, height: 768)
        #expect(points(out) == [Point(512, 384), Point(625, 384)])
        #expect(out.last == .up)
    }

    @Test func penHoverIsNotInk() throws {
        let d = DeviceDescription.pen(axisMaximum: 999)
        var s = RawEventStream()
        s.frame([(C.EV_KEY, C.BTN_TOOL_PEN, 1), (C.EV_ABS, C.ABS_X, 10), (C.EV_ABS, C.ABS_Y, 10)])
        s.frame([(C.EV_ABS, C.ABS_X, 20)])
        s.frame([(C.EV_KEY, C.BTN_TOUCH, 1), (C.EV_ABS, C.ABS_PRESSURE, 1023)])
        s.frame([(C.EV_ABS, C.ABS_X, 30), (C.EV_ABS, C.ABS_PRESSURE, 0)])
        s.frame([(C.EV_KEY, C.BTN_TOUCH, 0)])
        s.frame([(C.EV_ABS, C.ABS_X, 90)])
        let out = try s.decode(d)
        #expect(points(out) == [Point(20, 10), Point(30, 10)])
        guard case .down(let first) = out[0], case .move(let second) = out[1] else { Issue.record("expected down, move"); return }
        #expect(first.pressure == 1)
        #expect(second.pressure == 0)
    }

    /// A pen's tilt goes with each sample in hundredths of a degree: evdev's resolution is units
    /// per radian (57: about one a degree), and an axis with none reports degrees. A touchscreen
    /// has none, nor a pen with one axis of the two.
    @Test func aPensTiltGoesWithItsSamples() throws {
        var d = DeviceDescription.pen(axisMaximum: 999)
        d.codes[C.EV_ABS, default: []].formUnion([C.ABS_TILT_X, C.ABS_TILT_Y])
        d.absInfo[C.ABS_TILT_X] = AbsInfo(minimum: -64, maximum: 63, resolution: 57)
        d.absInfo[C.ABS_TILT_Y] = AbsInfo(minimum: -64, maximum: 63)
        var s = RawEventStream()
        s.frame([(C.EV_KEY, C.BTN_TOOL_PEN, 1), (C.EV_ABS, C.ABS_X, 10), (C.EV_ABS, C.ABS_Y, 10), (C.EV_ABS, C.ABS_TILT_X, 30), (C.EV_ABS, C.ABS_TILT_Y, -20)])
        s.frame([(C.EV_KEY, C.BTN_TOUCH, 1)])
        s.frame([(C.EV_ABS, C.ABS_X, 30), (C.EV_ABS, C.ABS_TILT_X, -64)])
        s.frame([(C.EV_KEY, C.BTN_TOUCH, 0)])
        let out = try s.decode(d)
        guard case .down(let first) = out[0], case .move(let second) = out[1] else { Issue.record("expected down, move: \(out)"); return }
        #expect(first.tilt == Tilt(x: 3016, y: -2000), "30 units at 57 a radian: 30.16 degrees; -20 without a resolution: -20 degrees")
        #expect(second.tilt == Tilt(x: -6433, y: -2000))
        d.absInfo[C.ABS_TILT_Y] = nil
        guard case .down(let untilted) = try s.decode(d)[0] else { Issue.record("expected down"); return }
        #expect(untilted.tilt == nil)
        #expect(MemoryLayout<Sample>.stride == 40, "the tilt took a sample's padding, no more")
    }

    @Test func aPenIsNearWhileItsToolIsInRangeEitherEnd() throws {
        var d = DeviceDescription(name: "pen")
        d.codes[C.EV_KEY] = [C.BTN_TOOL_PEN, C.BTN_TOOL_RUBBER, C.BTN_TOUCH]
        d.codes[C.EV_ABS] = [C.ABS_X, C.ABS_Y]
        d.absInfo[C.ABS_X] = AbsInfo(minimum: 0, maximum: 999)
        d.absInfo[C.ABS_Y] = AbsInfo(minimum: 0, maximum: 999)
        var s = RawEventStream()
        s.frame([(C.EV_KEY, C.BTN_TOOL_PEN, 1), (C.EV_ABS, C.ABS_X, 10)])
        s.frame([(C.EV_KEY, C.BTN_TOOL_PEN, 0)])
        s.frame([(C.EV_KEY, C.BTN_TOOL_RUBBER, 1)])
        s.frame([(C.EV_KEY, C.BTN_TOOL_RUBBER, 0)])
        var decoder = try ContactDecoder(device: d, screenWidth: 100, screenHeight: 100)
        var near: [Bool] = []
        for e in s.events {
            decoder.feed(e) { _ in }
            if e.type == C.EV_SYN { near.append(decoder.pen.near) }
        }
        #expect(near == [true, false, true, false])
        // Where it hovers, for the arbiter to tell a pen put down from one held.
        #expect(abs((decoder.pen.position?.x ?? -1) - 1) < 0.01, "ABS_X 10 of 0…999 on 100 px")
        // Contacts of the eraser end erase; those of the tip draw.
        var strokes = RawEventStream()
        strokes.frame([(C.EV_KEY, C.BTN_TOOL_RUBBER, 1), (C.EV_ABS, C.ABS_X, 10), (C.EV_ABS, C.ABS_Y, 10)])
        strokes.frame([(C.EV_KEY, C.BTN_TOUCH, 1)])
        strokes.frame([(C.EV_ABS, C.ABS_X, 20)])
        strokes.frame([(C.EV_KEY, C.BTN_TOUCH, 0)])
        strokes.frame([(C.EV_KEY, C.BTN_TOOL_RUBBER, 0)])
        strokes.frame([(C.EV_KEY, C.BTN_TOOL_PEN, 1)])
        strokes.frame([(C.EV_KEY, C.BTN_TOUCH, 1)])
        strokes.frame([(C.EV_KEY, C.BTN_TOUCH, 0)])
        let samples = try strokes.decode(d).compactMap { event -> Sample? in
            switch event { case .down(let s), .move(let s): return s; default: return nil }
        }
        #expect(samples.map(\.erasing) == [true, true, false])
        var touchscreen = try ContactDecoder(device: panel(), screenWidth: 100, screenHeight: 100)
        for e in s.events { touchscreen.feed(e) { _ in } }
        s.frame([(C.EV_KEY, C.BTN_TOUCH, 1)])
        for e in s.events.suffix(2) { touchscreen.feed(e) { _ in } }
        #expect(!touchscreen.pen.near, "a touchscreen is never a pen near the glass")
        #expect(touchscreen.pen.position == nil)
    }

    /// The frame that ends dropped events is read as any other: a pen that left meanwhile is no
    /// longer near, and one hovering is where that frame says.
    @Test func aPenIsReadAgainWhenItsDeviceIsBackInSync() throws {
        var d = DeviceDescription(name: "pen")
        d.codes[C.EV_KEY] = [C.BTN_TOOL_PEN, C.BTN_TOUCH]
        d.codes[C.EV_ABS] = [C.ABS_X, C.ABS_Y]
        d.absInfo[C.ABS_X] = AbsInfo(minimum: 0, maximum: 999)
        d.absInfo[C.ABS_Y] = AbsInfo(minimum: 0, maximum: 999)
        var s = RawEventStream()
        s.frame([(C.EV_KEY, C.BTN_TOOL_PEN, 1), (C.EV_ABS, C.ABS_X, 10)])
        s.raw(C.EV_SYN, C.SYN_DROPPED, 0)
        s.frame([(C.EV_ABS, C.ABS_X, 500)])
        s.raw(C.EV_SYN, C.SYN_DROPPED, 0)
        s.frame([(C.EV_KEY, C.BTN_TOOL_PEN, 0)])
        var decoder = try ContactDecoder(device: d, screenWidth: 100, screenHeight: 100)
        var readings: [PenReading] = []
        for e in s.events {
            decoder.feed(e) { _ in }
            if e.type == C.EV_SYN && e.code == C.SYN_REPORT { readings.append(decoder.pen) }
        }
        #expect(readings.map(\.near) == [true, true, false])
        #expect(abs((readings[1].position?.x ?? -1) - 50) < 0.01, "ABS_X 500 of 0…999 on 100 px, read in the frame after the drop")
    }

    /// A Wacom pen display's pad device, as the kernel's wacom driver sets it up: ABS_X and ABS_Y
    /// of 0…1 and BTN_STYLUS kept for old X drivers, beside its numbered buttons.
    @Test func aTabletsPadIsNoPen() {
        var pad = DeviceDescription(name: "Wacom DTU-1141B Pad")
        pad.codes[C.EV_KEY] = [C.BTN_0, C.BTN_0 + 1, C.BTN_0 + 2, C.BTN_0 + 3, C.BTN_STYLUS]
        pad.codes[C.EV_ABS] = [C.ABS_X, C.ABS_Y, 0x28]
        pad.absInfo[C.ABS_X] = AbsInfo(minimum: 0, maximum: 1)
        pad.absInfo[C.ABS_Y] = AbsInfo(minimum: 0, maximum: 1)
        guard case .skipped(let reason) = DeviceClassifier.classify(pad) else { Issue.record("expected skipped"); return }
        #expect(reason.contains("pad"))
        // The pen beside it.
        var pen = pad
        pen.name = "Wacom DTU-1141B Pen"
        pen.codes[C.EV_KEY] = [C.BTN_TOOL_PEN, C.BTN_TOOL_RUBBER, C.BTN_TOUCH, C.BTN_STYLUS]
        pen.absInfo[C.ABS_X] = AbsInfo(minimum: 0, maximum: 15200)
        pen.absInfo[C.ABS_Y] = AbsInfo(minimum: 0, maximum: 8550)
        #expect(DeviceClassifier.classify(pen) == .usable(.pen, .single))
        // A stylus without BTN_TOUCH cannot say when it touches; one with BTN_LEFT is a pointer.
        pen.codes[C.EV_KEY] = [C.BTN_TOOL_PEN, C.BTN_STYLUS]
        #expect(DeviceClassifier.classify(pen).kind == nil)
        pen.codes[C.EV_KEY] = [C.BTN_TOOL_PEN, C.BTN_LEFT]
        #expect(DeviceClassifier.classify(pen) == .usable(.absolutePointer, .single))
    }

    /// Found by fuzzing: a pen or pointer is read through ABS_X/ABS_Y, so one with only the
    /// multitouch axes must be skipped, not taken and then fail to decode.
    @Test(arguments: [C.BTN_LEFT, C.BTN_TOOL_PEN])
    func aPenOrPointerWithOnlyMultitouchAxesIsSkipped(button: UInt16) throws {
        var d = panel()
        d.properties = []
        d.codes[C.EV_KEY] = [button, C.BTN_TOUCH]
        d.codes[C.EV_ABS]?.subtract([C.ABS_X, C.ABS_Y])
        d.absInfo[C.ABS_X] = nil
        d.absInfo[C.ABS_Y] = nil
        guard case .skipped(let reason) = DeviceClassifier.classify(d) else { Issue.record("expected skipped"); return }
        #expect(reason.contains("no absolute X/Y axes"), "\(reason)")
        #expect(throws: UnusableDeviceError.self) { try ContactDecoder(device: d, screenWidth: 100, screenHeight: 100) }
        d.codes[C.EV_ABS]?.formUnion([C.ABS_X, C.ABS_Y])
        d.absInfo[C.ABS_X] = AbsInfo(minimum: 0, maximum: 999)
        d.absInfo[C.ABS_Y] = AbsInfo(minimum: 0, maximum: 999)
        #expect(DeviceClassifier.classify(d).kind != nil)
    }

    /// Found by fuzzing: a slot range of any size (here 2³¹) was allocated whole, or overflowed.
    @Test(arguments: [Int32.max, 59_031_087])
    func aDeviceClaimingCountlessSlotsStillDecodesItsContacts(slotMaximum: Int32) throws {
        var device = panel()
        device.absInfo[C.ABS_MT_SLOT] = AbsInfo(minimum: 0, maximum: slotMaximum)
        var stream = RawEventStream()
        stream.frame(touch(slot: 1, id: 5, x: 100, y: 200))
        stream.frame(touch(slot: 300, id: 6, x: 900, y: 900))
        stream.frame(moveTo(slot: 1, x: 300, y: 200))
        stream.frame(lift(slot: 1))
        let events = try stream.decode(device)
        #expect(points(events) == [Point(100, 200), Point(300, 200)])
        #expect(events.count == 3, "down, move, up: \(events)")
    }

    @Test func devicesWithoutARangeAreSkippedWithTheReason() {
        var d = panel()
        d.absInfo[C.ABS_MT_POSITION_X] = AbsInfo(minimum: 0, maximum: 0)
        guard case .skipped(let reason) = DeviceClassifier.classify(d) else { Issue.record("expected skipped"); return }
        #expect(reason.contains("ABS_MT_POSITION_X"))
        #expect(DeviceClassifier.classify(DeviceDescription(name: "keyboard")).kind == nil)
    }
}

@Suite struct ScreenMappingTests {
    let axis = AbsInfo(minimum: 0, maximum: 99)

    @Test func mapsTheWayLibinputDoes() {
        let m = ScreenMapping(xAxis: axis, yAxis: axis, screenWidth: 200, screenHeight: 100)
        #expect(m.point(x: 0, y: 0) == Point(0, 0))
        #expect(m.point(x: 50, y: 50) == Point(100, 50))  // (50 - 0) * 200 / (99 - 0 + 1)
    }

    @Test(arguments: [(Rotation.none, Point(20, 10)), (.quarter, Point(180, 10)), (.half, Point(180, 90)), (.threeQuarter, Point(20, 90))])
    func rotationTurnsThePanel(rotation: Rotation, expected: Point) {
        let m = ScreenMapping(xAxis: axis, yAxis: axis, screenWidth: 200, screenHeight: 100, rotation: rotation)
        let p = m.point(x: 10, y: 10)
        #expect(abs(p.x - expected.x) < 1e-9 && abs(p.y - expected.y) < 1e-9, "\(rotation): \(p)")
    }

    /// A tablet 409.6 x 204.8 mm (4096 and 2048 units at 10 per mm) on a 1024x768 screen: 2.5 and
    /// 3.75 px per mm; turned a quarter, the screen's X moves along the tablet's Y. An axis with no
    /// resolution gives no density.
    @Test func theSurfacesDensityComesFromTheAxesResolution() throws {
        let x = AbsInfo(minimum: 0, maximum: 4095, resolution: 10), y = AbsInfo(minimum: 0, maximum: 2047, resolution: 10)
        let straight = try #require(ScreenMapping(xAxis: x, yAxis: y, screenWidth: 1024, screenHeight: 768).surfaceDensity)
        #expect(abs(straight.x - 2.5) < 1e-9 && abs(straight.y - 3.75) < 1e-9, "\(straight)")
        let turned = try #require(ScreenMapping(xAxis: x, yAxis: y, screenWidth: 768, screenHeight: 1024, rotation: .quarter).surfaceDensity)
        #expect(abs(turned.x - 768 / 204.8) < 1e-9 && abs(turned.y - 1024 / 409.6) < 1e-9, "\(turned)")
        let halved = try #require(CalibrationMatrix(values: [0.5, 0, 0, 0, 0.5, 0]))
        let calibrated = try #require(ScreenMapping(xAxis: x, yAxis: y, screenWidth: 1024, screenHeight: 768, calibration: halved).surfaceDensity)
        #expect(abs(calibrated.x - 1.25) < 1e-9, "half the screen for the whole tablet: half the density")
        #expect(ScreenMapping(xAxis: axis, yAxis: y, screenWidth: 1024, screenHeight: 768).surfaceDensity == nil)
    }

    @Test func calibrationMatrixFromUdev() throws {
        let matrix = try #require(CalibrationMatrix(udevProperty: "0.5 0 0.25 0 0.5 0.25"))
        let m = ScreenMapping(xAxis: axis, yAxis: axis, screenWidth: 100, screenHeight: 100, calibration: matrix)
        #expect(m.point(x: 0, y: 0) == Point(25, 25))
        #expect(CalibrationMatrix(udevProperty: "1 0 0") == nil)
        // A word that is no number is not dropped (that would shift the rest), nor is nan or inf taken.
        #expect(CalibrationMatrix(udevProperty: "1 0 x 0 1 0 0") == nil)
        #expect(CalibrationMatrix(udevProperty: "1 0 nan 0 1 0") == nil)
        #expect(CalibrationMatrix(udevProperty: "1 0 0 0 inf 0") == nil)
        #expect(CalibrationMatrix(udevProperty: "1\t0 0  0 1 0")?.values == [1, 0, 0, 0, 1, 0])
    }

    /// Huge finite numbers and values far outside the axis's range give −inf + inf = NaN.
    @Test func aMatrixThatOverflowsStillPlacesTheTouchOnTheScreen() throws {
        let huge = try #require(CalibrationMatrix(values: [1e308, 1e308, 0, 0, 1, 0]))
        let m = ScreenMapping(xAxis: axis, yAxis: axis, screenWidth: 100, screenHeight: 100, calibration: huge)
        let p = m.point(x: -100_000, y: 100_000)
        #expect(p.x.isFinite && p.x >= 0 && p.x < 100, "\(p)")
    }

    /// Values at the ends of 32 bits (a faulty device, or a recording) clamp, never overflow.
    @Test func extremeValuesClampWithoutOverflow() {
        let wide = AbsInfo(minimum: Int32.min, maximum: Int32.max)
        let m = ScreenMapping(xAxis: axis, yAxis: axis, pressureAxis: wide, screenWidth: 100, screenHeight: 100)
        #expect(m.pressure(Int32.max) == 1)
        #expect(m.pressure(Int32.min) == 0)
        let narrow = ScreenMapping(xAxis: axis, yAxis: axis, pressureAxis: AbsInfo(minimum: 10, maximum: 20), screenWidth: 100, screenHeight: 100)
        #expect(narrow.pressure(Int32.max) == 1)
        #expect(narrow.pressure(Int32.min) == 0)
        #expect(narrow.point(x: Int32.max, y: Int32.min) == Point(100 - 1.0 / 256, 0))
    }

    @Test func flipsMirrorTheAxes() {
        let m = ScreenMapping(xAxis: axis, yAxis: axis, screenWidth: 100, screenHeight: 100, flipX: true)
        #expect(m.point(x: 0, y: 10) == Point(100 - 1.0 / 256, 10))
    }
}

@Suite struct EvemuParsingTests {
    let header = "# EVEMU 1.3\nN: Test\nI: 0003 0001 0002 0003\nP: 02 00\nB: 00 0b\nB: 01 00 00 00 00 00 00 00 00\nB: 03 03\nA: 00 0 99 0 0 0\nA: 01 0 99 0 0\n"

    @Test func parsesHeaderAndEvents() throws {
        let rec = try EvemuRecording.parse(header + "E: 1.000010 0003 0000 42\t# ABS_X\nE: 1.000010 0000 0000 0000\n", file: "t.evemu")
        #expect(rec.device.name == "Test")
        #expect(rec.device.hasProperty(C.INPUT_PROP_DIRECT))
        #expect(rec.device.absInfo[C.ABS_Y]?.maximum == 99)
        #expect(rec.events == [InputEvent(microseconds: 1_000_010, type: 3, code: 0, value: 42), InputEvent(microseconds: 1_000_010, type: 0, code: 0, value: 0)])
    }

    @Test func aRecordingSavedWithCRLFReadsTheSame() throws {
        let text = header + "E: 1.000010 0003 0000 42\t# ABS_X\nE: 1.000010 0000 0000 0000\n"
        let crlf = try EvemuRecording.parse(text.replacingOccurrences(of: "\n", with: "\r\n"), file: "t.evemu")
        let lf = try EvemuRecording.parse(text, file: "t.evemu")
        #expect(crlf.device.name == "Test" && crlf.device.absInfo[C.ABS_Y]?.maximum == 99)
        #expect(crlf.events == lf.events && crlf.events.count == 2)
    }

    @Test(arguments: [
        ("E: 1.5 0003 zz 1\n", 10, "hex event code"),
        ("E: 1.000001 0003 0000\n", 10, "E: <sec>.<usec>"),
        ("E: x.000001 0003 0000 1\n", 10, "timestamp"),
        ("A: 02 0 nine 0 0\n", 10, "decimal min max"),
        ("Q: what\n", 10, "N:, I:, P:, B:, A: or E:"),
        // Found by fuzzing: these seconds overflowed the microseconds and crashed the parser.
        ("E: 9999999999999999.000000 0003 0000 1\n", 10, "sec from 0 to 9223372036853"),
        ("E: -1.000000 0003 0000 1\n", 10, "sec from 0"),
        ("B: 01" + String(repeating: " 00", count: 8193) + "\n", 10, "at most 8192 bitmask bytes"),
    ])
    func malformedLinesNameTheLineAndWhatWasExpected(line: String, number: Int, expected: String) {
        do {
            _ = try EvemuRecording.parse(header + line, file: "bad.evemu")
            Issue.record("parsing should fail")
        } catch {
            #expect(error.line == number)
            #expect(error.file == "bad.evemu")
            #expect(error.message.contains(expected), "\(error)")
        }
    }

    /// A second recording appended to the first: its header came after events, and the last
    /// header used to win, so every event was read as the second device's.
    @Test func aHeaderAfterEventsIsRefusedWithItsLine() {
        let joined = "N: first panel\nE: 0.000001 0000 0000 0\nN: second panel\nE: 0.000002 0000 0000 0\n"
        do {
            _ = try EvemuRecording.parse(joined, file: "joined.evemu")
            Issue.record("a header after events was taken")
        } catch {
            #expect(error.description == "joined.evemu:3: expected the device's header (N:, I:, P:, B:, A:) before the first E: line; is a second recording appended to this one?")
        }
    }

    /// Timestamps that go back (an edited file) made a signature end before it began; each event
    /// is now taken no earlier than the one before it.
    @Test func timesThatGoBackAreTakenAtTheTimeBefore() throws {
        let recording = try EvemuRecording.parse("N: panel\nE: 5.000000 0000 0000 0\nE: 3.000000 0000 0000 0\nE: 6.000000 0000 0000 0\n", file: "back.evemu")
        #expect(recording.events.map(\.microseconds) == [5_000_000, 5_000_000, 6_000_000])
    }

    @Test func aFileWithoutADeviceNameIsRejected() {
        #expect(throws: EvemuError.self) { try EvemuRecording.parse("E: 0.000001 0000 0000 0\n", file: "x") }
    }

    /// A recording of a keyboard or mouse (the wrong node recorded) is refused naming the file, not just the device.
    @Test func aRecordingOfADeviceSignpadWouldNotUseIsRefusedNamingTheFile() throws {
        let keyboard = try EvemuRecording.parse("# EVEMU 1.3\nN: AT Translated Set 2 keyboard\nE: 0.000001 0000 0000 0\n", file: "keys.evemu")
        do {
            try keyboard.requireUsableDevice(file: "keys.evemu")
            Issue.record("a keyboard's recording was accepted")
        } catch {
            #expect(error.file == "keys.evemu")
            #expect("\(error)".hasPrefix("keys.evemu: the recorded device \"AT Translated Set 2 keyboard\""), "\(error)")
            #expect("\(error)".contains("no absolute X/Y axes"), "\(error)")
        }
        try EvemuRecording(device: panel(), events: []).requireUsableDevice(file: "panel.evemu")
    }
}
