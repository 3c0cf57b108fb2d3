import FoundationEssentials
import SignpadInput
import SignpadVocabulary

/// Predicted ink over many recordings (`signpad bench --survey`): each one's `PredictionAccuracy`,
/// and for each set the figures the goals are about. SVC2004's forty signatures are split by
/// writer, u1–u20 to tune on and u21–u40 held out, so a change tuned on the first half is judged
/// on the second as well.
public struct PredictionSurvey: Codable, Sendable {
    public struct Entry: Codable, Sendable {
        public var recording: String
        public var set: String
        public var accuracy: PredictionAccuracy
    }

    public struct Summary: Codable, Sendable {
        public var set: String
        public var recordings: Int
        /// Of each recording's mean error as a share of drawing none: the median and the worst.
        public var medianMeanRatio: Double
        public var worstMeanRatio: Double
        /// The least mean ratio a prediction never longer than 16 px can reach on the
        /// recording with the worst (`PredictionAccuracy.leastCappedRatio`), and which that is.
        public var worstLeastCappedRatio: Double
        public var worstLeastCappedRecording: String
        /// The recordings without pressure, where nothing foretells a lift, and the median over
        /// them of the least mean ratio a prediction never longer than 6 px can reach
        /// (`PredictionAccuracy.leastShortRatio`): how far keeping their lifts within 6 px
        /// leaves them from the mean goals.
        public var withoutPressure: Int
        public var withoutPressureLeastShortMedian: Double
        /// Recordings whose mean ratio is at most 0.4, and whose p95 is worse than drawing none.
        public var meetingMeanGoal: Int
        public var p95WorseThanUnpredicted: Int
        /// Over all the set's lifts: the 95th percentile, and the farthest.
        public var overshootP95Px: Double
        public var overshootMaxPx: Double

        /// The goals: median ≤ 0.4, none above 0.5, p95 never worse, overshoot p95 ≤ 6 px and max ≤ 16 px.
        public var meetsGoals: Bool {
            medianMeanRatio <= 0.4 && worstMeanRatio <= 0.5 && p95WorseThanUnpredicted == 0 && overshootP95Px <= PredictionAccuracy.overshootP95GoalPx
                && PredictionAccuracy.withinLongestOvershoot(overshootMaxPx)
        }
    }

    public var horizonMilliseconds: Double
    public var screen: String
    public var entries: [Entry]
    public var summaries: [Summary]

    public static let tuning = "svc2004 u1-u20 (tuning)"
    public static let heldOut = "svc2004 u21-u40 (held out)"
    public static let devices = "device recordings"

    /// The set a recording belongs to, by its name.
    public static func set(of path: String) -> String {
        let name = PathText.name(of: path)
        guard name.hasPrefix("svc2004-u"), let user = Int(name.dropFirst("svc2004-u".count).prefix { $0.isNumber }) else { return devices }
        return user <= 20 ? tuning : heldOut
    }

    public static func measure(_ paths: [String], width: Int, height: Int, horizon: Double) throws -> PredictionSurvey {
        var entries: [Entry] = []
        for path in paths {
            let recording = try EvemuRecording.parse(String(contentsOfFile: path, encoding: .utf8), file: path)
            let events = try recording.strokeEvents(screenWidth: width, screenHeight: height).map(\.event)
            entries.append(Entry(recording: PathText.name(of: path), set: set(of: path), accuracy: PredictionAccuracy.measure(events, horizon: horizon)))
        }
        let sets = [devices, tuning, heldOut].filter { set in entries.contains { $0.set == set } }
        let summaries = sets.map { set -> Summary in
            let inSet = entries.filter { $0.set == set }, members = inSet.map(\.accuracy)
            let hardest = inSet.max { $0.accuracy.leastCappedRatio < $1.accuracy.leastCappedRatio }
            let ratios = members.map(\.meanRatio), unforetold = members.filter { !$0.hasPressure }
            return Summary(set: set, recordings: ratios.count, medianMeanRatio: median(ratios), worstMeanRatio: ratios.max() ?? 0,
                           worstLeastCappedRatio: hardest?.accuracy.leastCappedRatio ?? 0, worstLeastCappedRecording: hardest?.recording ?? "",
                           withoutPressure: unforetold.count, withoutPressureLeastShortMedian: median(unforetold.map(\.leastShortRatio)),
                           meetingMeanGoal: members.filter { $0.meanRatio <= 0.4 }.count,
                           p95WorseThanUnpredicted: members.filter { $0.predictionP95Px > $0.unpredictedP95Px }.count,
                           overshootP95Px: PredictionAccuracy.p95(members.flatMap(\.liftOvershootsPx)), overshootMaxPx: members.map(\.overshootMaxPx).max() ?? 0)
        }
        return PredictionSurvey(horizonMilliseconds: horizon * 1000, screen: "\(width)x\(height)", entries: entries, summaries: summaries)
    }

    public var table: String {
        var out = String(printf: "predicted ink %.0f ms ahead at ", horizonMilliseconds) + screen
            + ": mean error as a share of none [median ≤ 0.4, each ≤ 0.5], p95 [≤ none], overshoot past a stroke's end per lift [p95 ≤ 6 px, max ≤ 16 px]\n"
        out += "(least: the least mean ratio of any prediction never longer than the 16 px an overshoot may be; least 6: never longer than 6 px,\n"
        out += "as a prediction must nearly always be to keep a recording's lifts within 6 px where nothing foretells one, without pressure: *)\n"
        out += "recording                                   mean ratio  least  least 6   p95 px / none   overshoot p95 / max px\n"
        for e in entries {
            let a = e.accuracy
            out += (e.recording + (a.hasPressure ? "" : " *")).padded(to: 44)
                + String(printf: "%10.2f  %5.2f  %7.2f   %6.2f / %6.2f   %10.1f / %5.1f\n", a.meanRatio, a.leastCappedRatio, a.leastShortRatio,
                         a.predictionP95Px, a.unpredictedP95Px, a.overshootP95Px, a.overshootMaxPx)
        }
        for s in summaries {
            out += "\(s.set): " + String(printf: "%ld recordings, mean ratio median %.2f, worst %.2f (least possible within 16 px: %.2f, ",
                                        s.recordings, s.medianMeanRatio, s.worstMeanRatio, s.worstLeastCappedRatio)
                + s.worstLeastCappedRecording
                + String(printf: "), %ld at ≤ 0.4; p95 worse than none in %ld; overshoot p95 %.1f px, max %.1f px",
                         s.meetingMeanGoal, s.p95WorseThanUnpredicted, s.overshootP95Px, s.overshootMaxPx)
                + (s.withoutPressure == 0 ? "" : String(printf: "; without pressure (%ld), least possible within 6 px median %.2f",
                                                        s.withoutPressure, s.withoutPressureLeastShortMedian))
                + (s.meetsGoals ? "" : " [goals not met]") + "\n"
        }
        return out
    }
}
