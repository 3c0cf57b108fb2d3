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

extension TouchDecoder {
    /// A decoder for a device description, with the axes chosen by its classification.
    public init(device: DeviceDescription, screenWidth: Int, screenHeight: Int,
                calibration: CalibrationMatrix = .identity, rotation: Rotation = .none,
                flipX: Bool = false, flipY: Bool = false) throws {
        let kind: DeviceKind, multitouch: Bool
        switch DeviceClassifier.classify(device) {
        case .usable(let usableKind, let isMultitouch): (kind, multitouch) = (usableKind, isMultitouch)
        case .skipped(let reason): throw UnusableDeviceError(device: device.name, reason: reason)
        }
        typealias C = EventCode
        let xCode = multitouch ? C.ABS_MT_POSITION_X : C.ABS_X
        let yCode = multitouch ? C.ABS_MT_POSITION_Y : C.ABS_Y
        let pressureCode = multitouch ? C.ABS_MT_PRESSURE : C.ABS_PRESSURE
        let mapping = ScreenMapping(xAxis: device.absInfo[xCode]!, yAxis: device.absInfo[yCode]!,
                                    pressureAxis: device.absInfo[pressureCode], screenWidth: screenWidth,
                                    screenHeight: screenHeight, calibration: calibration, rotation: rotation,
                                    flipX: flipX, flipY: flipY)
        self.init(device: device, kind: kind, multitouch: multitouch, mapping: mapping)
    }
}

extension EvemuRecording {
    /// Throws, naming `file`, when the recorded device is none the live daemon would use.
    public func requireUsableDevice(file: String) throws(UnusableDeviceError) {
        if case .skipped(let reason) = DeviceClassifier.classify(device) {
            throw UnusableDeviceError(device: device.name, reason: reason, file: file)
        }
    }

    /// Every stroke event of the recording on a screen of the given size, through the live decoder.
    /// A recording that ends with a contact still down ends with a cancel, so its stroke is closed.
    public func strokeEvents(screenWidth: Int, screenHeight: Int, rotation: Rotation = .none) throws -> [(time: Double, event: StrokeEvent)] {
        var decoder = try ContactDecoder(device: device, screenWidth: screenWidth, screenHeight: screenHeight, rotation: rotation)
        var result: [(time: Double, event: StrokeEvent)] = []
        for event in events {
            decoder.feed(event) { result.append((event.seconds, $0)) }
        }
        decoder.cancel { result.append((events.last?.seconds ?? 0, $0)) }
        return result
    }
}
