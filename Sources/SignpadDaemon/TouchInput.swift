import SignpadEvdev
import SignpadInput

/// One touch device open for input, with its decoder as seeded from the device's state at open,
/// until whoever reads the device takes it (`takeDecoder`): a copy left here would share the
/// decoder's storage, and the first events read would copy it.
public final class TouchInput {
    public let device: EvdevDevice
    private var decoder: ContactDecoder?
    public let name: String
    public let kind: DeviceKind

    init(device: EvdevDevice, decoder: ContactDecoder, name: String, kind: DeviceKind) {
        self.device = device
        self.decoder = decoder
        self.name = name
        self.kind = kind
    }

    public var path: String { device.path }

    /// The decoder, handed over once.
    public func takeDecoder() -> ContactDecoder {
        guard let taken = decoder.take() else { preconditionFailure("the decoder of \(path) was taken already") }
        return taken
    }
}
