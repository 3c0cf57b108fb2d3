import SignpadInk

/// Turns the raw event stream of one device into the strokes of the one contact signpad follows.
///
/// The same decoder serves the live device and evemu replays. Events are collected until
/// SYN_REPORT and the frame is judged as a whole, as the kernel means it.
///
/// Multitouch (protocol B): only the first contact of a touch sequence is followed; the others are
/// ignored until every finger has lifted. A lift is a tracking id of −1 (BTN_TOUCH is not trusted:
/// QEMU's virtio multitouch never releases it); contacts let go of (`letGoOfContacts`) count as
/// lifted. MT_TOOL_PALM cancels. SYN_DROPPED ends the stroke at its last good sample; the stroke
/// resumes as a new one when the device is in sync again.
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

        /// Down, and not let go of.
        var live: Bool { trackingID >= 0 && !letGo }
    }

    private var slots: [Slot]
    private var previous: [Slot]
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
    /// Slots whose contact must lift before another sequence can begin.
    private var ignoreUntilAllLift = false
    private var dropping = false
    /// The contact that was being followed when events were dropped; it resumes as a new stroke.
    private var resumeTrackingID: Int32?
    private var stroking = false
    private var lastPoint: Point?

    /// More contacts than any panel tracks; a device claiming more slots (a faulty descriptor, a
    /// doctored recording) has the rest ignored rather than a slot array of any size.
    static let maxSlots = 256

    public init(device: DeviceDescription, kind: DeviceKind, multitouch: Bool, mapping: ScreenMapping) {
        self.kind = kind
        self.multitouch = multitouch
        self.mapping = mapping
        hasPenToolBit = device.hasKey(EventCode.BTN_TOOL_PEN)
        let slotCount = multitouch ? Int(device.absInfo[EventCode.ABS_MT_SLOT]?.maximum ?? 0) + 1 : 0
        slots = Array(repeating: Slot(), count: min(max(slotCount, 0), Self.maxSlots))
        previous = slots
    }

    /// Whether a pen is near the glass: in proximity (BTN_TOOL_PEN or BTN_TOOL_RUBBER), or, for a
    /// pen that does not report proximity, touching. Always false for other kinds.
    public var penInProximity: Bool {
        kind == .pen && (hasPenToolBit ? penInRange : touchDown)
    }

    /// Where a pen is, hovering or touching, on the screen; nil for other kinds.
    public var penPosition: Point? { kind == .pen ? mapping.point(x: single.x, y: single.y) : nil }

    /// The state read from the device at open. Contacts already down are ignored until they lift,
    /// so a stroke never starts in the middle of a finger's path.
    public mutating func setInitialState(slots initial: [(trackingID: Int32, x: Int32, y: Int32)], currentSlot: Int,
                                         touching: Bool, penInRange: Bool = false, eraserInRange: Bool = false,
                                         x: Int32, y: Int32) {
        for (index, state) in initial.enumerated() where index < slots.count {
            slots[index].trackingID = state.trackingID
            slots[index].x = state.x
            slots[index].y = state.y
        }
        previous = slots
        self.currentSlot = currentSlot
        single.x = x
        single.y = y
        ignoreUntilAllLift = slots.contains { $0.trackingID >= 0 } || touching
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
                previous = slots
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
            ignoreUntilAllLift = false
            inContact = false
            dropping = true
        case C.EV_SYN where event.code == C.SYN_REPORT:
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
        previous = slots
        ignoreUntilAllLift = false
    }

    /// Ends any stroke in progress, as when the device goes away.
    public mutating func cancel(emit: (StrokeEvent) -> Void) {
        if stroking { emit(.cancel) }
        stroking = false
        followed = nil
        inContact = false
        for index in slots.indices { slots[index] = Slot() }
        previous = slots
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
        if multitouch {
            switch event.code {
            case C.ABS_MT_SLOT: currentSlot = Int(event.value)
            case C.ABS_MT_TRACKING_ID where slots.indices.contains(currentSlot):
                slots[currentSlot].trackingID = event.value
                slots[currentSlot].letGo = false
                if event.value >= 0 { slots[currentSlot].palm = false }
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

    private mutating func frame(time: Double, emit: (StrokeEvent) -> Void) {
        if multitouch { multitouchFrame(time: time, emit: emit) } else { singleFrame(time: time, emit: emit) }
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
        update(contact: contact, x: single.x, y: single.y, pressure: single.pressure, palm: false, time: time, emit: emit)
    }

    private mutating func multitouchFrame(time: Double, emit: (StrokeEvent) -> Void) {
        defer { previous = slots }
        let anyActive = slots.contains { $0.live }
        if ignoreUntilAllLift {
            if !anyActive { ignoreUntilAllLift = false }
            return
        }
        if followed == nil, let resume = resumeTrackingID {
            resumeTrackingID = nil
            if let index = slots.firstIndex(where: { $0.trackingID == resume && $0.live && !$0.palm }) {
                followed = index
                previous[index].trackingID = -1
            }
        }
        if followed == nil {
            let wasActive = previous.contains { $0.live }
            guard !wasActive, let first = slots.firstIndex(where: { $0.live && !$0.palm }) else {
                if anyActive { ignoreUntilAllLift = true }
                return
            }
            followed = first
        }
        guard let index = followed else { return }
        let slot = slots[index]
        let sameContact = slot.trackingID >= 0 && (previous[index].trackingID < 0 || previous[index].trackingID == slot.trackingID)
        update(contact: sameContact, x: slot.x, y: slot.y, pressure: slot.pressure, palm: slot.palm, time: time, emit: emit)
        if !sameContact || slot.palm {
            followed = nil
            if slots.contains(where: { $0.live }) { ignoreUntilAllLift = true }
        }
    }

    private mutating func update(contact: Bool, x: Int32, y: Int32, pressure: Int32, palm: Bool,
                                 time: Double, emit: (StrokeEvent) -> Void) {
        if palm {
            if stroking { emit(.cancel) }
            stroking = false
            inContact = false
            return
        }
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
