import SignpadInput
import SignpadTestSupport
import SignpadVocabulary
import Testing

@Suite struct InputDeviceSetupTests {
    /// The configured matrix wins, then udev's, then none; the source is named for the journal.
    @Test func theCalibrationInForceIsTheConfiguredOneThenUdevs() throws {
        let configured = try #require(CalibrationMatrix(values: [0.5, 0, 0.25, 0, 0.5, 0.25]))
        let udev = try #require(CalibrationMatrix(values: [1, 0, 0.1, 0, 1, 0.1]))
        var setup = InputDeviceSetup(screenWidth: 1000, screenHeight: 1000, configuredCalibration: configured)
        #expect(setup.calibration(udev: udev) == (configured, .configured))
        setup.configuredCalibration = nil
        #expect(setup.calibration(udev: udev) == (udev, .udev))
        #expect(setup.calibration(udev: nil) == (.identity, .none))
    }

    /// A device's decoder maps as the screen is turned, flipped and calibrated; calibrate's raw
    /// setup does none of it.
    @Test func aDecoderMapsAsTheScreenIsPlaced() throws {
        let placement = ScreenPlacement(rotation: .quarter, flipX: true)
        let setup = InputDeviceSetup(screenWidth: 200, screenHeight: 100, placement: placement)
        let decoder = try setup.decoder(for: panel())
        let direct = try ContactDecoder(device: panel(), screenWidth: 200, screenHeight: 100, rotation: .quarter, flipX: true)
        #expect(decoder.mapping == direct.mapping)
        #expect(decoder.kind == .touchscreen && decoder.reporting.isMultitouch)
        let raw = try InputDeviceSetup.raw(screenWidth: 200, screenHeight: 100).decoder(for: panel())
        #expect(raw.mapping == (try ContactDecoder(device: panel(), screenWidth: 200, screenHeight: 100)).mapping)
        #expect(throws: UnusableDeviceError.self) { try setup.decoder(for: DeviceDescription(name: "keyboard")) }
    }
}
