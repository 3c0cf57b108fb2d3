import Foundation

/// Where the core reads the time: the system's clocks, or a test's. The exporter judges stalls
/// and retention by it, the session stamps each signature's capture with it, and the control
/// service each request's start and end. (The exporter's threads wait between tries in real time.)
public struct TimeSource: Sendable {
    /// Seconds since 1970.
    public var wall: @Sendable () -> Double
    /// Seconds on a clock that never steps (the kernel's monotonic clock).
    public var uptime: @Sendable () -> Double

    public init(wall: @escaping @Sendable () -> Double, uptime: @escaping @Sendable () -> Double) {
        self.wall = wall
        self.uptime = uptime
    }

    public static let system = TimeSource(wall: { Date().timeIntervalSince1970 },
                                          uptime: { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 })
}
