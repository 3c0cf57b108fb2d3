/// Journal lines of one kind (calls, calls refused, or clients dropped and refused), at most
/// `lines` per `interval`: each is worth a line, but a flood of them must not become a flood of
/// the journal. What was held back is counted and said once its interval has ended, whether or
/// not another line comes.
struct ClientLogBudget {
    let lines: Int
    let interval: Double
    private var windowStart = -Double.infinity
    private var used = 0
    private var heldBack = 0

    init(lines: Int = 20, interval: Double = 60) {
        self.lines = lines
        self.interval = interval
    }

    /// Whether a line may be logged now; one that may not is counted as held back.
    mutating func take(now: Double) -> Bool {
        if now - windowStart >= interval {
            windowStart = now
            used = 0
        }
        guard used < lines else {
            heldBack += 1
            return false
        }
        used += 1
        return true
    }

    /// How many lines the interval held back, once it has ended (nothing before), and not again.
    mutating func ended(now: Double) -> Int {
        guard heldBack > 0, now - windowStart >= interval else { return 0 }
        return drainHeldBack()
    }

    /// How many lines the current interval held back, said now (at a stop) and not again.
    mutating func drainHeldBack() -> Int {
        defer { heldBack = 0 }
        return heldBack
    }
}
