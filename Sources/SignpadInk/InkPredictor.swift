import SignpadVocabulary
/// Where the contact will be `horizon` seconds after its newest sample, for ink drawn ahead of the
/// finger on screen only, as Android's motion predictor and Apple's predicted touches do: part of
/// the gap the touch controller and the display leave closes.
///
/// A quadratic fitted by weighted least squares to the recent samples gives the velocity and
/// acceleration at the newest sample. The prediction goes on at that velocity, bent by a share of
/// the acceleration across it (a turn) and lengthened by a share of a speeding up; a slowing down
/// brakes it, never past where the contact would stop. The window is long for a slow contact (its
/// jitter averages out) and short for a fast one (which it follows through turns). The prediction
/// is dropped when the contact barely moves, and shrinks when the fit misses the newest sample
/// (erratic motion) and when the pressure falls (a lift coming): below its recent peak, and more
/// when it falls fast enough to reach nothing soon. It is never longer than `longest`: nothing
/// before a lift tells a contact that lifts at speed from one that goes on, so that is as far as
/// ink can overshoot a stroke's end. The constants were chosen on the shared recordings with
/// `signpad bench --survey` (SVC2004 u1–u20 and the device recordings).
public struct InkPredictor: Sendable {
    public let horizon: Double
    /// The newest samples, `ringSize` of them. An array, not an `InlineArray`: reading an
    /// `InlineArray` property from a non-mutating method copies every sample first. Made once;
    /// `reset` keeps it.
    private var ring: [Sample]
    private var newest = -1
    private var count = 0
    /// The highest pressure within the slow window, kept as samples come.
    private var peak = PressurePeak(window: slowWindow)
    /// A sample was reported again earlier than the one before it: the ring is out of time order
    /// until the next stroke, and the highest pressure is found by a scan back from the newest.
    private var outOfOrder = false

    /// How many samples the fit can reach back (a power of two: indices are masked).
    static let ringSize = 32

    /// The windows, in seconds before the newest sample.
    static let slowWindow = 0.2
    /// 35 ms: at 100 Hz the newest four samples, a quadratic that follows a flick or a turn.
    static let fastWindow = 0.035
    /// Faster than this (px/s) by the long window's fit, the short window.
    static let fast = 100.0
    /// A contact that covered the short window faster than this (px/s) is fitted on it without
    /// the long window's fit being asked.
    static let clearlyFast = 200.0
    /// Slower than this (px/s), no prediction: there is nothing to catch up with.
    static let slowest = 10.0
    /// How much a miss of the fit (as a share of the predicted step) shrinks the prediction.
    static let missWeight = 0.25
    /// Within a window, a sample `τ` seconds old weighs 1 / (1 + recency · τ).
    static let recency = 30.0
    /// What the fit needs: more than a line through two samples.
    static let fewestSamples = 3
    /// The share of the fit's acceleration along the velocity, when speeding up, that lengthens the
    /// prediction (slowing down always brakes it in full).
    static let speedingUp = 0.5
    /// The share of the fit's acceleration across the velocity that bends the prediction.
    static let turning = 0.5
    /// Pressure falling so fast that it would reach nothing within `liftLead` horizons shrinks the
    /// prediction in proportion: a lift is coming.
    static let liftLead = 8.0
    /// The longest prediction (px): how far ink can overshoot the end of a stroke lifted at speed
    /// (the bench's goal at 1080p is at most 16 px).
    static let longest = 16.0

    public init(horizon: Double) {
        self.horizon = horizon
        ring = Array(repeating: Sample(Point(0, 0), time: 0), count: Self.ringSize)
    }

    public mutating func reset() {
        count = 0
        newest = -1
        peak.reset()
        outOfOrder = false
    }

    public mutating func add(_ sample: Sample) {
        // Two samples at one time (a frame reported twice) would make the fit singular.
        if count > 0 && sample.time <= ring[newest].time {
            ring[newest] = sample
            if count > 1 && sample.time < back(1).time { outOfOrder = true }
            // The newest may have fallen in time or pressure: the peak is taken again, oldest first.
            peak.reset()
            for k in stride(from: count - 1, through: 0, by: -1) { peak.add(time: back(k).time, pressure: back(k).pressure) }
            return
        }
        newest = (newest + 1) % Self.ringSize
        ring[newest] = sample
        count = min(count + 1, Self.ringSize)
        peak.add(time: sample.time, pressure: sample.pressure)
    }

    /// The sample `k` before the newest (0 ≤ k < `ringSize`): masked, not a signed remainder.
    @inline(__always)
    private func back(_ k: Int) -> Sample { ring[(newest &- k) & (Self.ringSize - 1)] }

    /// The predicted point, or nil when there is none to draw. Mutating though it changes
    /// nothing: called on a stored property, it reads the predictor in place, where a
    /// non-mutating call copies it, retaining its arrays.
    public mutating func predicted() -> Point? {
        guard horizon > 0, count >= Self.fewestSamples else { return nil }
        // The long window is summed only when the short one leaves the speed in doubt: most
        // events of a signature are clearly fast.
        var sums = FitSums(), summed = 0
        accumulate(&sums, from: &summed, within: Self.fastWindow)
        let fastSums = sums, first = back(summed - 1), last = back(0)
        let chord = first.point.distance(to: last.point), elapsed = last.time - first.time
        let motion: Fit
        if chord > Self.clearlyFast * elapsed, let quick = fastSums.fit() {
            motion = quick
        } else {
            accumulate(&sums, from: &summed, within: Self.slowWindow)
            guard let slow = sums.fit() else { return nil }
            let slowSpeed = (slow.vx * slow.vx + slow.vy * slow.vy).squareRoot()
            motion = slowSpeed > Self.fast ? fastSums.fit() ?? slow : slow
        }
        let speed = (motion.vx * motion.vx + motion.vy * motion.vy).squareRoot()
        guard speed >= Self.slowest else { return nil }
        // Along the velocity: a share of a speeding up; braking in full, never past where it would stop.
        let step = speed * horizon
        var advance = step
        let along = (motion.ax * motion.vx + motion.ay * motion.vy) / speed
        if along < 0 {
            let h = min(horizon, speed / -along)
            advance = speed * h + 0.5 * along * h * h
        } else {
            advance += 0.5 * Self.speedingUp * along * horizon * horizon
        }
        let miss = (motion.ox * motion.ox + motion.oy * motion.oy).squareRoot()
        var scale = max(0, 1 - Self.missWeight * miss / step) * advance / step
        if let pressure = last.pressure {
            let highest = outOfOrder ? scannedPeak() : peak.highest
            if highest > 0 { scale *= min(1, pressure / highest) }
            // Falling: the time it would take to reach nothing at the rate since the sample before.
            let before = back(1)
            if let earlier = before.pressure, pressure < earlier {
                let untilNone = pressure * (last.time - before.time) / (earlier - pressure)
                scale *= min(1, untilNone / (Self.liftLead * horizon))
            }
        }
        guard scale > 0 else { return nil }
        // Across the velocity: a share of the turn, shrunk with the prediction.
        let across = (motion.ay * motion.vx - motion.ax * motion.vy) / speed
        let bend = 0.5 * Self.turning * across * horizon * horizon * min(1, scale) / speed
        var dx = motion.vx * horizon * scale - motion.vy * bend
        var dy = motion.vy * horizon * scale + motion.vx * bend
        let length = (dx * dx + dy * dy).squareRoot()
        if length > Self.longest {
            dx *= Self.longest / length
            dy *= Self.longest / length
        }
        return Point(last.point.x + dx, last.point.y + dy)
    }

    /// The highest pressure, at least 0, of the samples back from the newest to the first one
    /// more than the slow window older: `PressurePeak`'s, where the ring's times are out of order.
    private func scannedPeak() -> Double {
        let last = back(0)
        var highest = 0.0
        for k in 0..<count {
            let sample = back(k)
            guard last.time - sample.time <= Self.slowWindow else { break }
            highest = max(highest, sample.pressure ?? 0)
        }
        return highest
    }

    /// Adds to `sums` the samples from the `summed`-th newest back while they are within
    /// `window` of the newest (or the fit needs more): the short window's samples are the long
    /// one's first, so the long one goes on from where the short one stopped. `summed` is how
    /// many samples `sums` holds, so it is the count the fit needs, kept in a register.
    private func accumulate(_ sums: inout FitSums, from summed: inout Int, within window: Double) {
        // Summed in locals, which stay in registers, and handed back once.
        var local = sums, k = summed
        defer {
            local.used = k
            (sums, summed) = (local, k)
        }
        ring.withUnsafeBufferPointer { ring in
            let last = ring[newest]
            @inline(__always) func add(_ sample: Sample, tau: Double) {
                local.add(tau: tau, dx: sample.point.x - last.point.x, dy: sample.point.y - last.point.y,
                          weight: 1 / (1 - Self.recency * tau))
                k &+= 1
            }
            // The sample `age` places older than the newest.
            @inline(__always) func sample(aged age: Int) -> Sample { ring[(newest &- age) & (InkPredictor.ringSize - 1)] }
            // What the fit needs, however old; then what is within the window.
            while k < min(count, Self.fewestSamples) {
                let next = sample(aged: k)
                add(next, tau: next.time - last.time)
            }
            let earliest = -window
            while k < count {
                let next = sample(aged: k), tau = next.time - last.time
                guard tau >= earliest else { return }
                add(next, tau: tau)
            }
        }
    }
}

/// Where a fit puts the newest sample (its miss), and its velocity and acceleration there.
private typealias Fit = (ox: Double, oy: Double, vx: Double, vy: Double, ax: Double, ay: Double)

/// The sums of a quadratic fitted by weighted least squares to samples in offsets from the
/// newest: time `tau` (≤ 0) and position `dx`, `dy`.
private struct FitSums {
    // In pairs, one instruction for two sums: (s0, s1), (s2, s3), and x beside y for each power.
    var s01 = SIMD2<Double>(), s23 = SIMD2<Double>(), s4 = 0.0
    var sxy0 = SIMD2<Double>(), sxy1 = SIMD2<Double>(), sxy2 = SIMD2<Double>()
    /// How many samples the sums hold: set by `accumulate`, which counts them anyway.
    var used = 0

    var s0: Double { s01.x }
    var s1: Double { s01.y }
    var s2: Double { s23.x }
    var s3: Double { s23.y }

    mutating func add(tau: Double, dx: Double, dy: Double, weight w: Double) {
        let t2 = tau * tau, wt2 = w * t2
        s01 += SIMD2(w, w * tau)
        s23 += SIMD2(wt2, wt2 * tau)
        s4 += wt2 * t2
        let wd = SIMD2(dx, dy) * w
        sxy0 += wd
        sxy1 += wd * tau
        sxy2 += wd * t2
    }

    /// Where the fit puts the newest sample (its miss), and its velocity and acceleration there;
    /// nil with too few samples or a singular system.
    func fit() -> Fit? {
        guard used >= InkPredictor.fewestSamples else { return nil }
        // [s0 s1 s2; s1 s2 s3; s2 s3 s4] · [c0 c1 c2] = the x sums (and the y sums), by Cramer's rule.
        let det = s0 * (s2 * s4 - s3 * s3) - s1 * (s1 * s4 - s3 * s2) + s2 * (s1 * s3 - s2 * s2)
        guard abs(det) > 1e-18 else { return nil }
        func solve(_ b0: Double, _ b1: Double, _ b2: Double) -> (Double, Double, Double) {
            let c0 = (b0 * (s2 * s4 - s3 * s3) - s1 * (b1 * s4 - s3 * b2) + s2 * (b1 * s3 - s2 * b2)) / det
            let c1 = (s0 * (b1 * s4 - s3 * b2) - b0 * (s1 * s4 - s3 * s2) + s2 * (s1 * b2 - b1 * s2)) / det
            let c2 = (s0 * (s2 * b2 - b1 * s3) - s1 * (s1 * b2 - b1 * s2) + b0 * (s1 * s3 - s2 * s2)) / det
            return (c0, c1, 2 * c2)
        }
        let (ox, vx, ax) = solve(sxy0.x, sxy1.x, sxy2.x), (oy, vy, ay) = solve(sxy0.y, sxy1.y, sxy2.y)
        return (ox, oy, vx, vy, ax, ay)
    }
}
