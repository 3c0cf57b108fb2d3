import Foundation

/// Where the exporter reads the time: the system's clocks, or a test's. What it judges by them
/// is how long a folder call has run (a stall) and what retention keeps; its threads' waits
/// between tries are real time.
public struct ExporterClock: Sendable {
    /// Seconds since 1970.
    public var wall: @Sendable () -> Double
    /// Seconds on a clock that never steps (the kernel's monotonic clock).
    public var uptime: @Sendable () -> Double

    public init(wall: @escaping @Sendable () -> Double, uptime: @escaping @Sendable () -> Double) {
        self.wall = wall
        self.uptime = uptime
    }

    public static let system = ExporterClock(wall: { Date().timeIntervalSince1970 },
                                             uptime: { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 })
}
