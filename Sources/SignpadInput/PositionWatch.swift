/// A device that reports its position on other axes than the ones signpad reads (a joystick-like
/// descriptor, a panel whose driver maps it to ABS_Z and ABS_RX) is taken, and every touch draws
/// nothing: the position signpad reads never moves. This watches for touches in which the axes
/// signpad reads stay put while others that could be a position move; after
/// `touchesToTell` of them in a row, it names those axes, once.
struct PositionWatch: Sendable {
    static let touchesToTell = 3
    /// The last value of each absolute axis (the kernel has 64); `Int32.min`: not seen yet.
    private var last = [Int32](repeating: .min, count: 64)
    private var positionMoved = false
    private var othersMoved: UInt64 = 0
    private var touching = false
    private var stuckTouches = 0
    private var told = false

    /// Axes that are never a position, as bits: pressure, distance, tilt, contact size and shape, slots and ids.
    private static let notPosition: UInt64 = [0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x20, 0x21, 0x28, 0x2e, 0x2f, 0x30, 0x31, 0x32,
                                              0x33, 0x34, 0x37, 0x38, 0x39, 0x3a, 0x3b].reduce(0) { $0 | 1 << $1 }
    /// The axes signpad reads the position from, as bits.
    private static let read: UInt64 = [EventCode.ABS_X, EventCode.ABS_Y, EventCode.ABS_MT_POSITION_X, EventCode.ABS_MT_POSITION_Y]
        .reduce(0) { $0 | 1 << UInt64($1) }

    mutating func saw(axis: UInt16, value: Int32) {
        guard !told, axis < 64 else { return }
        let before = last[Int(axis)]
        last[Int(axis)] = value
        guard touching, before != .min, before != value else { return }
        let bit: UInt64 = 1 << UInt64(axis)
        if Self.read & bit != 0 {
            positionMoved = true
        } else if Self.couldBePosition(axis) {
            othersMoved |= bit
        }
    }

    /// The end of a frame, with a contact down or not; at the touch that makes `touchesToTell`,
    /// the axes that moved instead, as a bit mask.
    mutating func frame(contactDown: Bool) -> UInt64? {
        guard !told, contactDown != touching else { return nil }
        touching = contactDown
        if contactDown {
            positionMoved = false
            othersMoved = 0
            return nil
        }
        if positionMoved || othersMoved == 0 {
            stuckTouches = positionMoved ? 0 : stuckTouches
            return nil
        }
        stuckTouches += 1
        guard stuckTouches >= Self.touchesToTell else { return nil }
        told = true
        return othersMoved
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
