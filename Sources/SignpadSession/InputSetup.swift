import SignpadConfig
import SignpadInput
import SignpadVocabulary

extension InputDeviceSetup {
    /// The configuration's setup of devices drawing on `scanout`: its logical size and rotation,
    /// the configured calibration (else udev's, device by device) and flips.
    public init(config: Config, scanout: Scanout) {
        self.init(screenWidth: scanout.logicalWidth, screenHeight: scanout.logicalHeight,
                  placement: ScreenPlacement(rotation: scanout.rotation, flipX: config.flipX, flipY: config.flipY),
                  configuredCalibration: config.calibration.flatMap { CalibrationMatrix(values: $0) })
    }
}

extension Session {
    /// How a device is set up to draw on this session's screen.
    public var inputSetup: InputDeviceSetup { InputDeviceSetup(config: config, scanout: display.scanout) }
}
