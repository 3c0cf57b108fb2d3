import Logging
import SignpadEvdev
import SignpadInput

/// Finds the touch device the configuration names (or the first usable one) and opens it with a
/// decoder, for `signpad run` and `signpad calibrate` alike.
struct TouchDeviceOpener {
    let config: Config
    let logger: Logger

    /// The device, its decoder and its name; nil when no usable device opens. `decoder` builds
    /// the decoder for a device (with the calibration the caller wants).
    func open(decoder: (ScannedDevice, EvdevDevice) throws -> TouchDecoder) -> (device: EvdevDevice, decoder: TouchDecoder, name: String)? {
        let nodes = config.inputDevice.map { $0.hasPrefix("/") ? [$0] : DeviceScanner.eventNodes() } ?? DeviceScanner.eventNodes()
        for scanned in DeviceScanner.scan(nodes) {
            guard let description = scanned.description, let kind = scanned.classification.kind else { continue }
            if let wanted = config.inputDevice, !wanted.hasPrefix("/"), description.name != wanted { continue }
            do {
                let opened = try EvdevDevice(path: scanned.path, grab: config.grab)
                var made = try decoder(scanned, opened)
                opened.seed(&made)
                logger.info("input \(scanned.path) \"\(description.name)\" as \(kind.rawValue)\(config.grab ? ", grabbed" : "")")
                return (opened, made, description.name)
            } catch {
                logger.warning("\(error)")
            }
        }
        return nil
    }
}
