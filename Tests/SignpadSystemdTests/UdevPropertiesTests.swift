import Foundation
import SignpadSystemd
import Testing

/// sd-device reads what the kernel and udev say of a device node; where udev does not run (a
/// build container), the kernel's own properties are still there. A property udev gives, the
/// calibration matrix, is checked on a real udev in the systemd VM (S9).
struct UdevPropertiesTests {
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/sys/dev/char/1:3"), "skipped: no /sys/dev/char (sysfs is not mounted)"))
    func theKernelsPropertiesOfANodeAreRead() {
        var info = stat()
        #expect(stat("/dev/null", &info) == 0)
        let major = (info.st_rdev >> 8) & 0xfff, minor = (info.st_rdev & 0xff) | ((info.st_rdev >> 12) & 0xfff00)
        #expect(UdevProperties.value("MAJOR", ofDeviceNode: "/dev/null") == String(major))
        #expect(UdevProperties.value("MINOR", ofDeviceNode: "/dev/null") == String(minor))
        #expect(UdevProperties.value("DEVNAME", ofDeviceNode: "/dev/null") == "/dev/null")
        #expect(UdevProperties.value("LIBINPUT_CALIBRATION_MATRIX", ofDeviceNode: "/dev/null") == nil)
        #expect(UdevProperties.value("MAJOR", ofDeviceNode: "/dev/no-such-node") == nil)
    }
}
