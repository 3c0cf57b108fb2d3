import SignpadVocabulary

/// A key as the device last reported it.
enum KeyState: Equatable, Sendable {
    case released
    case pressed

    init(_ value: Int32) { self = value != 0 ? .pressed : .released }
}

/// The axes and buttons of a device of one contact (touchscreen, pen, pointer), as they last came.
struct SingleContactAxes: Sendable {
    var x: Int32 = 0
    var y: Int32 = 0
    var pressure: Int32 = 0
    var tiltX: Int32 = 0
    var tiltY: Int32 = 0
    var touch = KeyState.released
    var left = KeyState.released

    /// Takes an event's axis or button; true when it was one of them.
    @discardableResult
    mutating func absorb(_ event: InputEvent) -> Bool {
        typealias C = EventCode
        switch (event.type, event.code) {
        case (C.EV_KEY, C.BTN_TOUCH): touch = KeyState(event.value)
        case (C.EV_KEY, C.BTN_LEFT): left = KeyState(event.value)
        case (C.EV_ABS, C.ABS_X): x = event.value
        case (C.EV_ABS, C.ABS_Y): y = event.value
        case (C.EV_ABS, C.ABS_PRESSURE): pressure = event.value
        case (C.EV_ABS, C.ABS_TILT_X): tiltX = event.value
        case (C.EV_ABS, C.ABS_TILT_Y): tiltY = event.value
        default: return false
        }
        return true
    }

    /// Either contact button is down: what the position watch counts as a touch.
    var anyButtonDown: Bool { touch == .pressed || left == .pressed }
}

/// The one contact of such a device as the front end reports it. Held: let go of, or down at
/// open; nothing is reported until the device says it is up (a device of one contact has no
/// other to follow meanwhile).
enum SingleContactState: Equatable, Sendable {
    case up
    case down
    case held

    /// The phase a frame reports for a contact down or not now, and the state after it.
    mutating func phase(down: Bool) -> ContactPhase? {
        switch (self, down) {
        case (.held, true), (.up, false): return nil
        case (.held, false):
            self = .up
            return nil
        case (.up, true):
            self = .down
            return .began
        case (.down, true): return .moved
        case (.down, false):
            self = .up
            return .ended
        }
    }

    /// After dropped events: whatever the contact did meanwhile is unknown, so one down is
    /// reported as landing in the next frame, a new stroke.
    mutating func resync() {
        if self != .held { self = .up }
    }
}

extension ContactFrame {
    /// A device of one contact: its contact in slot 0, if the phase says there is one to report.
    /// Inlined: a call would copy the mapping first, at every frame of a pen hovering.
    @inline(__always)
    mutating func report(_ phase: ContactPhase?, tool: ContactTool, axes: SingleContactAxes, mapping: ScreenMapping) {
        guard let phase else { return }
        append(Contact(slot: 0, id: 0, phase: phase, tool: tool, point: mapping.point(x: axes.x, y: axes.y),
                       pressure: mapping.pressure(axes.pressure), tilt: mapping.tilt(x: axes.tiltX, y: axes.tiltY)))
    }
}

/// A device of one contact and a button that says it is down (a single-touch screen's BTN_TOUCH,
/// an absolute pointer's BTN_LEFT): the front end is the same but for that button.
protocol SingleContactFrontEnd: ContactFrontEnd {
    var axes: SingleContactAxes { get set }
    var contact: SingleContactState { get set }
    /// The device's button for the contact is down.
    var contactDown: Bool { get }
}

extension SingleContactFrontEnd {
    mutating func absorb(_ event: InputEvent) {
        axes.absorb(event)
    }

    mutating func endFrame(time: Double, into frame: inout ContactFrame) {
        frame.begin(time: time)
        frame.report(contact.phase(down: contactDown), tool: .finger, axes: axes, mapping: mapping)
    }

    /// The contact down when events were dropped.
    func dropped(into frame: inout ContactFrame) {
        frame.report(contact == .down ? .cancelled : nil, tool: .finger, axes: axes, mapping: mapping)
    }

    mutating func resync(into frame: inout ContactFrame) { contact.resync() }

    /// The contact down now, or the next, is ignored until the device says it is up.
    mutating func letGo(into frame: inout ContactFrame) { contact = .held }

    var slotCount: Int { 1 }
    var anyContactDown: Bool { axes.anyButtonDown }

    mutating func setInitialState(_ state: InitialDeviceState) {
        (axes.x, axes.y) = (state.x, state.y)
        if state.touching { contact = .held }
    }

    mutating func reset() {
        axes.touch = .released
        axes.left = .released
        if contact == .down { contact = .up }
    }
}
