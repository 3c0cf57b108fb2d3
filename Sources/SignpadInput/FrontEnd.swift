import SignpadVocabulary

/// What every front end does: raw events in, frames of contacts out (libinput's dispatch interface).
protocol ContactFrontEnd: Sendable {
    var mapping: ScreenMapping { get }
    /// One event that is no SYN_REPORT or SYN_DROPPED.
    mutating func absorb(_ event: InputEvent)
    /// SYN_REPORT: the frame's contacts into `frame`.
    mutating func endFrame(time: Double, into frame: inout ContactFrame)
    /// SYN_DROPPED: the contacts down now, cancelled.
    func dropped(into frame: inout ContactFrame)
    /// The first SYN_REPORT after dropped events: the contacts down now, and no frame judged.
    mutating func resync(into frame: inout ContactFrame)
    /// The contacts down now are let go of: those the policy is to ignore until they lift.
    mutating func letGo(into frame: inout ContactFrame)
    /// The device is gone: nothing is down.
    mutating func reset()
}

/// A device's front end, chosen once from its classification.
enum FrontEnd: Sendable {
    case singleTouch(SingleTouchFrontEnd)
    case pen(PenFrontEnd)
    case absolutePointer(AbsolutePointerFrontEnd)
    case multitouchB(MultitouchBFrontEnd)
    case multitouchA(MultitouchAFrontEnd)
    /// Only while one of the others is changed in place: its arrays are then not shared, and so
    /// not copied.
    case detached

    /// A call on the front end, whichever it is.
    enum Call {
        case absorb(InputEvent)
        case endFrame(time: Double)
        case dropped
        case resync
        case letGo
        case reset
    }

    var mapping: ScreenMapping {
        switch self {
        case .singleTouch(let f): f.mapping
        case .pen(let f): f.mapping
        case .absolutePointer(let f): f.mapping
        case .multitouchB(let f): f.mapping
        case .multitouchA(let f): f.mapping
        case .detached: preconditionFailure("a front end detached")
        }
    }

    /// The contacts a frame can list.
    var slotCount: Int {
        switch self {
        case .singleTouch, .pen, .absolutePointer, .detached: 1
        case .multitouchB(let f): f.slots.count
        case .multitouchA(let f): f.slots.count
        }
    }

    /// A contact down by the device's word, let go of or not: what the position watch counts as a touch.
    var anyContactDown: Bool {
        switch self {
        case .singleTouch(let f): f.axes.anyButtonDown
        case .pen(let f): f.axes.anyButtonDown
        case .absolutePointer(let f): f.axes.anyButtonDown
        case .multitouchB(let f): f.slots.contains { $0.isDown }
        case .multitouchA(let f): f.slots.contains { $0.isDown }
        case .detached: false
        }
    }

    var pen: PenFrontEnd? {
        if case .pen(let f) = self { return f }
        return nil
    }

    /// Makes `call` on the front end in place: it is taken out first, so its arrays are not
    /// shared with `self` and a change does not copy them.
    mutating func make(_ call: Call, frame: inout ContactFrame) {
        switch self {
        case .singleTouch(var f):
            self = .detached
            f.make(call, frame: &frame)
            self = .singleTouch(f)
        case .pen(var f):
            self = .detached
            f.make(call, frame: &frame)
            self = .pen(f)
        case .absolutePointer(var f):
            self = .detached
            f.make(call, frame: &frame)
            self = .absolutePointer(f)
        case .multitouchB(var f):
            self = .detached
            f.make(call, frame: &frame)
            self = .multitouchB(f)
        case .multitouchA(var f):
            self = .detached
            f.make(call, frame: &frame)
            self = .multitouchA(f)
        case .detached: break
        }
    }

    /// The device's state at open (see `ContactDecoder.setInitialState`).
    mutating func setInitialState(slots: [(trackingID: Int32, x: Int32, y: Int32)], currentSlot: Int, touching: Bool,
                                  penInRange: Bool, eraserInRange: Bool, x: Int32, y: Int32) {
        switch self {
        case .singleTouch(var f):
            self = .detached
            f.setInitialState(touching: touching, x: x, y: y)
            self = .singleTouch(f)
        case .pen(var f):
            self = .detached
            f.setInitialState(touching: touching, penInRange: penInRange, eraserInRange: eraserInRange, x: x, y: y)
            self = .pen(f)
        case .absolutePointer(var f):
            self = .detached
            f.setInitialState(touching: touching, x: x, y: y)
            self = .absolutePointer(f)
        case .multitouchB(var f):
            self = .detached
            f.setInitialState(slots, currentSlot: currentSlot)
            self = .multitouchB(f)
        case .multitouchA(var f):
            self = .detached
            f.setInitialState(slots)
            self = .multitouchA(f)
        case .detached: break
        }
    }
}

extension ContactFrontEnd {
    mutating func make(_ call: FrontEnd.Call, frame: inout ContactFrame) {
        switch call {
        case .absorb(let event): absorb(event)
        case .endFrame(let time): endFrame(time: time, into: &frame)
        case .dropped: dropped(into: &frame)
        case .resync: resync(into: &frame)
        case .letGo: letGo(into: &frame)
        case .reset: reset()
        }
    }
}
