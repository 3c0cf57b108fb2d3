import SignpadEvdev
import SignpadInput

/// One touch device open for input, with its decoder as seeded from the device's state at open.
public final class TouchInput {
    public let device: EvdevDevice
    public let decoder: ContactDecoder
    public let name: String
    public let kind: DeviceKind

    init(device: EvdevDevice, decoder: ContactDecoder, name: String, kind: DeviceKind) {
        self.device = device
        self.decoder = decoder
        self.name = name
        self.kind = kind
    }

    public var path: String { device.path }
}
