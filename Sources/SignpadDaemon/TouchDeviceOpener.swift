import Logging
import SignpadEvdev
import SignpadInput

/// Finds the touch devices the configuration names or, without one, the usable ones (see
/// `DeviceChoice`), and opens them with decoders, for `signpad run` and `signpad calibrate` alike.
public struct TouchDeviceOpener {
    let options: InputOptions
    let logger: Logger

    public init(options: InputOptions, logger: Logger) {
        self.options = options
        self.logger = logger
    }

    /// Builds the decoder for a device (with the calibration the caller wants).
    public typealias MakeDecoder = (ScannedDevice, EvdevDevice) throws -> ContactDecoder

    /// The first usable device that opens; nil when none does.
    public func openFirst(decoder: MakeDecoder) -> TouchInput? { openFirst(of: candidates(), decoder: decoder).opened }

    /// The devices to read besides those already `open` (their paths), and the paths of those that
    /// would not open (each logged). With `input.device`, the first that opens of those it names, if
    /// none is open. Without, every touchscreen and pen not open yet (a panel's pen and its
    /// touchscreen are often two devices); and only when nothing opens nor is open, the first
    /// absolute pointer that opens. `preferredOnly` leaves absolute pointers out.
    func openMore(besides open: Set<String>, preferredOnly: Bool = false, decoder: MakeDecoder) -> (opened: [TouchInput], failed: [String]) {
        let candidates = candidates().filter { !open.contains($0.path) }
        if options.device != nil {
            guard open.isEmpty else { return ([], []) }
            let (first, failed) = openFirst(of: candidates, decoder: decoder)
            return (first.map { [$0] } ?? [], failed)
        }
        var opened: [TouchInput] = [], failed: [String] = []
        for scanned in candidates where scanned.classification.kind.map(DeviceChoice.isPreferred) == true {
            if let input = self.open(scanned, decoder: decoder) { opened.append(input) } else { failed.append(scanned.path) }
        }
        guard opened.isEmpty, open.isEmpty, !preferredOnly else { return (opened, failed) }
        let (pointer, pointersFailed) = openFirst(of: candidates.filter { $0.classification.kind == .absolutePointer }, decoder: decoder)
        if let pointer {
            logger.notice("no touchscreen or pen to take: an absolute pointer is used (input.device pins a device)", metadata: ["name": "\(pointer.name)"])
        }
        return (pointer.map { [$0] } ?? [], failed + pointersFailed)
    }

    private func openFirst(of candidates: [ScannedDevice], decoder: MakeDecoder) -> (opened: TouchInput?, failed: [String]) {
        var failed: [String] = []
        for scanned in candidates {
            if let input = open(scanned, decoder: decoder) { return (input, failed) }
            failed.append(scanned.path)
        }
        return (nil, failed)
    }

    private func open(_ scanned: ScannedDevice, decoder: MakeDecoder) -> TouchInput? {
        guard let description = scanned.description, let kind = scanned.classification.kind else { return nil }
        do {
            let opened = try EvdevDevice(path: scanned.path, grab: options.grab)
            var made = try decoder(scanned, opened)
            opened.seed(&made)
            logger.info("input device taken", metadata: [
                "device": "\(scanned.path)", "name": "\(description.name)", "as": "\(kind.rawValue)", "grabbed": "\(options.grab ? "yes" : "no")",
            ])
            return TouchInput(device: opened, decoder: made, name: description.name, kind: kind)
        } catch {
            logger.warning("an input device would not open", metadata: ["device": "\(scanned.path)", "reason": "\(error)"])
            return nil
        }
    }

    /// The usable devices, in the order they are tried.
    private func candidates() -> [ScannedDevice] {
        guard let wanted = options.device else {
            return DeviceChoice.automaticOrder(DeviceScanner.scan()) { $0.classification.kind }
        }
        let scanned = DeviceScanner.scan(wanted.hasPrefix("/") ? [wanted] : DeviceScanner.eventNodes())
        return scanned.filter { $0.classification.kind != nil && (wanted.hasPrefix("/") || $0.description?.name == wanted) }
    }
}
