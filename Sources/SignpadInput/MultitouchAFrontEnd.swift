import SignpadVocabulary

/// A multitouch panel of protocol A: no slots, each frame lists every contact down, each closed
/// by SYN_MT_REPORT. They are put into slots as the kernel's `input_mt_assign_slots` and mtdev
/// do: a contact keeps the slot of the one it was in the last frame, by the panel's tracking id
/// when it sends one, else by nearness (no further than `maxJump` of the screen's diagonal);
/// the rest land in free slots, and slots no contact kept are lifts.
struct MultitouchAFrontEnd: ContactFrontEnd {
    /// A contact as its ABS_MT_* values came, before SYN_MT_REPORT closed it.
    struct Reported: Sendable {
        var x: Int32 = 0
        var y: Int32 = 0
        var pressure: Int32 = 0
        var tool = ContactTool.finger
        var trackingID: Int32?
        /// A report without a position (the frame without contacts) is no contact.
        var position = Position.absent
    }

    enum Position: Equatable, Sendable {
        case absent
        case present
    }

    /// The contacts a frame can list (more are dropped), as slots.
    static let slotCount = 16
    /// Without tracking ids: the furthest a contact moves from one frame to the next, as a share
    /// of the screen's diagonal; one further away is another contact. A fast stroke moves a few
    /// percent of it in a frame; a second finger lands further away than this.
    static let maxJump = 0.1

    var mapping: ScreenMapping
    private(set) var slots = Array(repeating: MultitouchSlot(), count: slotCount)
    private var pending = Reported()
    /// This frame's contacts (the first `reportedCount`); storage kept from frame to frame.
    private var reported = Array(repeating: Reported(), count: slotCount)
    private var reportedCount = 0
    /// Tracking ids made up for a panel that sends none.
    private var nextTrackingID: Int32 = 0

    init(mapping: ScreenMapping) {
        self.mapping = mapping
    }

    mutating func absorb(_ event: InputEvent) {
        typealias C = EventCode
        if event.type == C.EV_SYN && event.code == C.SYN_MT_REPORT {
            closeReported()
            return
        }
        guard event.type == C.EV_ABS else { return }
        switch event.code {
        case C.ABS_MT_TRACKING_ID: pending.trackingID = event.value
        case C.ABS_MT_POSITION_X: (pending.x, pending.position) = (event.value, .present)
        case C.ABS_MT_POSITION_Y: (pending.y, pending.position) = (event.value, .present)
        case C.ABS_MT_PRESSURE: pending.pressure = event.value
        case C.ABS_MT_TOOL_TYPE: pending.tool = event.value == C.MT_TOOL_PALM ? .palm : .finger
        default: break
        }
    }

    /// SYN_REPORT: a driver that leaves out the last SYN_MT_REPORT still reported that contact.
    mutating func endFrame(time: Double, into frame: inout ContactFrame) {
        closeReported()
        assignReported()
        slots.endFrame(time: time, mapping: mapping, into: &frame)
    }

    /// In sync again after dropped events: the frame being read is lost; the slots are as they were.
    mutating func resync(into frame: inout ContactFrame) {
        pending = Reported()
        reportedCount = 0
        slots.resync(mapping: mapping, into: &frame)
    }

    func dropped(into frame: inout ContactFrame) { slots.dropped(mapping: mapping, into: &frame) }
    mutating func letGo(into frame: inout ContactFrame) { slots.letGo(mapping: mapping, into: &frame) }
    mutating func reset() { slots.reset() }

    var slotCount: Int { slots.count }
    var anyContactDown: Bool { slots.contains { $0.isDown } }

    mutating func setInitialState(_ state: InitialDeviceState) { slots.setInitialState(state.slots) }

    /// SYN_MT_REPORT: the contact whose values came is one of the frame's.
    private mutating func closeReported() {
        if pending.position == .present && pending.trackingID.map({ $0 >= 0 }) ?? true && reportedCount < reported.count {
            reported[reportedCount] = pending
            reportedCount += 1
        }
        pending = Reported()
    }

    /// Puts the frame's contacts into slots, as protocol B would have reported them. No
    /// allocation: the frame's contacts and slots are marked in bits.
    private mutating func assignReported() {
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
        let maxJump = max(Double(mapping.screenWidth), Double(mapping.screenHeight), screen) * Self.maxJump
        while true {
            var best: (slot: Int, contact: Int, distance: Double)?
            for index in slots.indices where slots[index].isDown && slotTaken & (1 << UInt64(index)) == 0 {
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
        for index in slots.indices where slots[index].isDown && slotTaken & (1 << UInt64(index)) == 0 {
            slots[index].trackingID = -1
        }
        // The rest landed now, each in a free slot.
        for r in 0..<reportedCount where contactPlaced & (1 << UInt64(r)) == 0 {
            guard let index = slots.indices.first(where: { !slots[$0].isDown && slotTaken & (1 << UInt64($0)) == 0 }) else { break }
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
            if id == slots[index].reportedID { id = id == Int32.max ? 0 : id + 1 }
            slots[index].trackingID = id
        }
        slots[index].x = contact.x
        slots[index].y = contact.y
        slots[index].pressure = contact.pressure
        slots[index].tool = contact.tool
    }
}
