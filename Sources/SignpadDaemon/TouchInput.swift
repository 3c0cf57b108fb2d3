import SignpadEvdev
import SignpadInput

/// One touch device open for input, with its decoder as seeded from the device's state at open.
final class TouchInput {
    let device: EvdevDevice
    let decoder: TouchDecoder
    let name: String
    let kind: DeviceKind

    init(device: EvdevDevice, decoder: TouchDecoder, name: String, kind: DeviceKind) {
        self.device = device
        self.decoder = decoder
        self.name = name
        self.kind = kind
    }

    var path: String { device.path }
}
