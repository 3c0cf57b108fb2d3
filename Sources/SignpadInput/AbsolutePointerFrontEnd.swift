import SignpadVocabulary

/// An absolute pointer such as QEMU's usb-tablet: BTN_LEFT is the contact, ABS_X and ABS_Y where.
struct AbsolutePointerFrontEnd: ContactFrontEnd {
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
        frame.report(contact.phase(down: axes.left == .pressed), tool: .finger, axes: axes, mapping: mapping)
    }

    func dropped(into frame: inout ContactFrame) {
        frame.report(contact == .down ? .cancelled : nil, tool: .finger, axes: axes, mapping: mapping)
    }

    mutating func resync(into frame: inout ContactFrame) { contact.resync() }

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
