import Foundation
import SignpadEvdev
import Testing

/// Opening a device that is not one says which path, what failed and why, in the C library's
/// words (`strerror`, the peer here), with what a person can do.
@Suite struct EvdevOpenErrorTests {
    @Test func aMissingInputDeviceIsNamedWithItsReasonAndHint() {
        let path = "/dev/input/event-signpad-missing"
        #expect {
            _ = try EvdevDevice(path: path, grab: false)
        } throws: { error in
            "\(error)" == "\(path): open failed: \(String(cString: strerror(ENOENT))) (the device is not there; was it unplugged?)"
        }
    }

    @Test func aFileThatIsNoInputDeviceIsRefusedByLibevdev() {
        // /dev/null opens, but answers no evdev ioctl.
        #expect {
            _ = try EvdevDevice(path: "/dev/null", grab: false)
        } throws: { error in
            "\(error)".hasPrefix("/dev/null: libevdev_new_from_fd failed: \(String(cString: strerror(ENOTTY)))")
        }
    }
}
