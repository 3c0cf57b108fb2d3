/// What kind of contact device a capability set describes. Classified by capability, never by vendor id.
public enum DeviceKind: String, Equatable, Sendable {
    /// A direct-touch panel: INPUT_PROP_DIRECT with BTN_TOUCH or multitouch.
    case touchscreen
    /// A stylus (BTN_TOOL_PEN or BTN_STYLUS): hovering is not contact; BTN_TOUCH is.
    case pen
    /// An absolute pointer such as QEMU's usb-tablet: BTN_LEFT is pen-down.
    case absolutePointer = "absolute-pointer"
}

/// How a device reports its contacts, which picks the front end that reads it.
public enum ContactReporting: Equatable, Sendable {
    /// One contact on ABS_X and ABS_Y: a single-touch panel, a pen or an absolute pointer.
    case single
    /// Multitouch protocol A: every contact in each frame, in no fixed order and without slots.
    case multitouchA
    /// Multitouch protocol B: ABS_MT_SLOT picks one of `slots` slots, each a tracked contact.
    case multitouchB(slots: Int)

    /// More contacts than any panel tracks; a device claiming more slots (a faulty descriptor, a
    /// doctored recording) has the rest ignored rather than a slot array of any size.
    public static let maxSlots = 256

    public var isMultitouch: Bool { self != .single }
}

public enum DeviceClass: Equatable, Sendable {
    case usable(DeviceKind, ContactReporting)
    case skipped(reason: String)

    public var kind: DeviceKind? {
        if case .usable(let kind, _) = self { return kind }
        return nil
    }
}

public enum DeviceClassifier {
    public static func classify(_ device: DeviceDescription) -> DeviceClass {
        let found = kind(of: device)
        // A pen or pointer is read through ABS_X and ABS_Y even if it also has multitouch axes.
        if case .usable(_, .single) = found, let problem = axesProblem(device, multitouch: false) {
            return .skipped(reason: problem)
        }
        return found
    }

    private static func kind(of device: DeviceDescription) -> DeviceClass {
        typealias C = EventCode
        // Protocol B (slots with tracking ids), or protocol A (no slots: every contact each frame).
        let multitouch = device.hasAbs(C.ABS_MT_POSITION_X) && device.hasAbs(C.ABS_MT_POSITION_Y)
            && (!device.hasAbs(C.ABS_MT_SLOT) || device.hasAbs(C.ABS_MT_TRACKING_ID))
        if let problem = axesProblem(device, multitouch: multitouch) { return .skipped(reason: problem) }
        let touches = multitouch ? reporting(device) : .single
        // The order follows udev's input_id, which libinput relies on.
        let direct = device.hasProperty(C.INPUT_PROP_DIRECT)
        // A tablet's pad (its buttons, rings and strips) says BTN_STYLUS, for old X drivers, with
        // BTN_0 and no BTN_TOOL_PEN: udev's input_id tells it from the pen that way.
        if device.hasKey(C.BTN_STYLUS) && device.hasKey(C.BTN_0) && !device.hasKey(C.BTN_TOOL_PEN) {
            return .skipped(reason: "a tablet's pad (buttons, rings and strips; its pen is another device)")
        }
        // A pen's tip is BTN_TOUCH; without it a stylus device is judged by the rules below.
        if (device.hasKey(C.BTN_TOOL_PEN) || device.hasKey(C.BTN_STYLUS)) && device.hasKey(C.BTN_TOUCH) {
            return .usable(.pen, .single)
        }
        if device.hasKey(C.BTN_TOOL_FINGER) && !direct {
            return .skipped(reason: "a touchpad (indirect finger input moves a pointer, it does not sign)")
        }
        if direct && (multitouch || device.hasKey(C.BTN_TOUCH)) {
            return .usable(.touchscreen, touches)
        }
        if device.hasKey(C.BTN_LEFT) {
            return .usable(.absolutePointer, .single)
        }
        // Panels older than INPUT_PROP_DIRECT (the 3M MicroTouch) say only BTN_TOUCH or multitouch.
        if multitouch || device.hasKey(C.BTN_TOUCH) {
            return .usable(.touchscreen, touches)
        }
        return .skipped(reason: "absolute axes but no BTN_TOUCH, BTN_LEFT or multitouch to tell when it touches")
    }

    /// A multitouch device's protocol: slots (B) or none (A).
    private static func reporting(_ device: DeviceDescription) -> ContactReporting {
        guard let slot = device.absInfo[EventCode.ABS_MT_SLOT] else { return .multitouchA }
        return .multitouchB(slots: Int(min(max(Int64(slot.maximum) + 1, 0), Int64(ContactReporting.maxSlots))))
    }

    /// Why the X/Y axes the decoder would read (multitouch or single) cannot place a touch, if they cannot.
    private static func axesProblem(_ device: DeviceDescription, multitouch: Bool) -> String? {
        typealias C = EventCode
        let axes: (UInt16, UInt16) = multitouch ? (C.ABS_MT_POSITION_X, C.ABS_MT_POSITION_Y) : (C.ABS_X, C.ABS_Y)
        guard let xInfo = device.absInfo[axes.0], let yInfo = device.absInfo[axes.1],
              device.hasAbs(axes.0), device.hasAbs(axes.1) else {
            return "no absolute X/Y axes (a keyboard, mouse or button device)"
        }
        for (code, info) in [(axes.0, xInfo), (axes.1, yInfo)] where info.maximum <= info.minimum {
            return "\(EventCode.absName(code)) has min \(info.minimum) and max \(info.maximum): no usable range"
        }
        return nil
    }
}
