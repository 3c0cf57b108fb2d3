import SignpadVocabulary

/// A pen: BTN_TOUCH is its tip on the glass, BTN_TOOL_PEN and BTN_TOOL_RUBBER its proximity and
/// which end is near. Hovering is not contact, nor is BTN_TOUCH once the pen has left.
struct PenFrontEnd: ContactFrontEnd {
    /// Whether a pen is in range, as its tool keys say.
    enum Proximity: Equatable, Sendable {
        case out
        case near
    }

    var mapping: ScreenMapping
    private(set) var axes = SingleContactAxes()
    private var contact = SingleContactState.up
    private var proximity = Proximity.out
    /// The end near the glass: its contacts draw or erase.
    private var end = ContactTool.pen
    /// The pen reports proximity (BTN_TOOL_PEN); one that does not is near only while touching.
    private let reportsProximity: Bool

    init(mapping: ScreenMapping, reportsProximity: Bool) {
        self.mapping = mapping
        self.reportsProximity = reportsProximity
    }

    mutating func absorb(_ event: InputEvent) {
        typealias C = EventCode
        guard !axes.absorb(event), event.type == C.EV_KEY else { return }
        let pressed = event.value != 0
        switch event.code {
        case C.BTN_TOOL_PEN:
            proximity = pressed ? .near : .out
            if pressed { end = .pen }
        case C.BTN_TOOL_RUBBER:
            proximity = pressed ? .near : .out
            end = pressed ? .eraser : .pen
        default: break
        }
    }

    /// Near the glass: in proximity, or, for a pen that does not report it, touching; and where.
    /// Inlined: read at every frame, as a call it costs about 45 instructions more a frame.
    @inline(__always)
    var pen: PenReading {
        PenReading(near: reportsProximity ? proximity == .near : axes.touch == .pressed, position: mapping.point(x: axes.x, y: axes.y))
    }

    var slotCount: Int { 1 }
    var anyContactDown: Bool { axes.anyButtonDown }

    /// A pen out of proximity is never in contact, whatever BTN_TOUCH last said.
    private var touches: Bool { axes.touch == .pressed && (proximity == .near || !reportsProximity) }

    mutating func endFrame(time: Double, into frame: inout ContactFrame) {
        frame.begin(time: time)
        frame.report(contact.phase(down: touches), tool: end, axes: axes, mapping: mapping)
    }

    func dropped(into frame: inout ContactFrame) {
        frame.report(contact == .down ? .cancelled : nil, tool: end, axes: axes, mapping: mapping)
    }

    mutating func resync(into frame: inout ContactFrame) { contact.resync() }

    mutating func letGo(into frame: inout ContactFrame) { contact = .held }

    mutating func setInitialState(_ state: InitialDeviceState) {
        (axes.x, axes.y) = (state.x, state.y)
        if state.touching { contact = .held }
        proximity = state.penInRange || state.eraserInRange ? .near : .out
        end = state.eraserInRange ? .eraser : .pen
    }

    mutating func reset() {
        axes.touch = .released
        axes.left = .released
        proximity = .out
        end = .pen
        if contact == .down { contact = .up }
    }
}
