import SignpadVocabulary

/// What every front end does: raw events in, frames of contacts out (libinput's dispatch
/// interface). A decoder holds its front end as a `ChosenFrontEnd`, chosen once from the
/// device's classification, and calls it in place: no front end is copied per event.
protocol ContactFrontEnd: Sendable {
    var mapping: ScreenMapping { get }
    /// The contacts a frame can list.
    var slotCount: Int { get }
    /// A contact down by the device's word, let go of or not: what the position watch counts as a touch.
    var anyContactDown: Bool { get }
    /// A pen: whether near the glass (see `PenFrontEnd`), and where it is, hovering or touching;
    /// every other kind is never near and has no position. Read at a frame's end, not per event.
    var pen: PenReading { get }
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
    /// The device's state at open (see `ContactDecoder.setInitialState`).
    mutating func setInitialState(_ state: InitialDeviceState)
}

extension ContactFrontEnd {
    var pen: PenReading { PenReading(near: false, position: nil) }
}

/// Whether a pen is near the glass, and where it is (nil: unknown, or no pen).
public struct PenReading: Equatable, Sendable {
    public let near: Bool
    public let position: Point?
}

/// What a device reports of itself when it is opened, before its first event.
struct InitialDeviceState {
    var slots: [(trackingID: Int32, x: Int32, y: Int32)]
    var currentSlot: Int
    var touching: Bool
    var penInRange: Bool
    var eraserInRange: Bool
    var x: Int32
    var y: Int32
}
