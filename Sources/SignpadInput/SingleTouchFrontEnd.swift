import SignpadVocabulary

/// A touchscreen of one contact: BTN_TOUCH says it is down, ABS_X and ABS_Y where.
struct SingleTouchFrontEnd: ContactFrontEnd {
    var mapping: ScreenMapping
    private(set) var axes = SingleContactAxes()
    private var contact = SingleContactState.up

    init(mapping: ScreenMapping) {
        self.mapping = mapping
    }

    mutating func absorb(_ event: InputEvent) {
        axes.absorb(event)
    }

    mutating func endFrame(time: Double, into frame: inout ContactFrame) {
        frame.begin(time: time)
        frame.report(contact.phase(down: axes.touch == .pressed), tool: .finger, axes: axes, mapping: mapping)
    }

    /// The contact down when events were dropped.
    func dropped(into frame: inout ContactFrame) {
        frame.report(contact == .down ? .cancelled : nil, tool: .finger, axes: axes, mapping: mapping)
    }

    mutating func resync(into frame: inout ContactFrame) { contact.resync() }

    /// The contact down now, or the next, is ignored until the device says it is up.
    mutating func letGo(into frame: inout ContactFrame) { contact = .held }

    mutating func setInitialState(touching: Bool, x: Int32, y: Int32) {
        (axes.x, axes.y) = (x, y)
        if touching { contact = .held }
    }

    mutating func reset() {
        axes.touch = .released
        axes.left = .released
        if contact == .down { contact = .up }
    }
}
