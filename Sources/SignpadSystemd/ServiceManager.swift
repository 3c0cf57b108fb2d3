import CSystemd

/// Talks to systemd through sd_notify; does nothing when not started by systemd.
public struct ServiceManager: Sendable {
    /// Seconds between WATCHDOG=1 pings (half of WatchdogSec), or nil when no watchdog is set.
    public let watchdogInterval: Double?

    public init() {
        var usec: UInt64 = 0
        watchdogInterval = sd_watchdog_enabled(0, &usec) > 0 ? Double(usec) / 2_000_000 : nil
    }

    public func ready(status: String) { _ = sd_notify(0, "READY=1\nSTATUS=\(status)") }
    public func watchdog() { _ = sd_notify(0, "WATCHDOG=1") }
    public func stopping() { _ = sd_notify(0, "STOPPING=1") }
    public func status(_ text: String) { _ = sd_notify(0, "STATUS=\(text)") }
}
