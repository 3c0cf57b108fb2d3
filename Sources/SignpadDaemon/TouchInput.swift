import SignpadEvdev
import SignpadInput

/// One touch device open for input, with its decoder.
final class TouchInput {
    let device: EvdevDevice
    var decoder: TouchDecoder
    let name: String
    let kind: DeviceKind
    /// A device the daemon cannot keep up with drops events again and again.
    var droppedEvents = RepeatedMessage(interval: 60)

    init(device: EvdevDevice, decoder: TouchDecoder, name: String, kind: DeviceKind) {
        self.device = device
        self.decoder = decoder
        self.name = name
        self.kind = kind
    }

    var path: String { device.path }
}
