import Logging
import SignpadEvdev
import SignpadInput

/// Finds the touch device the configuration names (or, without one, the best usable one: see
/// `DeviceChoice`) and opens it with a decoder, for `signpad run` and `signpad calibrate` alike.
struct TouchDeviceOpener {
    let config: Config
    let logger: Logger

    /// The device, its decoder, its name and kind; nil when no usable device opens. `decoder`
    /// builds the decoder for a device (with the calibration the caller wants).
    /// `preferredOnly` leaves out absolute pointers (see `DeviceChoice.isPreferred`).
    func open(preferredOnly: Bool = false, decoder: (ScannedDevice, EvdevDevice) throws -> TouchDecoder)
        -> (device: EvdevDevice, decoder: TouchDecoder, name: String, kind: DeviceKind)? {
        for scanned in candidates() where !preferredOnly || scanned.classification.kind.map(DeviceChoice.isPreferred) == true {
            guard let description = scanned.description, let kind = scanned.classification.kind else { continue }
            do {
                let opened = try EvdevDevice(path: scanned.path, grab: config.grab)
                var made = try decoder(scanned, opened)
                opened.seed(&made)
                logger.info("input \(scanned.path) \"\(description.name)\" as \(kind.rawValue)\(config.grab ? ", grabbed" : "")")
                if config.inputDevice == nil && !DeviceChoice.isPreferred(kind) {
                    logger.notice("input: no touchscreen or pen to take, so the absolute pointer \"\(description.name)\" is used (input.device pins a device)")
                }
                return (opened, made, description.name, kind)
            } catch {
                logger.warning("\(error)")
            }
        }
        return nil
    }

    /// Whether a touchscreen or pen is there to be tried (without opening it for input).
    func preferredDeviceIsThere() -> Bool {
        candidates().contains { $0.classification.kind.map(DeviceChoice.isPreferred) == true }
    }

    /// The usable devices in the order `open` tries them.
    private func candidates() -> [ScannedDevice] {
        guard let wanted = config.inputDevice else {
            return DeviceChoice.automaticOrder(DeviceScanner.scan()) { $0.classification.kind }
        }
        let scanned = DeviceScanner.scan(wanted.hasPrefix("/") ? [wanted] : DeviceScanner.eventNodes())
        return scanned.filter { $0.classification.kind != nil && (wanted.hasPrefix("/") || $0.description?.name == wanted) }
    }
}
