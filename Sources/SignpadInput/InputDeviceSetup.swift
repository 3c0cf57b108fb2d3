import SignpadVocabulary

/// How every input device is set up to draw on one screen: its front end (chosen from its
/// classification), its calibration and its mapping to the screen's logical pixels. The
/// daemon, replay, the bench and calibrate all make their decoders here, so a recording replays
/// as the panel it was made on draws.
public struct InputDeviceSetup: Equatable, Sendable {
    /// Which calibration matrix is in force, the first question when touches land in the wrong place.
    public enum CalibrationSource: String, Equatable, Sendable {
        case configured = "input.calibration"
        case udev = "udev's LIBINPUT_CALIBRATION_MATRIX"
        case none = "none set"
    }

    public var screenWidth: Int
    public var screenHeight: Int
    /// The screen's rotation and the configuration's flips.
    public var placement: ScreenPlacement
    /// The configuration's matrix (`input.calibration`), which wins over udev's.
    public var configuredCalibration: CalibrationMatrix?

    public init(screenWidth: Int, screenHeight: Int, placement: ScreenPlacement = ScreenPlacement(),
                configuredCalibration: CalibrationMatrix? = nil) {
        self.screenWidth = screenWidth
        self.screenHeight = screenHeight
        self.placement = placement
        self.configuredCalibration = configuredCalibration
    }

    /// The panel's own coordinates on the screen, neither calibrated nor turned: what
    /// `signpad calibrate` measures.
    public static func raw(screenWidth: Int, screenHeight: Int) -> InputDeviceSetup {
        InputDeviceSetup(screenWidth: screenWidth, screenHeight: screenHeight)
    }

    /// The matrix in force for a device udev gives `udev` (nil: none), and where it comes from.
    public func calibration(udev: CalibrationMatrix?) -> (matrix: CalibrationMatrix, source: CalibrationSource) {
        if let configuredCalibration { return (configuredCalibration, .configured) }
        if let udev { return (udev, .udev) }
        return (.identity, .none)
    }

    /// The decoder for `device`; throws when the classifier would not use it.
    public func decoder(for device: DeviceDescription, udevCalibration: CalibrationMatrix? = nil) throws(UnusableDeviceError) -> ContactDecoder {
        try ContactDecoder(device: device, screenWidth: screenWidth, screenHeight: screenHeight,
                           calibration: calibration(udev: udevCalibration).matrix, rotation: placement.rotation,
                           flipX: placement.flipX, flipY: placement.flipY)
    }

    /// Every stroke event of `recording` as this setup draws it (a recording has no udev matrix).
    /// One that ends with a contact still down ends with a cancel, so its stroke is closed.
    public func strokeEvents(of recording: EvemuRecording) throws(UnusableDeviceError) -> [(time: Double, event: StrokeEvent)] {
        var decoder = try decoder(for: recording.device)
        var result: [(time: Double, event: StrokeEvent)] = []
        for event in recording.events {
            decoder.feed(event) { result.append((event.seconds, $0)) }
        }
        decoder.cancel { result.append((recording.events.last?.seconds ?? 0, $0)) }
        return result
    }
}

extension InputDeviceSetup {
    /// The configured setup of devices drawing on `scanout`: its logical size and rotation, the
    /// configured calibration (else udev's, device by device) and flips.
    public init(options: InputOptions, scanout: Scanout) {
        self.init(screenWidth: scanout.logicalWidth, screenHeight: scanout.logicalHeight,
                  placement: ScreenPlacement(rotation: scanout.rotation, flipX: options.flipX, flipY: options.flipY),
                  configuredCalibration: options.calibration.flatMap { CalibrationMatrix(values: $0) })
    }
}
