import FoundationEssentials
import Glibc

/// Where the time is read: the system's clocks, or a test's. The daemon's loop reads it each
/// turn and hands it to the control socket, the exporter judges stalls, the spool's retries and
/// retention by it (its threads sleep for as long as it says is left), the session stamps each
/// signature's capture with it, and the control service each request's start and end.
public struct TimeSource: Sendable {
    /// Seconds since 1970.
    public var wall: @Sendable () -> Double
    /// Seconds on a clock that never steps: the kernel's CLOCK_MONOTONIC, the clock evdev stamps
    /// input events with (the daemon sets it), so an event's age is `uptime() - event.seconds`.
    public var uptime: @Sendable () -> Double

    public init(wall: @escaping @Sendable () -> Double, uptime: @escaping @Sendable () -> Double) {
        self.wall = wall
        self.uptime = uptime
    }

    public static let system = TimeSource(wall: { Date().timeIntervalSince1970 }, uptime: {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    })
}
