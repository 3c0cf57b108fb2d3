#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// Why the screen could not be taken, with what a person can do about it.
public enum DisplayError: Error, CustomStringConvertible, Equatable {
    case noDevice(searched: String)
    case permissionDenied(path: String)
    case noDumbBuffers(path: String)
    case noConnectedConnector(path: String, connectors: [String])
    case connectorNotFound(path: String, name: String, connectors: [String])
    case notConnected(path: String, connector: String)
    case modeNotFound(path: String, connector: String, mode: String, available: [String])
    case noCRTC(path: String, connector: String)
    case masterHeld(path: String)
    case call(path: String, operation: String, errno: Errno)

    /// True for what can pass without anyone changing the configuration: a card whose driver
    /// has not loaded yet (a GPU driver can load after the service starts at boot), a panel that
    /// is off or unplugged, or another process holding the screen (plymouth until it quits).
    /// After the display was lost (`afterLoss`), a panel without the configured mode too, and a
    /// configured connector that is missing: they were there before, so the panel that has the
    /// mode may be plugged back in, and a connector behind a DisplayPort hub (MST), which the
    /// kernel removes with the hub's panel, comes back with it. At start they are more likely a
    /// mistake in the configuration, which waiting would hide.
    public func mayPassByItself(afterLoss: Bool) -> Bool {
        switch self {
        case .noDevice, .noConnectedConnector, .notConnected, .masterHeld: return true
        case .modeNotFound, .connectorNotFound: return afterLoss
        default: return false
        }
    }

    public var description: String {
        switch self {
        case .noDevice(let searched):
            return "no DRM display device found (\(searched)); is a KMS driver loaded? Check `ls /dev/dri` and the kernel log"
        case .permissionDenied(let path):
            return "\(path): permission denied; add the user to the 'video' group, or allow char-drm in the unit's DeviceAllow"
        case .noDumbBuffers(let path):
            return "\(path): the driver has no dumb buffers (DRM_CAP_DUMB_BUFFER is 0); name another card in [display] device"
        case .noConnectedConnector(let path, let connectors):
            return "\(path): no connected connector (connectors: \(connectors.joined(separator: ", "))); is the panel plugged in and powered?"
        case .connectorNotFound(let path, let name, let connectors):
            return "\(path): connector \(name) not found; this card has \(connectors.joined(separator: ", "))"
        case .notConnected(let path, let connector):
            return "\(path): \(connector) reports no panel; is it plugged in and powered?"
        case .modeNotFound(let path, let connector, let mode, let available):
            return "\(path): \(connector) has no mode \(mode); it offers \(available.joined(separator: ", "))"
        case .noCRTC(let path, let connector):
            return "\(path): no free CRTC can drive \(connector)"
        case .masterHeld(let path):
            return "\(path): another process holds DRM master (usually a display manager such as gdm or lightdm, a compositor, plymouth, or a getty on that VT); stop it or run signpad on a free VT"
        case .call(let path, let operation, let errno):
            return "\(path): \(operation) failed: \(errno)"
        }
    }
}

/// Why a display that was shown can no longer be used as it is.
public enum DisplayLoss: Equatable, Sendable, CustomStringConvertible {
    /// The device went away: a USB display unplugged, or its driver unbound.
    case deviceGone(path: String)
    /// A panel came back on the connector without the mode's size: another panel, plugged in
    /// while this one was away.
    case modeGone(path: String, connector: String, mode: String, available: [String])
    /// The connector itself went: one behind a DisplayPort hub or daisy chain (MST) exists only
    /// while its panel is there.
    case connectorGone(path: String, connector: String)

    public var description: String {
        switch self {
        case .deviceGone(let path):
            return "\(path) went away (a USB display unplugged, or its driver unbound)"
        case .modeGone(let path, let connector, let mode, let available):
            return "\(path): the panel now on \(connector) has no \(mode) (it offers \(available.joined(separator: ", ")))"
        case .connectorGone(let path, let connector):
            return "\(path): \(connector) is gone (a panel behind a DisplayPort hub unplugged, or the hub itself)"
        }
    }
}
