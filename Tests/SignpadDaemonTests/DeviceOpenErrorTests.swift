import Foundation
import SignpadDRM
import SignpadEvdev
import SignpadVocabulary
import Testing

/// Opening a device that is not one says which path, what failed and why, in the C library's
/// words (`strerror`, the peer here), with what a person can do.
@Suite struct DeviceOpenErrorTests {
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

    @Test func aCardThatIsNoDisplayDeviceIsNamed() {
        #expect(throws: DisplayError.noDevice(searched: "/dev/dri/card-signpad-missing")) {
            _ = try DRMDisplay(options: DisplayOptions(device: "/dev/dri/card-signpad-missing", vt: nil)) { _ in }
        }
        #expect(throws: DisplayError.noDumbBuffers(path: "/dev/null")) {
            _ = try DRMDisplay(options: DisplayOptions(device: "/dev/null", vt: nil)) { _ in }
        }
    }
}
