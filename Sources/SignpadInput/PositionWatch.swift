/// A device that reports its position on other axes than the ones signpad reads (a joystick-like
/// descriptor, a panel whose driver maps it to ABS_Z and ABS_RX) is taken, and every touch draws
/// nothing: the position signpad reads never moves. This watches for touches in which the axes
/// signpad reads stay put while others that could be a position move; after
/// `touchesToTell` of them in a row, it names those axes, once.
struct PositionWatch: Sendable {
    static let touchesToTell = 3

    /// What moved during the touch under way: the position read wins over any other axis.
    private enum Movement: Sendable {
        case nothing
        /// Axes that could be a position, as bits, and not the position read.
        case others(UInt64)
        case position
    }

    private enum Phase: Sendable {
        case lifted
        case touching(Movement)
        /// The axes were named: nothing more is watched.
        case told
    }

    /// The last value of each absolute axis (the kernel has 64); `Int32.min`: not seen yet.
    /// Inline: an array would be checked for a second owner on every event's store.
    private var last = InlineArray<64, Int32>(repeating: .min)
    private var phase = Phase.lifted
    /// Touches in a row in which only other axes moved.
    private var stuckTouches = 0

    /// Axes that are never a position, as bits: pressure, distance, tilt, contact size and shape, slots and ids.
    private static let notPosition: UInt64 = [0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x20, 0x21, 0x28, 0x2e, 0x2f, 0x30, 0x31, 0x32,
                                              0x33, 0x34, 0x37, 0x38, 0x39, 0x3a, 0x3b].reduce(0) { $0 | 1 << $1 }
    /// The axes signpad reads the position from, as bits.
    private static let read: UInt64 = [EventCode.ABS_X, EventCode.ABS_Y, EventCode.ABS_MT_POSITION_X, EventCode.ABS_MT_POSITION_Y]
        .reduce(0) { $0 | 1 << UInt64($1) }

    mutating func saw(axis: UInt16, value: Int32) {
        if case .told = phase { return }
        guard axis < 64 else { return }
        let before = last[Int(axis)]
        last[Int(axis)] = value
        guard case .touching(let movement) = phase, before != .min, before != value else { return }
        let bit: UInt64 = 1 << UInt64(axis)
        switch movement {
        case .position:
            break
        case _ where Self.read & bit != 0:
            phase = .touching(.position)
        case .nothing where Self.couldBePosition(axis):
            phase = .touching(.others(bit))
        case .others(let axes) where Self.couldBePosition(axis):
            phase = .touching(.others(axes | bit))
        case .nothing, .others:
            break
        }
    }

    /// The end of a frame, with a contact down or not; at the touch that makes `touchesToTell`,
    /// the axes that moved instead, as a bit mask.
    mutating func frame(contactDown: Bool) -> UInt64? {
        switch (phase, contactDown) {
        case (.lifted, true):
            phase = .touching(.nothing)
        case (.touching(let movement), false):
            phase = .lifted
            return touchEnded(movement)
        case (.lifted, false), (.touching, true), (.told, _):
            break
        }
        return nil
    }

    private mutating func touchEnded(_ movement: Movement) -> UInt64? {
        switch movement {
        case .nothing:
            return nil
        case .position:
            stuckTouches = 0
            return nil
        case .others(let axes):
            stuckTouches += 1
            guard stuckTouches >= Self.touchesToTell else { return nil }
            phase = .told
            return axes
        }
    }

    /// An axis signpad does not read that a driver might put a position on.
    static func couldBePosition(_ axis: UInt16) -> Bool {
        axis < 64 && (read | notPosition) & (1 << UInt64(axis)) == 0
    }

    /// The kernel's name of an absolute axis: ABS_Z, ABS_MT_TOOL_X.
    static func name(_ axis: UInt16) -> String {
        let names: [UInt16: String] = [
            0x00: "ABS_X", 0x01: "ABS_Y", 0x02: "ABS_Z", 0x03: "ABS_RX", 0x04: "ABS_RY", 0x05: "ABS_RZ", 0x06: "ABS_THROTTLE",
            0x07: "ABS_RUDDER", 0x08: "ABS_WHEEL", 0x09: "ABS_GAS", 0x0a: "ABS_BRAKE", 0x10: "ABS_HAT0X", 0x11: "ABS_HAT0Y",
            0x12: "ABS_HAT1X", 0x13: "ABS_HAT1Y", 0x14: "ABS_HAT2X", 0x15: "ABS_HAT2Y", 0x16: "ABS_HAT3X", 0x17: "ABS_HAT3Y",
            0x3c: "ABS_MT_TOOL_X", 0x3d: "ABS_MT_TOOL_Y",
        ]
        return names[axis] ?? "ABS 0x" + String(axis, radix: 16)
    }
}

extension DeviceDescription {
    /// Absolute axes the device has that signpad does not read and a driver might put the
    /// position on, by their kernel names (for `signpad devices`).
    public var unreadPositionLikeAxes: [String] {
        absInfo.keys.sorted().filter { PositionWatch.couldBePosition($0) }.map { PositionWatch.name($0) }
    }
}
