/// What a DRM display's panel gets of its buffer, as one state: each of its changes is a
/// transition `DRMDisplay` makes. `.off` always has a reason.
public enum DisplayOutput: Equatable, Sendable {
    /// The CRTC scans the buffer out.
    case on
    /// The CRTC is off: the connector reports no panel, or the kiosk sleeps, or both. Drawing
    /// goes on into the buffer, which is shown whole when the output is on again.
    case off(Off)
    /// Another process holds DRM master: drawing goes on in memory and nothing reaches the panel
    /// until it is taken back. `asleep`: the kiosk switched the screen off meanwhile.
    case masterLost(asleep: Bool)
    /// The display cannot be used as it is; the daemon waits for a display again.
    case lost(DisplayLoss)

    /// Why the output is off.
    public struct Off: OptionSet, Equatable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// The connector reports no panel (switched off or unplugged).
        public static let panelAway = Off(rawValue: 1)
        /// The kiosk switched the screen off after a while without a touch.
        public static let asleep = Off(rawValue: 2)
    }

    /// Whether the kiosk has switched the screen off.
    public var asleep: Bool {
        switch self {
        case .off(let why): why.contains(.asleep)
        case .masterLost(let asleep): asleep
        case .on, .lost: false
        }
    }

    public var panelAway: Bool {
        if case .off(let why) = self { why.contains(.panelAway) } else { false }
    }
}
