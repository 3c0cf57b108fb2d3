import CSystemd

/// What udev knows of a device, read through libsystemd's sd-device: its database and the
/// kernel's uevent, as udev's own tools read them, with no file format of its own here.
public enum UdevProperties {
    /// The value of property `name` of the device whose node is `path` (such as
    /// `/dev/input/event3`); nil when the device or the property is unknown, as it is where
    /// udev does not run.
    public static func value(_ name: String, ofDeviceNode path: String) -> String? {
        var device: OpaquePointer?
        guard sd_device_new_from_devname(&device, path) >= 0, let device else { return nil }
        defer { _ = sd_device_unref(device) }
        var value: UnsafePointer<CChar>?
        guard sd_device_get_property_value(device, name, &value) >= 0, let value else { return nil }
        return String(cString: value)
    }
}
