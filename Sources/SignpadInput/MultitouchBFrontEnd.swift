import SignpadVocabulary

/// A multitouch panel of protocol B: ABS_MT_SLOT picks a slot, its tracking id lands (≥ 0) and
/// lifts (−1) its contact. BTN_TOUCH is not trusted: QEMU's virtio multitouch never releases it.
struct MultitouchBFrontEnd: ContactFrontEnd {
    var mapping: ScreenMapping
    private(set) var slots: [MultitouchSlot]
    private var currentSlot = 0

    init(mapping: ScreenMapping, slotCount: Int) {
        self.mapping = mapping
        slots = Array(repeating: MultitouchSlot(), count: slotCount)
    }

    mutating func absorb(_ event: InputEvent) {
        typealias C = EventCode
        guard event.type == C.EV_ABS else { return }
        if event.code == C.ABS_MT_SLOT {
            currentSlot = Int(event.value)
            return
        }
        // A device claiming fewer slots than it uses: the others are ignored.
        guard slots.indices.contains(currentSlot) else { return }
        switch event.code {
        case C.ABS_MT_TRACKING_ID:
            slots[currentSlot].trackingID = event.value
            // A lifted contact keeps its tool: the frame may yet judge it.
            if event.value >= 0 { slots[currentSlot].tool = .finger }
        case C.ABS_MT_POSITION_X: slots[currentSlot].x = event.value
        case C.ABS_MT_POSITION_Y: slots[currentSlot].y = event.value
        case C.ABS_MT_PRESSURE: slots[currentSlot].pressure = event.value
        case C.ABS_MT_TOOL_TYPE: slots[currentSlot].tool = event.value == C.MT_TOOL_PALM ? .palm : .finger
        default: break
        }
    }

    mutating func endFrame(time: Double, into frame: inout ContactFrame) { slots.endFrame(time: time, mapping: mapping, into: &frame) }
    func dropped(into frame: inout ContactFrame) { slots.dropped(mapping: mapping, into: &frame) }
    mutating func resync(into frame: inout ContactFrame) { slots.resync(mapping: mapping, into: &frame) }
    mutating func letGo(into frame: inout ContactFrame) { slots.letGo(mapping: mapping, into: &frame) }
    mutating func reset() { slots.reset() }

    var slotCount: Int { slots.count }
    var anyContactDown: Bool { slots.contains { $0.isDown } }

    mutating func setInitialState(_ state: InitialDeviceState) {
        slots.setInitialState(state.slots)
        currentSlot = state.currentSlot
    }
}
