import SignpadInput

extension DeviceDescription {
    /// A pen as the kernel's drivers describe one: proximity (BTN_TOOL_PEN), contact (BTN_TOUCH),
    /// X and Y from 0 to `axisMaximum`, pressure from 0 to 1023.
    public static func pen(name: String = "pen", axisMaximum: Int32) -> DeviceDescription {
        typealias C = EventCode
        var pen = DeviceDescription(name: name)
        pen.codes[C.EV_KEY] = [C.BTN_TOOL_PEN, C.BTN_TOUCH]
        pen.codes[C.EV_ABS] = [C.ABS_X, C.ABS_Y, C.ABS_PRESSURE]
        pen.absInfo[C.ABS_X] = AbsInfo(minimum: 0, maximum: axisMaximum)
        pen.absInfo[C.ABS_Y] = AbsInfo(minimum: 0, maximum: axisMaximum)
        pen.absInfo[C.ABS_PRESSURE] = AbsInfo(minimum: 0, maximum: 1023)
        return pen
    }
}

extension DeviceDescription {
    /// A single-touch panel as the kernel's drivers describe one: INPUT_PROP_DIRECT, contact
    /// (BTN_TOUCH), X from 0 to `xMaximum` and Y from 0 to `yMaximum`.
    public static func touchscreen(name: String = "touchscreen", xMaximum: Int32, yMaximum: Int32) -> DeviceDescription {
        typealias C = EventCode
        var touch = DeviceDescription(name: name)
        touch.properties = [C.INPUT_PROP_DIRECT]
        touch.codes[C.EV_KEY] = [C.BTN_TOUCH]
        touch.codes[C.EV_ABS] = [C.ABS_X, C.ABS_Y]
        touch.absInfo[C.ABS_X] = AbsInfo(minimum: 0, maximum: xMaximum)
        touch.absInfo[C.ABS_Y] = AbsInfo(minimum: 0, maximum: yMaximum)
        return touch
    }
}
