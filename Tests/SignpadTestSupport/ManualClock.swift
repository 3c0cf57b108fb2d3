import Synchronization

/// A clock that moves only when a test moves it, for code that judges by the time (how long a
/// write has hung, say) while its threads run: the test decides when the time has passed,
/// whatever the machine's load.
public final class ManualClock: Sendable {
    private let seconds: Mutex<Double>

    public init(_ start: Double = 1_000) { seconds = Mutex(start) }

    public func advance(_ by: Double) { seconds.withLock { $0 += by } }

    /// Read by the code under test, from any thread.
    @Sendable public func now() -> Double { seconds.withLock { $0 } }
}
