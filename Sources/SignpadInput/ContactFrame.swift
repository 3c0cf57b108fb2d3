import SignpadVocabulary

/// Where a contact is in its life, as a front end saw it at the end of a frame.
public enum ContactPhase: Equatable, Sendable {
    /// Landed in this frame. In a slot that held another contact, that one lifted in the same frame.
    case began
    /// Down in this frame and the one before.
    case moved
    /// Lifted in this frame.
    case ended
    /// The device lost track of it (events dropped, or the device gone).
    case cancelled
}

/// What touches the glass, as the device says.
public enum ContactTool: Equatable, Sendable {
    case finger
    /// MT_TOOL_PALM: the panel's word that a hand lies there.
    case palm
    /// A pen's tip.
    case pen
    /// A pen's eraser end (BTN_TOOL_RUBBER): its samples take ink away.
    case eraser
}

/// One contact of a frame, on the screen.
public struct Contact: Equatable, Sendable {
    /// The slot it is in: 0 for a device of one contact.
    public var slot: Int
    /// Its tracking id (the panel's, or one made up for it).
    public var id: Int32
    public var phase: ContactPhase
    public var tool: ContactTool
    public var point: Point
    public var pressure: Double?
    /// A pen's tilt, where its device reports it.
    public var tilt: Tilt? = nil

    /// Down at the end of the frame.
    var isDown: Bool { phase == .began || phase == .moved }

    func sample(time: Double) -> Sample {
        Sample(point, time: time, pressure: pressure, erasing: tool == .eraser, tilt: tilt)
    }
}

/// What a front end hands the contact policy at the end of a frame: the contacts down, and those
/// that ended, in slot order. Its storage is kept from frame to frame.
public struct ContactFrame: Sendable {
    public var time: Double = 0
    public private(set) var contacts: [Contact] = []

    init(capacity: Int) {
        contacts.reserveCapacity(capacity)
    }

    mutating func begin(time: Double) {
        self.time = time
        contacts.removeAllKeepingStorage()
    }

    mutating func append(_ contact: Contact) {
        contacts.append(contact)
    }
}
