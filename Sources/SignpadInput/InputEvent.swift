/// One `struct input_event` as the kernel delivers it, in Swift.
public struct InputEvent: Equatable, Sendable {
    /// Kernel timestamp in microseconds (CLOCK_MONOTONIC on the live path).
    public var microseconds: Int64
    public var type: UInt16
    public var code: UInt16
    public var value: Int32

    public init(microseconds: Int64, type: UInt16, code: UInt16, value: Int32) {
        self.microseconds = microseconds
        self.type = type
        self.code = code
        self.value = value
    }

    public var seconds: Double { Double(microseconds) / 1_000_000 }

    /// SYN_REPORT: the device's frame is complete.
    @inlinable public var endsFrame: Bool { type == EventCode.EV_SYN && code == EventCode.SYN_REPORT }
}

/// The event codes signpad reads, from <linux/input-event-codes.h>.
public enum EventCode {
    public static let EV_SYN: UInt16 = 0x00
    public static let EV_KEY: UInt16 = 0x01
    public static let EV_ABS: UInt16 = 0x03

    public static let SYN_REPORT: UInt16 = 0
    /// Protocol A: the end of one contact's values within a frame.
    public static let SYN_MT_REPORT: UInt16 = 2
    public static let SYN_DROPPED: UInt16 = 3

    public static let BTN_0: UInt16 = 0x100
    public static let BTN_LEFT: UInt16 = 0x110
    public static let BTN_TOOL_PEN: UInt16 = 0x140
    public static let BTN_TOOL_RUBBER: UInt16 = 0x141
    public static let BTN_TOOL_FINGER: UInt16 = 0x145
    public static let BTN_TOUCH: UInt16 = 0x14a
    public static let BTN_STYLUS: UInt16 = 0x14b

    public static let ABS_X: UInt16 = 0x00
    public static let ABS_Y: UInt16 = 0x01
    public static let ABS_PRESSURE: UInt16 = 0x18
    public static let ABS_TILT_X: UInt16 = 0x1a
    public static let ABS_TILT_Y: UInt16 = 0x1b
    public static let ABS_MT_SLOT: UInt16 = 0x2f
    public static let ABS_MT_POSITION_X: UInt16 = 0x35
    public static let ABS_MT_POSITION_Y: UInt16 = 0x36
    public static let ABS_MT_TOOL_TYPE: UInt16 = 0x37
    public static let ABS_MT_TRACKING_ID: UInt16 = 0x39
    public static let ABS_MT_PRESSURE: UInt16 = 0x3a

    public static let MT_TOOL_PALM: Int32 = 2

    public static let INPUT_PROP_POINTER: UInt16 = 0
    public static let INPUT_PROP_DIRECT: UInt16 = 1

    static let absNames: [UInt16: String] = [
        ABS_X: "ABS_X", ABS_Y: "ABS_Y", ABS_PRESSURE: "ABS_PRESSURE", ABS_TILT_X: "ABS_TILT_X", ABS_TILT_Y: "ABS_TILT_Y", ABS_MT_SLOT: "ABS_MT_SLOT",
        ABS_MT_POSITION_X: "ABS_MT_POSITION_X", ABS_MT_POSITION_Y: "ABS_MT_POSITION_Y",
        ABS_MT_TRACKING_ID: "ABS_MT_TRACKING_ID", ABS_MT_PRESSURE: "ABS_MT_PRESSURE",
    ]

    public static func absName(_ code: UInt16) -> String {
        absNames[code] ?? "ABS_0x" + String(code, radix: 16)
    }
}
