/// Which usable devices signpad takes when `input.device` names none.
///
/// Every touchscreen and pen is read: a panel's pen and its touchscreen are often two devices
/// (`InputArbiter` lets one stroke at a time through, the pen's first).
/// A touchscreen or pen is taken before an absolute pointer: a kiosk's board may also carry a
/// virtual mouse that reports positions (a BMC's remote console, a KVM switch, QEMU's tablet),
/// which must not win over the panel just because the kernel numbered it first.
public enum DeviceChoice {
    /// Whether a device of `kind` is one an absolute pointer gives way to.
    public static func isPreferred(_ kind: DeviceKind) -> Bool { kind != .absolutePointer }

    /// The usable devices (those `kind` classifies) in the order to try them: touchscreens and
    /// pens in the order given (the kernel's node order), then absolute pointers.
    public static func automaticOrder<Device>(_ devices: [Device], kind: (Device) -> DeviceKind?) -> [Device] {
        let usable = devices.filter { kind($0) != nil }
        return usable.filter { isPreferred(kind($0)!) } + usable.filter { !isPreferred(kind($0)!) }
    }

    /// The devices signpad reads when they all open: every touchscreen and pen, or, with none,
    /// the first absolute pointer.
    public static func automaticSet<Device>(_ devices: [Device], kind: (Device) -> DeviceKind?) -> [Device] {
        let ordered = automaticOrder(devices, kind: kind)
        let preferred = ordered.filter { isPreferred(kind($0)!) }
        return preferred.isEmpty ? Array(ordered.prefix(1)) : preferred
    }
}
