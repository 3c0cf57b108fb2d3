import SignpadInput
import SignpadTestSupport
import SignpadVocabulary
import Testing

/// A protocol-A panel (older eGalax, N-Trig): every contact's ABS_MT_* values each frame, each
/// closed by SYN_MT_REPORT, no slots; `trackingIDs` for the panels that also send those.
func protocolAPanel(trackingIDs: Bool) -> DeviceDescription {
    var d = DeviceDescription(name: "protocol A panel")
    d.properties = [C.INPUT_PROP_DIRECT]
    d.codes[C.EV_KEY] = [C.BTN_TOUCH]
    d.codes[C.EV_ABS] = [C.ABS_X, C.ABS_Y, C.ABS_MT_POSITION_X, C.ABS_MT_POSITION_Y]
    if trackingIDs { d.codes[C.EV_ABS]?.insert(C.ABS_MT_TRACKING_ID) }
    for code in [C.ABS_X, C.ABS_Y, C.ABS_MT_POSITION_X, C.ABS_MT_POSITION_Y] { d.absInfo[code] = AbsInfo(minimum: 0, maximum: 999) }
    if trackingIDs { d.absInfo[C.ABS_MT_TRACKING_ID] = AbsInfo(minimum: 0, maximum: 255) }
    return d
}

/// One protocol-A frame: the contacts (x, y, tracking id) in the order given, BTN_TOUCH while any is down.
func contactsFrame(_ stream: inout RawEventStream, _ contacts: [(Int32, Int32, Int32)], trackingIDs: Bool) {
    var body: [(UInt16, UInt16, Int32)] = []
    for (x, y, id) in contacts {
        if trackingIDs { body.append((C.EV_ABS, C.ABS_MT_TRACKING_ID, id)) }
        body += [(C.EV_ABS, C.ABS_MT_POSITION_X, x), (C.EV_ABS, C.ABS_MT_POSITION_Y, y), (C.EV_SYN, C.SYN_MT_REPORT, 0)]
    }
    if contacts.isEmpty { body.append((C.EV_SYN, C.SYN_MT_REPORT, 0)) }
    // The single-touch axes follow the first contact reported, as these drivers emulate them.
    if let (x, y, _) = contacts.first { body += [(C.EV_ABS, C.ABS_X, x), (C.EV_ABS, C.ABS_Y, y)] }
    body.append((C.EV_KEY, C.BTN_TOUCH, contacts.isEmpty ? 0 : 1))
    stream.frame(body)
}

/// The strokes drawn: each from its down to its up, a withdrawn one left out.
func strokes(_ events: [StrokeEvent]) -> [[Point]] {
    var done: [[Point]] = [], current: [Point]?
    for event in events {
        switch event {
        case .down(let s): current = [s.point]
        case .move(let s): current?.append(s.point)
        case .up, .cancel:
            if let stroke = current { done.append(stroke) }
            current = nil
        case .withdraw: current = nil
        }
    }
    return done + (current.map { [$0] } ?? [])
}

@Suite struct ProtocolATests {
    /// A hand rests; a finger lands far from it and signs. Read as one contact, the two were joined
    /// by a line across the signature; tracked apart, the hand's dot is withdrawn and the finger drawn.
    /// The protocol is the classifier's word, which picks the front end: no slots is protocol A,
    /// slots are protocol B with their count, and a descriptor claiming thousands is held to 256.
    @Test func theClassifierNamesEachPanelsProtocol() throws {
        #expect(DeviceClassifier.classify(protocolAPanel(trackingIDs: true)) == .usable(.touchscreen, .multitouchA))
        #expect(DeviceClassifier.classify(panel()) == .usable(.touchscreen, .multitouchB(slots: 4)))
        var many = panel()
        many.absInfo[C.ABS_MT_SLOT] = AbsInfo(minimum: 0, maximum: 9999)
        #expect(DeviceClassifier.classify(many) == .usable(.touchscreen, .multitouchB(slots: ContactReporting.maxSlots)))
        #expect(try ContactDecoder(device: protocolAPanel(trackingIDs: false), screenWidth: 100, screenHeight: 100).reporting == .multitouchA)
    }

    @Test(arguments: [false, true]) func aSecondContactFarFromARestingOneIsNeverJoinedWithInk(trackingIDs: Bool) throws {
        var s = RawEventStream()
        contactsFrame(&s, [(900, 900, 7)], trackingIDs: trackingIDs)
        contactsFrame(&s, [(902, 901, 7)], trackingIDs: trackingIDs)
        // The finger lands; the panel reports it first from now on (protocol A promises no order).
        contactsFrame(&s, [(100, 100, 8), (902, 901, 7)], trackingIDs: trackingIDs)
        for step in 1...6 { contactsFrame(&s, [(100 + Int32(step) * 20, 100 + Int32(step) * 5, 8), (902, 901, 7)], trackingIDs: trackingIDs) }
        contactsFrame(&s, [(902, 901, 7)], trackingIDs: trackingIDs)
        contactsFrame(&s, [], trackingIDs: trackingIDs)
        let drawn = strokes(try s.decode(protocolAPanel(trackingIDs: trackingIDs)))
        let finger: [Point] = [Point(100, 100)] + (1...6).map { (step: Int) -> Point in Point(100 + Double(step) * 20, 100 + Double(step) * 5) }
        #expect(drawn == [finger], "\(drawn)")
    }

    /// One finger's stroke on a protocol-A panel is drawn as on any other.
    @Test(arguments: [false, true]) func oneFingerIsFollowedFrameToFrame(trackingIDs: Bool) throws {
        var s = RawEventStream()
        let path: [(Int32, Int32)] = [(200, 300), (240, 310), (290, 330), (350, 360), (420, 380)]
        for (x, y) in path { contactsFrame(&s, [(x, y, 3)], trackingIDs: trackingIDs) }
        contactsFrame(&s, [], trackingIDs: trackingIDs)
        // Lifted and down again far away: a new stroke, not a line.
        contactsFrame(&s, [(800, 100, 4)], trackingIDs: trackingIDs)
        contactsFrame(&s, [(820, 110, 4)], trackingIDs: trackingIDs)
        contactsFrame(&s, [], trackingIDs: trackingIDs)
        let drawn = strokes(try s.decode(protocolAPanel(trackingIDs: trackingIDs)))
        let first: [Point] = path.map { Point(Double($0.0), Double($0.1)) }
        #expect(drawn == [first, [Point(800, 100), Point(820, 110)]], "\(drawn)")
    }

    /// Without tracking ids, a contact that lifts as another lands far away in the same frame is two
    /// contacts, not one that jumped: the distance a finger moves in a frame is bounded.
    @Test func aContactLiftingAsAnotherLandsFarAwayIsTwoStrokes() throws {
        var s = RawEventStream()
        contactsFrame(&s, [(100, 100, 0)], trackingIDs: false)
        contactsFrame(&s, [(130, 110, 0)], trackingIDs: false)
        contactsFrame(&s, [(800, 800, 0)], trackingIDs: false)
        contactsFrame(&s, [(830, 790, 0)], trackingIDs: false)
        contactsFrame(&s, [], trackingIDs: false)
        let drawn = strokes(try s.decode(protocolAPanel(trackingIDs: false)))
        #expect(drawn == [[Point(100, 100), Point(130, 110)], [Point(800, 800), Point(830, 790)]], "\(drawn)")
    }
}
