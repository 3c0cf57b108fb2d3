import SignpadVocabulary

/// One slot of a multitouch panel as its events last set it: a tracking id of −1 is no contact.
struct MultitouchSlot: Equatable, Sendable {
    var trackingID: Int32 = -1
    var x: Int32 = 0
    var y: Int32 = 0
    var pressure: Int32 = 0
    var tool = ContactTool.finger
    /// The tracking id at the end of the last frame the policy judged.
    var reportedID: Int32 = -1

    var isDown: Bool { trackingID >= 0 }

    /// Its phase in the frame that ends now (nil: no contact then or now), by its tracking id
    /// then and now. A new id in place of another is a contact that landed as the other lifted.
    var phase: ContactPhase? {
        switch (reportedID >= 0, trackingID >= 0) {
        case (false, false): nil
        case (false, true): .began
        case (true, false): .ended
        case (true, true): reportedID == trackingID ? .moved : .began
        }
    }

    func contact(slot: Int, phase: ContactPhase, mapping: ScreenMapping) -> Contact {
        Contact(slot: slot, id: trackingID, phase: phase, tool: tool, point: mapping.point(x: x, y: y),
                pressure: mapping.pressure(pressure))
    }
}

extension [MultitouchSlot] {
    /// The frame's contacts, in slot order; the slots' ids become those the next frame is compared with.
    mutating func endFrame(time: Double, mapping: ScreenMapping, into frame: inout ContactFrame) {
        frame.begin(time: time)
        for index in indices {
            if let phase = self[index].phase { frame.append(self[index].contact(slot: index, phase: phase, mapping: mapping)) }
            self[index].reportedID = self[index].trackingID
        }
    }

    /// The contacts down now, each with `phase`, and what the next frame is compared with.
    mutating func list(_ phase: (MultitouchSlot) -> ContactPhase, mapping: ScreenMapping, into frame: inout ContactFrame) {
        for index in indices {
            if self[index].isDown { frame.append(self[index].contact(slot: index, phase: phase(self[index]), mapping: mapping)) }
            self[index].reportedID = self[index].trackingID
        }
    }

    /// Events were dropped: every contact down is cancelled (nothing is remembered, the frame
    /// goes on being read until the device is in sync again).
    func dropped(mapping: ScreenMapping, into frame: inout ContactFrame) {
        for index in indices where self[index].isDown {
            frame.append(self[index].contact(slot: index, phase: .cancelled, mapping: mapping))
        }
    }

    /// In sync again after dropped events: the contacts down, landed meanwhile or not.
    mutating func resync(mapping: ScreenMapping, into frame: inout ContactFrame) {
        list({ $0.phase ?? .moved }, mapping: mapping, into: &frame)
    }

    /// The contacts down now, to be let go of; they are no longer new to the next frame.
    mutating func letGo(mapping: ScreenMapping, into frame: inout ContactFrame) {
        list({ _ in .moved }, mapping: mapping, into: &frame)
    }

    mutating func setInitialState(_ initial: [(trackingID: Int32, x: Int32, y: Int32)]) {
        for (index, state) in initial.enumerated() where index < count {
            self[index].trackingID = state.trackingID
            self[index].x = state.x
            self[index].y = state.y
            self[index].reportedID = state.trackingID
        }
    }

    /// The device is gone: no contact anywhere.
    mutating func reset() {
        for index in indices { self[index] = MultitouchSlot() }
    }
}
