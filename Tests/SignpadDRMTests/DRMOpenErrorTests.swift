import SignpadDRM
import SignpadVocabulary
import Testing

/// Opening a card that is not a display says which path and why.
@Suite struct DRMOpenErrorTests {
    @Test func aCardThatIsNoDisplayDeviceIsNamed() {
        #expect(throws: DisplayError.noDevice(searched: "/dev/dri/card-signpad-missing")) {
            _ = try DRMDisplay(options: DisplayOptions(device: "/dev/dri/card-signpad-missing", vt: nil)) { _ in }
        }
        #expect(throws: DisplayError.noDumbBuffers(path: "/dev/null")) {
            _ = try DRMDisplay(options: DisplayOptions(device: "/dev/null", vt: nil)) { _ in }
        }
    }
}
