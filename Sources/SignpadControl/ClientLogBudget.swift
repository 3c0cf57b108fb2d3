/// Journal lines about misbehaving clients, at most `lines` per `interval`: each is worth a line,
/// but a flood of connections must not become a flood of the journal. What was held back is
/// counted and said when the next interval begins.
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

    /// Whether a line may be logged now, and how many were held back in the interval that ended.
    mutating func take(now: Double) -> (log: Bool, heldBack: Int) {
        var ended = 0
        if now - windowStart >= interval {
            ended = heldBack
            windowStart = now
            used = 0
            heldBack = 0
        }
        guard used < lines else {
            heldBack += 1
            return (false, ended)
        }
        used += 1
        return (true, ended)
    }

    /// How many lines the current interval held back, said now (at a stop) and not again.
    mutating func drainHeldBack() -> Int {
        defer { heldBack = 0 }
        return heldBack
    }
}
