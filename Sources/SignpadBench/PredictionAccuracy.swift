import Foundation
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
    /// The farthest predicted ink went past a stroke's real end (the prediction drawn on the
    /// events whose horizon reaches past the lift).
    public var overshootMaxPx: Double

    /// The goals: at most 0.4 of the unpredicted mean, a p95 no worse than unpredicted.
    public var meetsGoals: Bool { predictionMeanPx <= 0.4 * unpredictedMeanPx && predictionP95Px <= unpredictedP95Px }

    public static func measure(_ events: [StrokeEvent], horizon: Double) -> PredictionAccuracy {
        var predictedErrors: [Double] = [], unpredictedErrors: [Double] = [], overshoot = 0.0
        for stroke in strokes(events) where stroke.count >= 2 {
            var predictor = InkPredictor(horizon: horizon)
            let end = stroke[stroke.count - 1]
            for (index, sample) in stroke.enumerated() {
                predictor.add(sample)
                let guess = predictor.predicted() ?? sample.point
                let target = sample.time + horizon
                let actual = target >= end.time ? end.point : position(in: stroke, at: target, from: index)
                predictedErrors.append(guess.distance(to: actual))
                unpredictedErrors.append(sample.point.distance(to: actual))
                if target >= end.time { overshoot = max(overshoot, guess.distance(to: end.point) - sample.point.distance(to: end.point)) }
            }
        }
        func mean(_ values: [Double]) -> Double { values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count) }
        func p95(_ values: [Double]) -> Double {
            let sorted = values.sorted()
            return sorted.isEmpty ? 0 : sorted[min(Int(Double(sorted.count) * 0.95), sorted.count - 1)]
        }
        return PredictionAccuracy(horizonMilliseconds: horizon * 1000, samples: predictedErrors.count,
                                  predictionMeanPx: mean(predictedErrors), predictionP95Px: p95(predictedErrors),
                                  unpredictedMeanPx: mean(unpredictedErrors), unpredictedP95Px: p95(unpredictedErrors),
                                  overshootMaxPx: max(overshoot, 0))
    }

    /// The strokes drawn: a withdrawn one left out, a cancelled one kept up to its cancel.
    static func strokes(_ events: [StrokeEvent]) -> [[Sample]] {
        var done: [[Sample]] = [], current: [Sample] = []
        for event in events {
            switch event {
            case .down(let s): current = [s]
            case .move(let s): current.append(s)
            case .up, .cancel:
                if !current.isEmpty { done.append(current) }
                current = []
            case .withdraw: current = []
            }
        }
        return done + (current.isEmpty ? [] : [current])
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
        return String(format: "predicted ink %.0f ms ahead, %d samples: error mean %.2f px, p95 %.2f px; without prediction %.2f, %.2f; "
                      + "mean %.2f of unpredicted [≤ 0.4], p95 %.2f [≤ 1]; overshoot past a stroke's end max %.2f px",
                      p.horizonMilliseconds, p.samples, p.predictionMeanPx, p.predictionP95Px, p.unpredictedMeanPx, p.unpredictedP95Px,
                      p.predictionMeanPx / max(p.unpredictedMeanPx, 1e-9), p.predictionP95Px / max(p.unpredictedP95Px, 1e-9), p.overshootMaxPx)
    }
}
