import CSystemd
import Glibc

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
    /// The service starts again in the same process; READY=1 from the new start ends the reload.
    public func reloading() {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let microseconds = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
        _ = sd_notify(0, "RELOADING=1\nMONOTONIC_USEC=\(microseconds)")
    }
    public func status(_ text: String) { _ = sd_notify(0, "STATUS=\(text)") }
}
