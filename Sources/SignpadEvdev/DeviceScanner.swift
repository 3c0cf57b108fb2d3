#if canImport(Glibc)
import Glibc
#endif
import SignpadInput
import SignpadSystemd
import SignpadVocabulary

/// What the scanner found at one event node.
public struct ScannedDevice {
    public var path: String
    public var description: DeviceDescription?
    public var classification: DeviceClass
    /// The device's `LIBINPUT_CALIBRATION_MATRIX` udev property as written, when udev set one.
    public var udevCalibrationProperty: String?

    /// The udev property's matrix; nil when there is none, or it is not six numbers.
    public var udevCalibration: CalibrationMatrix? { udevCalibrationProperty.flatMap { CalibrationMatrix(udevProperty: $0) } }

    /// What is wrong with the udev property, if it is set and not a matrix.
    public var udevCalibrationProblem: String? {
        guard let property = udevCalibrationProperty, udevCalibration == nil else { return nil }
        return "udev's LIBINPUT_CALIBRATION_MATRIX \"\(property)\" is not six finite numbers (a b c d e f); it is not used"
    }
}

public enum DeviceScanner {
    /// Every /dev/input/event* node, in numeric order.
    public static func eventNodes(in directory: String = "/dev/input") -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var numbers: [Int] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if name.hasPrefix("event"), let n = Int(name.dropFirst(5)) { numbers.append(n) }
        }
        return numbers.sorted().map { "\(directory)/event\($0)" }
    }

    /// Opens each node without grabbing it and classifies it.
    public static func scan(_ nodes: [String] = eventNodes()) -> [ScannedDevice] {
        nodes.map { path in
            do {
                let device = try EvdevDevice(path: path, grab: false)
                defer { device.close() }
                return ScannedDevice(path: path, description: device.description,
                                     classification: DeviceClassifier.classify(device.description),
                                     udevCalibrationProperty: udevCalibrationProperty(path))
            } catch {
                return ScannedDevice(path: path, description: nil, classification: .skipped(reason: "\(error)"), udevCalibrationProperty: nil)
            }
        }
    }

    /// The device's LIBINPUT_CALIBRATION_MATRIX, as udev's database holds it.
    public static func udevCalibrationProperty(_ path: String) -> String? {
        UdevProperties.value("LIBINPUT_CALIBRATION_MATRIX", ofDeviceNode: path).map { $0.trimmed }
    }
}

