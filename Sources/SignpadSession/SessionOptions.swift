import SignpadConfig
import SignpadInk
import SignpadInput
import SignpadKiosk

/// What a session takes of the configuration: its input, its ink, its kiosk, and the kiosk's name
/// each signature's record keeps. The export folder and the spool are its exporter's.
public struct SessionOptions: Equatable, Sendable {
    public var input = InputOptions()
    public var ink = InkOptions()
    public var kiosk = KioskOptions()
    /// `export.kiosk_name`, else the host name.
    public var kioskName = ""

    public init() {}

    public init(_ config: Config) {
        input = config.input
        ink = config.ink
        kiosk = config.kiosk
        kioskName = config.kioskName
    }
}
