import SignpadVocabulary

/// A device the classifier would not use, with its reason.
public struct UnusableDeviceError: Error, Equatable, CustomStringConvertible {
    public var device: String
    public var reason: String
    /// The recording the device was read from, if any.
    public var file: String?

    public init(device: String, reason: String, file: String? = nil) {
        self.device = device
        self.reason = reason
        self.file = file
    }

    public var description: String {
        guard let file else { return "\(device): not a touch device signpad can use: \(reason)" }
        return "\(file): the recorded device \"\(device)\" is not a touch device signpad can use: \(reason); record a touchscreen, pen or absolute pointer with evemu-record"
    }
}

extension EvemuRecording {
    /// Throws, naming `file`, when the recorded device is none the live daemon would use.
    public func requireUsableDevice(file: String) throws(UnusableDeviceError) {
        if case .skipped(let reason) = DeviceClassifier.classify(device) {
            throw UnusableDeviceError(device: device.name, reason: reason, file: file)
        }
    }

    /// Every stroke event of the recording on a screen of the given size, through the live decoder,
    /// neither calibrated nor flipped; `InputDeviceSetup.strokeEvents(of:)` draws as a kiosk's setup does.
    public func strokeEvents(screenWidth: Int, screenHeight: Int, rotation: Rotation = .none) throws(UnusableDeviceError) -> [(time: Double, event: StrokeEvent)] {
        try InputDeviceSetup(screenWidth: screenWidth, screenHeight: screenHeight, placement: ScreenPlacement(rotation: rotation)).strokeEvents(of: self)
    }
}
