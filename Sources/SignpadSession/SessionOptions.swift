import SignpadConfig
import SignpadExport
import SignpadInk
import SignpadInput
import SignpadKiosk
import SignpadVocabulary

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

/// What a replay takes of the configuration: its session's, the screen's rotation, and what its
/// exporter and evidence need (the folder is the replay's own).
public struct ReplayOptions: Equatable, Sendable {
    public var session = SessionOptions()
    public var rotation = Rotation.none
    public var export = ExportOptions()
    public var retrySeconds = 5.0
    public var evidence = EvidenceOptions()

    public init() {}

    public init(_ config: Config) {
        session = SessionOptions(config)
        rotation = config.display.rotation
        export = config.export
        retrySeconds = config.outbox.retrySeconds
        evidence = config.evidence
    }
}
