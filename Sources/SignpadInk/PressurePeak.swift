/// The highest pressure of the newest samples within a window of time of the newest one, kept as
/// samples come (a sliding-window maximum): a queue, oldest first, of the samples that no newer
/// one presses as hard, so the highest is at its front. Each sample joins it and leaves it once,
/// where a scan of the window would read every sample of it at every event.
///
/// It follows the predictor's ring: it holds samples of the newest `capacity` only.
struct PressurePeak: Sendable {
    static let capacity = InkPredictor.ringSize

    private struct Entry: Sendable {
        var serial: Int
        var time: Double
        var pressure: Double
    }

    /// A ring of `capacity`: the queue is `entries[front..<back]`, indices masked.
    private var entries: [Entry]
    private var front = 0, back = 0
    /// The serial of the next sample added.
    private var serial = 0
    /// How long before the newest sample a sample still counts (seconds).
    let window: Double

    init(window: Double) {
        self.window = window
        entries = Array(repeating: Entry(serial: 0, time: 0, pressure: 0), count: Self.capacity)
    }

    mutating func reset() {
        front = 0
        back = 0
    }

    /// The newest sample, later than every one before it since the last `reset`. A sample
    /// without pressure counts as 0. Read `highest` only after one with pressure.
    mutating func add(time: Double, pressure: Double?) {
        // Never above the peak's floor of 0: it only ages the others, dropped at the next that has one.
        guard let pressure else {
            serial &+= 1
            return
        }
        // None it presses at least as hard is ever the highest again.
        while back > front && entries[(back &- 1) & (Self.capacity - 1)].pressure <= pressure { back &-= 1 }
        // Those out of the ring (`capacity` samples came since), or of the window.
        while back > front {
            let oldest = entries[front & (Self.capacity - 1)]
            guard oldest.serial <= serial &- Self.capacity || time - oldest.time > window else { break }
            front &+= 1
        }
        entries[back & (Self.capacity - 1)] = Entry(serial: serial, time: time, pressure: pressure)
        back &+= 1
        serial &+= 1
    }

    /// The highest pressure, at least 0, of the newest `capacity` samples added since the last
    /// `reset` that are no older than `window` before the newest.
    var highest: Double {
        back > front ? max(0, entries[front & (Self.capacity - 1)].pressure) : 0
    }
}
