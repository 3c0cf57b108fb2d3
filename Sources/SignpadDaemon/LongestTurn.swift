import FoundationEssentials

/// The loop's longest turn since start: the work from a poll's return to the next poll call,
/// never the wait. While a turn runs, ink is not drawn, no call is answered and the watchdog is
/// not pinged; `GetStatus` and the exit's report say how long the worst one was, and what it
/// handled. Kept in a few words, so a turn records itself without allocating.
struct LongestTurn {
    /// What a turn was woken for.
    struct Handled: OptionSet {
        let rawValue: UInt8
        static let signals = Handled(rawValue: 1 << 0)
        static let exports = Handled(rawValue: 1 << 1)
        static let control = Handled(rawValue: 1 << 2)
        static let input = Handled(rawValue: 1 << 3)
        /// Nothing was ready: a deadline (the watchdog, a session's clock, the recording) ended the wait.
        static let clocks = Handled(rawValue: 1 << 4)

        static let named: [(Handled, String)] = [(.signals, "signals"), (.exports, "exports"), (.control, "control"),
                                                 (.input, "input"), (.clocks, "clocks")]
        var names: [String] { Self.named.filter { contains($0.0) }.map(\.1) }
    }

    /// Seconds; 0 before the first turn ends.
    private(set) var seconds = 0.0
    /// When it ended, in seconds since 1970 (for the status); nil before the first turn ends.
    private(set) var endedAt: Double?
    private(set) var handled: Handled = []
    private var startedAt: Double?
    private var handling: Handled = []

    /// A turn starts (the poll returned) at monotonic `now`, woken for `handling`.
    mutating func begin(now: Double, handling: Handled) {
        startedAt = now
        self.handling = handling
    }

    /// The turn ends (the next poll is called) at monotonic `now`; `wallClock` is read only for a new longest.
    mutating func end(now: Double, wallClock: () -> Double) {
        guard let start = startedAt else { return }
        startedAt = nil
        let length = now - start
        guard length > seconds else { return }
        seconds = length
        handled = handling
        endedAt = wallClock()
    }
}
