import FoundationEssentials
import SignpadInk
import SignpadVocabulary

/// How far ahead ink drawn `horizon` ahead of the newest sample lands from where the contact
/// really was then, on one recording: for every sample of every stroke, the predicted point
/// against the recording's position `horizon` later (interpolated between its samples; the
/// stroke's end once it has lifted), beside the error of drawing no prediction (how far the
/// contact really moved meanwhile). In screen pixels.
public struct PredictionAccuracy: Codable, Equatable, Sendable {
    public var horizonMilliseconds: Double
    public var samples: Int
    public var predictionMeanPx: Double
    public var predictionP95Px: Double
    public var unpredictedMeanPx: Double
    public var unpredictedP95Px: Double
    /// How far predicted ink went past a stroke's real end while the stroke was drawn (on the
    /// events whose horizon reaches past the lift, beyond where the newest sample already was):
    /// per lift, its 95th percentile and the farthest.
    public var overshootP95Px: Double
    public var overshootMaxPx: Double
    public var lifts: Int
    /// The least mean error any prediction can have that is never longer than the overshoot
    /// goal allows (16 px): each sample's gap less that, where it is longer. Where nothing tells
    /// a sample that will be the stroke's last (no pressure), ink ahead of each sample overshoots
    /// by its whole length if it is, so every prediction must keep within the goal. A bound with
    /// perfect knowledge of where the contact goes; with pressure, a lift can be foretold.
    public var leastCappedMeanPx: Double
    /// The same for a prediction never longer than the overshoot's p95 goal (6 px). Where
    /// nothing foretells a lift, any sample may be a stroke's last, so keeping a recording's
    /// lifts within 6 px asks that of nearly every sample: the least error that leaves.
    public var leastShortMeanPx: Double
    /// Whether the samples carry pressure (the device reports it), which can foretell a lift.
    public var hasPressure: Bool
    /// Each lift's overshoot, in order, for a survey's percentile over many recordings; not in
    /// the JSON, which gives its percentile and maximum.
    public var liftOvershootsPx: [Double] = []

    enum CodingKeys: String, CodingKey {
        case horizonMilliseconds, samples, predictionMeanPx, predictionP95Px, unpredictedMeanPx, unpredictedP95Px, overshootP95Px, overshootMaxPx, lifts,
             leastCappedMeanPx, leastShortMeanPx, hasPressure
    }

    init(horizonMilliseconds: Double, samples: Int, predictionMeanPx: Double, predictionP95Px: Double, unpredictedMeanPx: Double, unpredictedP95Px: Double,
         leastCappedMeanPx: Double, leastShortMeanPx: Double, hasPressure: Bool, liftOvershootsPx: [Double]) {
        self.horizonMilliseconds = horizonMilliseconds
        self.samples = samples
        self.predictionMeanPx = predictionMeanPx
        self.predictionP95Px = predictionP95Px
        self.unpredictedMeanPx = unpredictedMeanPx
        self.unpredictedP95Px = unpredictedP95Px
        self.leastCappedMeanPx = leastCappedMeanPx
        self.leastShortMeanPx = leastShortMeanPx
        self.hasPressure = hasPressure
        self.liftOvershootsPx = liftOvershootsPx
        overshootP95Px = Self.p95(liftOvershootsPx)
        overshootMaxPx = liftOvershootsPx.max() ?? 0
        lifts = liftOvershootsPx.count
    }

    /// The 95th percentile, nearest rank; 0 of none.
    static func p95(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[min(Int((Double(sorted.count) * 0.95).rounded(.up)) - 1, sorted.count - 1)]
    }

    /// The mean error as a share of drawing no prediction.
    public var meanRatio: Double { predictionMeanPx / max(unpredictedMeanPx, 1e-9) }

    /// The least mean ratio a prediction never longer than 16 px can reach (`leastCappedMeanPx`).
    public var leastCappedRatio: Double { leastCappedMeanPx / max(unpredictedMeanPx, 1e-9) }

    /// The least mean ratio a prediction never longer than 6 px can reach (`leastShortMeanPx`).
    public var leastShortRatio: Double { leastShortMeanPx / max(unpredictedMeanPx, 1e-9) }

    /// The longest overshoot the goals allow (px at 1080p).
    public static let longestOvershootPx = 16.0

    /// The overshoot's p95 goal (px at 1080p).
    public static let overshootP95GoalPx = 6.0

    /// The goals: at most 0.4 of the unpredicted mean, a p95 no worse than unpredicted.
    public var meetsGoals: Bool { predictionMeanPx <= 0.4 * unpredictedMeanPx && predictionP95Px <= unpredictedP95Px }

    /// The overshoot's goals at 1080p: p95 at most 6 px, none past 16 px.
    public var meetsOvershootGoals: Bool { overshootP95Px <= Self.overshootP95GoalPx && Self.withinLongestOvershoot(overshootMaxPx) }

    /// At most 16 px, give or take the rounding of a prediction capped at exactly that length.
    public static func withinLongestOvershoot(_ px: Double) -> Bool { px <= longestOvershootPx + 1e-9 }

    public static func measure(_ events: [StrokeEvent], horizon: Double) -> PredictionAccuracy {
        var predictedErrors: [Double] = [], unpredictedErrors: [Double] = [], overshoots: [Double] = []
        var leastCapped = 0.0, leastShort = 0.0, hasPressure = false
        for (stroke, ended) in strokes(events) where stroke.count >= 2 {
            var predictor = InkPredictor(horizon: horizon)
            let end = stroke[stroke.count - 1]
            var overshoot = 0.0
            for (index, sample) in stroke.enumerated() {
                predictor.add(sample)
                let guess = predictor.predicted() ?? sample.point
                let target = sample.time + horizon
                let actual = target >= end.time ? end.point : position(in: stroke, at: target, from: index)
                predictedErrors.append(guess.distance(to: actual))
                let gap = sample.point.distance(to: actual)
                unpredictedErrors.append(gap)
                leastCapped += max(gap - longestOvershootPx, 0)
                leastShort += max(gap - overshootP95GoalPx, 0)
                hasPressure = hasPressure || sample.pressure != nil
                if target >= end.time { overshoot = max(overshoot, guess.distance(to: end.point) - sample.point.distance(to: end.point)) }
            }
            // A recording that stops with a contact still down has no end to overshoot.
            if ended { overshoots.append(overshoot) }
        }
        func mean(_ values: [Double]) -> Double { values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count) }
        let samples = Double(max(predictedErrors.count, 1))
        return PredictionAccuracy(horizonMilliseconds: horizon * 1000, samples: predictedErrors.count,
                                  predictionMeanPx: mean(predictedErrors), predictionP95Px: p95(predictedErrors),
                                  unpredictedMeanPx: mean(unpredictedErrors), unpredictedP95Px: p95(unpredictedErrors),
                                  leastCappedMeanPx: leastCapped / samples, leastShortMeanPx: leastShort / samples,
                                  hasPressure: hasPressure, liftOvershootsPx: overshoots)
    }

    /// The strokes drawn, and whether each ended in a lift: a withdrawn one left out; a
    /// cancelled one (its device gone, events dropped, a palm, or a recording stopped with it
    /// down) kept up to its cancel as not lifted, as one still down is: the contact went on, so
    /// it has no end to overshoot.
    static func strokes(_ events: [StrokeEvent]) -> [(samples: [Sample], ended: Bool)] {
        var done: [(samples: [Sample], ended: Bool)] = [], current: [Sample] = []
        for event in events {
            switch event {
            case .down(let s): current = [s]
            case .move(let s): current.append(s)
            case .up, .cancel:
                if !current.isEmpty { done.append((current, event == .up)) }
                current = []
            case .withdraw: current = []
            }
        }
        return done + (current.isEmpty ? [] : [(current, false)])
    }

    /// Where the stroke was at `time`, between the samples around it (searching from `index`).
    static func position(in stroke: [Sample], at time: Double, from index: Int) -> Point {
        var i = index
        while i + 1 < stroke.count && stroke[i + 1].time < time { i += 1 }
        guard i + 1 < stroke.count else { return stroke[stroke.count - 1].point }
        let a = stroke[i], b = stroke[i + 1]
        let f = b.time > a.time ? (time - a.time) / (b.time - a.time) : 1
        return Point(a.point.x + (b.point.x - a.point.x) * f, a.point.y + (b.point.y - a.point.y) * f)
    }
}

extension PredictionAccuracy {
    /// One line for the table.
    public static func line(_ p: PredictionAccuracy) -> String {
        guard p.horizonMilliseconds > 0 else { return "predicted ink: off (ink.predict_ms = 0)" }
        return String(printf: "predicted ink %.0f ms ahead, %ld samples: error mean %.2f px, p95 %.2f px; without prediction %.2f, %.2f; "
                      + "mean %.2f of unpredicted [≤ 0.4], p95 %.2f [≤ 1]; overshoot past a stroke's end over %ld lifts p95 %.1f px [≤ 6], max %.1f px [≤ 16]",
                      p.horizonMilliseconds, p.samples, p.predictionMeanPx, p.predictionP95Px, p.unpredictedMeanPx, p.unpredictedP95Px,
                      p.meanRatio, p.predictionP95Px / max(p.unpredictedP95Px, 1e-9), p.lifts, p.overshootP95Px, p.overshootMaxPx)
    }
}
