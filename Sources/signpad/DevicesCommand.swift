import ArgumentParser
import FoundationEssentials
import Logging
import SignpadConfig
import SignpadDaemon
import SignpadDRM
import SignpadEvdev
import SignpadInput
import SignpadSession
import SignpadVocabulary

struct Devices: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List input devices, how signpad classifies them, and why it skips some.")

    func run() throws {
        let nodes = DeviceScanner.eventNodes()
        guard !nodes.isEmpty else {
            print("No input devices: /dev/input has no event nodes. (In a container or VM without input, use `signpad demo` or `signpad replay`.)")
            return
        }
        let scanned = DeviceScanner.scan(nodes)
        for device in scanned {
            print("Device:      \(device.description?.name ?? "?")")
            print("Kernel:      \(device.path)")
            switch device.classification {
            case .usable(let kind, let reporting):
                print("Class:       \(kind.rawValue)\(Self.describe(reporting))")
            case .skipped(let reason):
                print("Class:       skipped: \(reason)")
            }
            if let d = device.description {
                print("Id:          bus \(hex(d.bus)) vendor \(hex(d.vendor)) product \(hex(d.product))")
                for (code, name) in [(EventCode.ABS_X, "x"), (EventCode.ABS_Y, "y"), (EventCode.ABS_MT_POSITION_X, "mt x"),
                                     (EventCode.ABS_MT_POSITION_Y, "mt y"), (EventCode.ABS_PRESSURE, "pressure"), (EventCode.ABS_MT_PRESSURE, "mt pressure")] {
                    if let info = d.absInfo[code] {
                        let resolution = info.resolution > 0 ? ", \(info.resolution) units/mm" : ""
                        print("Axis \(name):".padded(to: 13) + "\(info.minimum)…\(info.maximum)\(resolution)")
                    }
                }
                let others = d.unreadPositionLikeAxes
                if !others.isEmpty {
                    print("Other axes:  \(others.joined(separator: ", ")), not read: should touches draw nothing, the driver may report the position there (signpad says so in the journal)")
                }
            }
            if let matrix = device.udevCalibration { print("Calibration: \(matrix.values.map { String($0) }.joined(separator: " ")) (udev)") }
            if let problem = device.udevCalibrationProblem { print("Calibration: none: \(problem)") }
            print("")
        }
        let taken = DeviceChoice.automaticSet(scanned) { $0.classification.kind }
        if taken.isEmpty {
            print("No usable touch device: signpad waits for one.")
        } else {
            let names = taken.map { "\($0.path) \"\($0.description?.name ?? "?")\"" }.joined(separator: ", ")
            print("Without input.device, signpad reads \(names): every touchscreen and pen (one stroke at a time, the pen's first), or else the first absolute pointer.")
        }
    }

    func hex(_ v: UInt16) -> String { String(printf: "%04x", v) }

    static func describe(_ reporting: ContactReporting) -> String {
        switch reporting {
        case .single: ""
        case .multitouchA: " (multitouch protocol A, contacts told apart by nearness, follows the first contact)"
        case .multitouchB(let slots): " (multitouch protocol B, \(slots) slots, follows the first contact)"
        }
    }
}
