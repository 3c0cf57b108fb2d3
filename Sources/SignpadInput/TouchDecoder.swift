import SignpadVocabulary

/// Turns the raw event stream of one device into the strokes of the one contact signpad follows.
///
/// The same decoder serves the live device and evemu replays. Events are collected until
/// SYN_REPORT and the frame is judged as a whole, as the kernel means it.
///
/// Multitouch (protocol B): one contact is followed at a time, the first to land. Another that
/// lands meanwhile waits: should it write (go further than `StrokeEvent.stillRadius` from where
/// it landed) while the followed contact lies still, or lifts still, or once none is followed,
/// it is followed from where and when it landed, every sample since drawn at once. So is one that
/// lands no sooner than the followed contact and taps (lifts within `tapSeconds`, never having
/// written) while that lies still: the tap is drawn whole, a dot or a button pressed. The still
/// one was a hand or water resting on the glass: its stroke is withdrawn and it is let go of
/// (ignored until it lifts, never holding back another). So a customer may rest a hand on the
/// glass, sign with a finger stroke after stroke, and tap Done. One that writes while the followed contact writes too
/// is in the middle of its path when that one lifts, and is let go of; so are contacts down at
/// open and those whose events were dropped. A lift is a tracking id of −1 (BTN_TOUCH is not
/// trusted: QEMU's virtio multitouch never releases it). A contact the panel calls a palm
/// (MT_TOOL_PALM) is never followed; one followed is withdrawn if it lay still, and its stroke
/// ends (the ink stays) if it wrote: a thumb pressed flat may be called one. SYN_DROPPED ends the stroke at its
/// last good sample; the stroke resumes as a new one when the device is in sync again.
///
/// Multitouch protocol A (no slots: each frame lists every contact, each closed by SYN_MT_REPORT)
/// is turned into slots first, as the kernel's `input_mt_assign_slots` and mtdev do: a contact
/// keeps the slot of the one it was in the last frame, by the panel's tracking id when it sends
/// one, else by nearness (no further than `protocolAMaxJump` of the screen's diagonal); the rest
/// land in free slots, and slots no contact kept are lifts. Then the rules above apply.
public struct TouchDecoder: Sendable {
    public let kind: DeviceKind
    public let multitouch: Bool
    public var mapping: ScreenMapping
    private let hasPenToolBit: Bool

    struct Slot: Equatable, Sendable {
        var trackingID: Int32 = -1
        var x: Int32 = 0
        var y: Int32 = 0
        var pressure: Int32 = 0
        var palm = false
        /// Let go of: this contact is never followed and never holds back another.
        var letGo = false
        /// Where and when it landed. Nil for a contact that landed during dropped events.
        var landing: Sample?
        /// It went further than `StrokeEvent.stillRadius` from where it landed.
        var wrote = false

        /// Down, and not let go of.
        var live: Bool { trackingID >= 0 && !letGo }
    }

    private var slots: [Slot]
    private var previous: [Slot]
    /// Protocol A: no slots on the device; `reported` collects a frame's contacts.
    private let protocolA: Bool
    /// A protocol-A contact as its ABS_MT_* values came, before SYN_MT_REPORT closed it.
    struct ReportedContact: Sendable {
        var x: Int32 = 0
        var y: Int32 = 0
        var pressure: Int32 = 0
        var palm = false
        var trackingID: Int32?
        var hasPosition = false
    }
    private var pending = ReportedContact()
    /// This frame's contacts (the first `reportedCount`); storage kept from frame to frame.
    private var reported: [ReportedContact]
    private var reportedCount = 0
    /// Tracking ids made up for a protocol-A panel that sends none.
    private var nextTrackingID: Int32 = 0
    /// For each slot whose contact is down and not followed: its samples since it landed, the
    /// start of its stroke should it write (at most `maxUnfollowedSamples`). Kept apart from
    /// `slots`, which is copied every frame.
    private var unfollowedPaths: [[Sample]]
    private var currentSlot = 0
    /// Single-touch state: axis values and the contact buttons.
    private var single = Slot()
    private var touchDown = false
    private var leftDown = false
    private var penInRange = false
    /// The pen in range is its eraser end (BTN_TOOL_RUBBER): its contacts erase.
    private var eraserEnd = false
    private var inContact = false
    private var followed: Int?
    /// When the contact followed last landed: one that landed with it, in the same frame, is a
    /// second finger and never drawn as a tap.
    private var followedLanding = -Double.infinity
    /// Single touch: the contact down must lift before it is followed (multitouch lets contacts go instead).
    private var ignoreUntilAllLift = false
    private var dropping = false
    /// The contact that was being followed when events were dropped; it resumes as a new stroke.
    private var resumeTrackingID: Int32?
    private var stroking = false
    private var lastPoint: Point?
    private var positionWatch = PositionWatch()
    /// Set once touches were seen not to move on the axes read while others moved: those axes.
    private var stuckPositionAxes: UInt64?

    /// More contacts than any panel tracks; a device claiming more slots (a faulty descriptor, a
    /// doctored recording) has the rest ignored rather than a slot array of any size.
    static let maxSlots = 256
    /// A finger starting slowly covers `StrokeEvent.stillRadius` in a few samples; one that dwells
    /// longer loses the oldest after its landing.
    static let maxUnfollowedSamples = 64
    /// A contact that lifts this soon after landing, having stayed within `StrokeEvent.stillRadius`,
    /// was a tap; one that lay longer was resting.
    static let tapSeconds = 1.0
    /// Protocol A: the contacts a frame can list (more are dropped), as slots.
    static let protocolASlots = 16
    /// Protocol A without tracking ids: the furthest a contact moves from one frame to the next,
    /// as a share of the screen's diagonal; one further away is another contact. A fast stroke
    /// moves a few percent of it in a frame; a second finger lands further away than this.
    static let protocolAMaxJump = 0.1

    public init(device: DeviceDescription, kind: DeviceKind, multitouch: Bool, mapping: ScreenMapping) {
        self.kind = kind
        self.multitouch = multitouch
        self.mapping = mapping
        hasPenToolBit = device.hasKey(EventCode.BTN_TOOL_PEN)
        protocolA = multitouch && device.absInfo[EventCode.ABS_MT_SLOT] == nil
        reported = Array(repeating: ReportedContact(), count: protocolA ? Self.protocolASlots : 0)
        let slotCount = !multitouch ? 0 : protocolA ? Self.protocolASlots : Int(device.absInfo[EventCode.ABS_MT_SLOT]?.maximum ?? 0) + 1
        slots = Array(repeating: Slot(), count: min(max(slotCount, 0), Self.maxSlots))
        // A buffer of its own: sharing one with `slots` would copy it at the first frame's write.
        previous = Array(repeating: Slot(), count: slots.count)
        unfollowedPaths = (0..<slots.count).map { _ in
            var path: [Sample] = []
            path.reserveCapacity(Self.maxUnfollowedSamples)
            return path
        }
    }

    /// Whether a pen is near the glass: in proximity (BTN_TOOL_PEN or BTN_TOOL_RUBBER), or, for a
    /// pen that does not report proximity, touching. Always false for other kinds.
    public var penInProximity: Bool {
        kind == .pen && (hasPenToolBit ? penInRange : touchDown)
    }

    /// Where a pen is, hovering or touching, on the screen; nil for other kinds.
    public var penPosition: Point? { kind == .pen ? mapping.point(x: single.x, y: single.y) : nil }

    /// Where a pen near the glass is; nil when none is.
    public var penNearAt: Point? { penInProximity ? penPosition : nil }

    /// The frame just judged becomes the one before. Slot by slot, so the two arrays never share
    /// a buffer: `previous = slots` would, and the next write to a slot would copy the whole array.
    private mutating func rememberSlots() {
        for index in slots.indices { previous[index] = slots[index] }
    }

    /// The state read from the device at open. Contacts already down are ignored until they lift,
    /// so a stroke never starts in the middle of a finger's path; on a multitouch panel they do
    /// not hold back the next finger to land (water left on the glass must not make the pad deaf).
    public mutating func setInitialState(slots initial: [(trackingID: Int32, x: Int32, y: Int32)], currentSlot: Int,
                                         touching: Bool, penInRange: Bool = false, eraserInRange: Bool = false,
                                         x: Int32, y: Int32) {
        for (index, state) in initial.enumerated() where index < slots.count {
            slots[index].trackingID = state.trackingID
            slots[index].x = state.x
            slots[index].y = state.y
            slots[index].letGo = state.trackingID >= 0
        }
        rememberSlots()
        self.currentSlot = currentSlot
        single.x = x
        single.y = y
        ignoreUntilAllLift = !multitouch && touching
        self.penInRange = penInRange || eraserInRange
        eraserEnd = eraserInRange
        inContact = false
    }

    /// Feeds one event; calls `emit` for each stroke event a completed frame produced.
    public mutating func feed(_ event: InputEvent, emit: (StrokeEvent) -> Void) {
        typealias C = EventCode
        if dropping {
            if event.type == C.EV_SYN && event.code == C.SYN_REPORT {
                dropping = false
                pending = ReportedContact()
                reportedCount = 0
                // What the others did meanwhile is lost: they are in the middle of their path.
                for index in slots.indices where slots[index].live && slots[index].trackingID != resumeTrackingID { slots[index].letGo = true }
                rememberSlots()
            } else {
                absorb(event)
            }
            return
        }
        switch event.type {
        case C.EV_SYN where event.code == C.SYN_DROPPED:
            if stroking {
                stroking = false
                emit(.cancel)
            }
            resumeTrackingID = followed.map { slots[$0].trackingID }
            followed = nil
            inContact = false
            dropping = true
        case C.EV_SYN where event.code == C.SYN_MT_REPORT && protocolA:
            closeReportedContact()
        case C.EV_SYN where event.code == C.SYN_REPORT:
            if protocolA {
                // A driver that leaves out the last SYN_MT_REPORT still reported that contact.
                closeReportedContact()
                assignReportedContacts()
            }
            frame(time: event.seconds, emit: emit)
        default:
            absorb(event)
        }
    }

    /// Stops following the contacts down now, without a stroke event: the kiosk has given the touch
    /// up (one that stayed down and still past the idle timeout: a customer gone, or water or dirt
    /// on the glass). On a multitouch panel the next finger to land is followed while they stay
    /// down; a single-touch device reports nothing until its contact lifts.
    public mutating func letGoOfContacts() {
        stroking = false
        inContact = false
        followed = nil
        resumeTrackingID = nil
        guard multitouch else {
            ignoreUntilAllLift = true
            return
        }
        for index in slots.indices where slots[index].trackingID >= 0 { slots[index].letGo = true }
        rememberSlots()
        ignoreUntilAllLift = false
    }

    /// Ends any stroke in progress, as when the device goes away.
    public mutating func cancel(emit: (StrokeEvent) -> Void) {
        if stroking { emit(.cancel) }
        stroking = false
        followed = nil
        inContact = false
        for index in slots.indices { slots[index] = Slot() }
        rememberSlots()
        touchDown = false
        leftDown = false
        penInRange = false
        eraserEnd = false
    }

    private mutating func absorb(_ event: InputEvent) {
        typealias C = EventCode
        if event.type == C.EV_KEY {
            let pressed = event.value != 0
            switch event.code {
            case C.BTN_TOUCH: touchDown = pressed
            case C.BTN_LEFT: leftDown = pressed
            case C.BTN_TOOL_PEN:
                penInRange = pressed
                if pressed { eraserEnd = false }
            case C.BTN_TOOL_RUBBER:
                penInRange = pressed
                eraserEnd = pressed
            default: break
            }
            return
        }
        guard event.type == C.EV_ABS else { return }
        positionWatch.saw(axis: event.code, value: event.value)
        if protocolA {
            switch event.code {
            case C.ABS_MT_TRACKING_ID: pending.trackingID = event.value
            case C.ABS_MT_POSITION_X: (pending.x, pending.hasPosition) = (event.value, true)
            case C.ABS_MT_POSITION_Y: (pending.y, pending.hasPosition) = (event.value, true)
            case C.ABS_MT_PRESSURE: pending.pressure = event.value
            case C.ABS_MT_TOOL_TYPE: pending.palm = event.value == C.MT_TOOL_PALM
            default: break
            }
        } else if multitouch {
            switch event.code {
            case C.ABS_MT_SLOT: currentSlot = Int(event.value)
            case C.ABS_MT_TRACKING_ID where slots.indices.contains(currentSlot):
                slots[currentSlot].trackingID = event.value
                slots[currentSlot].letGo = false
                // A lifted contact keeps what it did: the frame may yet judge it (`liesStill`).
                if event.value >= 0 {
                    slots[currentSlot].palm = false
                    slots[currentSlot].landing = nil
                    slots[currentSlot].wrote = false
                }
            case C.ABS_MT_POSITION_X where slots.indices.contains(currentSlot): slots[currentSlot].x = event.value
            case C.ABS_MT_POSITION_Y where slots.indices.contains(currentSlot): slots[currentSlot].y = event.value
            case C.ABS_MT_PRESSURE where slots.indices.contains(currentSlot): slots[currentSlot].pressure = event.value
            case C.ABS_MT_TOOL_TYPE where slots.indices.contains(currentSlot):
                slots[currentSlot].palm = event.value == C.MT_TOOL_PALM
            default: break
            }
        } else {
            switch event.code {
            case C.ABS_X: single.x = event.value
            case C.ABS_Y: single.y = event.value
            case C.ABS_PRESSURE: single.pressure = event.value
            default: break
            }
        }
    }

    /// SYN_MT_REPORT: the contact whose values came is one of the frame's (an empty report, the
    /// frame without contacts, is none).
    private mutating func closeReportedContact() {
        if pending.hasPosition && pending.trackingID.map({ $0 >= 0 }) ?? true && reportedCount < reported.count {
            reported[reportedCount] = pending
            reportedCount += 1
        }
        pending = ReportedContact()
    }

    /// Puts the frame's protocol-A contacts into slots (see the type's comment), as protocol B
    /// would have reported them. No allocation: the frame's contacts and slots are marked in bits.
    private mutating func assignReportedContacts() {
        var slotTaken: UInt64 = 0, contactPlaced: UInt64 = 0
        // By the panel's own tracking id.
        for r in 0..<reportedCount {
            guard let id = reported[r].trackingID, let index = slots.indices.first(where: { slots[$0].trackingID == id }) else { continue }
            place(r, in: index, landing: false)
            slotTaken |= 1 << UInt64(index)
            contactPlaced |= 1 << UInt64(r)
        }
        // Else by nearness, the closest pair first.
        let screen = mapping.point(x: 0, y: 0).distance(to: Point(Double(mapping.screenWidth), Double(mapping.screenHeight)))
        let maxJump = max(Double(mapping.screenWidth), Double(mapping.screenHeight), screen) * Self.protocolAMaxJump
        while true {
            var best: (slot: Int, contact: Int, distance: Double)?
            for index in slots.indices where slots[index].trackingID >= 0 && slotTaken & (1 << UInt64(index)) == 0 {
                let was = mapping.point(x: slots[index].x, y: slots[index].y)
                for r in 0..<reportedCount where contactPlaced & (1 << UInt64(r)) == 0 && reported[r].trackingID == nil {
                    let distance = was.distance(to: mapping.point(x: reported[r].x, y: reported[r].y))
                    if distance <= maxJump && distance < (best?.distance ?? .infinity) { best = (index, r, distance) }
                }
            }
            guard let (index, r, _) = best else { break }
            place(r, in: index, landing: false)
            slotTaken |= 1 << UInt64(index)
            contactPlaced |= 1 << UInt64(r)
        }
        // Slots no contact kept: lifted.
        for index in slots.indices where slots[index].trackingID >= 0 && slotTaken & (1 << UInt64(index)) == 0 {
            slots[index].trackingID = -1
            slots[index].letGo = false
        }
        // The rest landed now, each in a free slot.
        for r in 0..<reportedCount where contactPlaced & (1 << UInt64(r)) == 0 {
            guard let index = slots.indices.first(where: { slots[$0].trackingID < 0 && slotTaken & (1 << UInt64($0)) == 0 }) else { break }
            place(r, in: index, landing: true)
            slotTaken |= 1 << UInt64(index)
        }
        reportedCount = 0
    }

    /// A reported contact in slot `index`: its position; landing, a new tracking id, as protocol B's TRACKING_ID.
    private mutating func place(_ r: Int, in index: Int, landing: Bool) {
        let contact = reported[r]
        if landing {
            var id = contact.trackingID ?? nextTrackingID
            if contact.trackingID == nil { nextTrackingID = nextTrackingID == Int32.max ? 0 : nextTrackingID + 1 }
            // A made-up id must differ from the one the slot had, or the landing would go unseen.
            if id == previous[index].trackingID { id = id == Int32.max ? 0 : id + 1 }
            slots[index].trackingID = id
            slots[index].letGo = false
            slots[index].landing = nil
            slots[index].wrote = false
        }
        slots[index].x = contact.x
        slots[index].y = contact.y
        slots[index].pressure = contact.pressure
        slots[index].palm = contact.palm
    }

    private mutating func frame(time: Double, emit: (StrokeEvent) -> Void) {
        if multitouch { multitouchFrame(time: time, emit: emit) } else { singleFrame(time: time, emit: emit) }
        let down = multitouch ? slots.contains { $0.trackingID >= 0 } : (touchDown || leftDown)
        if let axes = positionWatch.frame(contactDown: down) { stuckPositionAxes = axes }
    }

    /// Once, after touches that never moved on the axes read while others did: the kernel's names
    /// of those others (the device reports its position there, and signpad cannot use it).
    public mutating func takeStuckPositionAxes() -> [String]? {
        guard let mask = stuckPositionAxes else { return nil }
        stuckPositionAxes = nil
        return (0..<64).filter { mask & (1 << UInt64($0)) != 0 }.map { PositionWatch.name(UInt16($0)) }
    }

    private mutating func singleFrame(time: Double, emit: (StrokeEvent) -> Void) {
        let contact: Bool
        switch kind {
        // A pen out of proximity is never in contact, whatever BTN_TOUCH last said.
        case .pen: contact = touchDown && (penInRange || !hasPenToolBit)
        case .absolutePointer: contact = leftDown
        case .touchscreen: contact = touchDown
        }
        if ignoreUntilAllLift {
            if !contact { ignoreUntilAllLift = false }
            return
        }
        update(contact: contact, x: single.x, y: single.y, pressure: single.pressure, time: time, emit: emit)
    }

    private mutating func multitouchFrame(time: Double, emit: (StrokeEvent) -> Void) {
        defer { rememberSlots() }
        noteLandingsAndWriting(time: time)
        for index in slots.indices where isWaitingTap(index, time: time) { followTap(index, emit: emit) }
        if followed == nil, let resume = resumeTrackingID {
            resumeTrackingID = nil
            if let index = slots.firstIndex(where: { $0.trackingID == resume && $0.live && !$0.palm }) {
                followed = index
                previous[index].trackingID = -1
            }
        }
        // A finger writes while the followed contact lies still (or lifts now, still), or while
        // none is followed: it is followed from where it landed.
        // Closures, not the methods themselves: a method passed as a function value captures a
        // copy of the decoder on the heap at every frame.
        if followed.map({ liesStill($0) }) ?? true, let writer = slots.indices.first(where: { isWaitingWriter($0) }) {
            if let resting = followed {
                if stroking { emit(.withdraw) }
                slots[resting].letGo = true
            }
            follow(writer, emit: emit)
        }
        if let index = followed {
            let slot = slots[index]
            let sameContact = slot.trackingID >= 0 && (previous[index].trackingID < 0 || previous[index].trackingID == slot.trackingID)
            if slot.palm {
                // Still, it was never writing; what it wrote before the panel judged it stays.
                if stroking { emit(slot.wrote ? .cancel : .withdraw) }
                stroking = false
                inContact = false
            } else {
                update(contact: sameContact, x: slot.x, y: slot.y, pressure: slot.pressure, time: time, emit: emit)
            }
            guard !sameContact || slot.palm else { return }
            followed = nil
            if slot.palm { slots[index].letGo = true }
            // Those that wrote meanwhile are in the middle of their path.
            for other in slots.indices where slots[other].live && slots[other].wrote { slots[other].letGo = true }
        }
        // Nothing followed: the first contact that landed now is.
        followed = slots.indices.first { landedNow($0) && slots[$0].live && !slots[$0].palm }
        guard let index = followed else { return }
        followedLanding = time
        update(contact: true, x: slots[index].x, y: slots[index].y, pressure: slots[index].pressure, time: time, emit: emit)
    }

    /// The followed contact has not gone further than `StrokeEvent.stillRadius` from where it
    /// landed, and is the same contact (down still, or lifted now).
    private func liesStill(_ index: Int) -> Bool {
        !slots[index].wrote && (slots[index].trackingID < 0 || slots[index].trackingID == previous[index].trackingID)
    }

    /// A contact down and not followed that has written, with its path since it landed.
    private func isWaitingWriter(_ index: Int) -> Bool {
        index != followed && slots[index].live && !slots[index].palm && slots[index].wrote && slots[index].landing != nil
    }

    /// A contact that waited beside the followed one, landing no sooner, lifted now without
    /// writing, within `tapSeconds` of landing, while that one lies still (or none is followed).
    private func isWaitingTap(_ index: Int, time: Double) -> Bool {
        let before = previous[index]
        guard index != followed, before.trackingID >= 0, !before.letGo, !before.palm, !before.wrote,
              slots[index].trackingID < 0, let landing = before.landing, time - landing.time <= Self.tapSeconds,
              mapping.point(x: slots[index].x, y: slots[index].y).distance(to: landing.point) <= StrokeEvent.stillRadius else { return false }
        // Landing later than the followed contact, not with it: two that land in one frame are a
        // finger and a second finger, and the second draws nothing.
        guard landing.time > followedLanding else { return false }
        guard let resting = followed else { return true }
        return liesStill(resting)
    }

    /// The tap is the customer's (a button pressed, a dot) and the still contact beside it a hand
    /// or water resting: that is withdrawn and let go of, and the tap drawn whole.
    private mutating func followTap(_ index: Int, emit: (StrokeEvent) -> Void) {
        if let resting = followed {
            if stroking { emit(.withdraw) }
            slots[resting].letGo = true
        }
        follow(index, emit: emit)
        if stroking { emit(.up) }
        stroking = false
        inContact = false
        followed = nil
    }

    /// Follows `index` from where it landed: its samples since are drawn at once.
    private mutating func follow(_ index: Int, emit: (StrokeEvent) -> Void) {
        followed = index
        followedLanding = unfollowedPaths[index].first?.time ?? followedLanding
        guard let landing = unfollowedPaths[index].first else { return }
        emit(.down(landing))
        for sample in unfollowedPaths[index].dropFirst() { emit(.move(sample)) }
        stroking = true
        inContact = true
        lastPoint = unfollowedPaths[index].last?.point
    }

    /// A contact that landed in this frame.
    private func landedNow(_ index: Int) -> Bool {
        slots[index].trackingID >= 0 && previous[index].trackingID != slots[index].trackingID
    }

    /// Records where each contact landed, the path of those not followed, and whether each has
    /// written since (see the type's comment). Contacts that wrote are no longer looked at.
    private mutating func noteLandingsAndWriting(time: Double) {
        for index in slots.indices where slots[index].live && !slots[index].wrote {
            let point = mapping.point(x: slots[index].x, y: slots[index].y)
            let sample = Sample(point, time: time, pressure: mapping.pressure(slots[index].pressure))
            if landedNow(index) {
                slots[index].landing = sample
                unfollowedPaths[index].removeAll(keepingCapacity: true)
                unfollowedPaths[index].append(sample)
                continue
            }
            guard let landing = slots[index].landing else { continue }
            if index != followed && unfollowedPaths[index].last?.point != point {
                if unfollowedPaths[index].count == Self.maxUnfollowedSamples { unfollowedPaths[index].remove(at: 1) }
                unfollowedPaths[index].append(sample)
            }
            if point.distance(to: landing.point) > StrokeEvent.stillRadius { slots[index].wrote = true }
        }
    }

    private mutating func update(contact: Bool, x: Int32, y: Int32, pressure: Int32, time: Double, emit: (StrokeEvent) -> Void) {
        let point = mapping.point(x: x, y: y)
        let sample = Sample(point, time: time, pressure: mapping.pressure(pressure), erasing: eraserEnd)
        if contact && !inContact {
            emit(.down(sample))
            stroking = true
            lastPoint = point
        } else if contact && stroking && point != lastPoint {
            emit(.move(sample))
            lastPoint = point
        } else if !contact && inContact && stroking {
            emit(.up)
            stroking = false
        }
        inContact = contact
    }
}
