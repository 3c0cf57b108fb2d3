import Foundation
import SignpadBench
import SignpadInput
import SignpadTestSupport
import SignpadVocabulary
import Testing

/// The goals for ink predicted 16 ms ahead, on the demo and every shared recording at the bench's
/// screen: the mean error at most 0.4 of drawing no prediction, the p95 no worse. Accuracy, not
/// speed: the same figures on any machine.
@Suite struct PredictionAccuracyTests {
    static var recordings: [String] {
        [demoRecordingPath] + (SharedRecordings.available ? SharedRecordings.all.map { SharedRecordings.directory.appendingPathComponent($0).path } : [])
    }

    @Test(arguments: recordings) func predictionMeetsItsGoals(path: String) throws {
        let recording = try EvemuRecording.parse(String(contentsOfFile: path, encoding: .utf8), file: path)
        let events = try recording.strokeEvents(screenWidth: 1920, screenHeight: 1080).map(\.event)
        let p = PredictionAccuracy.measure(events, horizon: 0.016)
        #expect(p.samples > 50)
        #expect(p.meetsGoals, "\(PredictionAccuracy.line(p))")
        #expect(PredictionAccuracy.withinLongestOvershoot(p.overshootMaxPx), "\(PredictionAccuracy.line(p))")
    }

    /// SVC2004's forty signatures (`svc2004-train`): every one's p95 no worse than drawing no
    /// prediction, each half's median mean error at most 0.4 of none, the half held out from
    /// tuning as well as the other, and no ink past a stroke's end farther than 16 px. (The worst
    /// at ≤ 0.5 and the overshoot's p95 at ≤ 6 px are not met: `signpad bench --survey` shows
    /// where they stand.) Half of each half has no pressure, and there even a prediction that
    /// knew the path but kept within 6 px, as keeping their lifts within 6 px asks where a lift
    /// cannot be foretold, would be above the median goal: the README says so.
    @Test func theFortySignaturesMeetTheMedianGoalInBothHalves() throws {
        guard SharedRecordings.available else {
            print("skipped: ../shared/data/recordings is absent")
            return
        }
        let folder = SharedRecordings.directory.appendingPathComponent("svc2004-train").path
        let paths = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".evemu") }.sorted().map { folder + "/" + $0 }
        let survey = try PredictionSurvey.measure(paths, width: 1920, height: 1080, horizon: 0.016)
        #expect(survey.entries.count == 40)
        #expect(survey.summaries.map(\.set) == [PredictionSurvey.tuning, PredictionSurvey.heldOut] && survey.summaries.allSatisfy { $0.recordings == 20 })
        for summary in survey.summaries {
            #expect(summary.medianMeanRatio <= 0.4 && summary.p95WorseThanUnpredicted == 0, "\(survey.table)")
            #expect(PredictionAccuracy.withinLongestOvershoot(summary.overshootMaxPx), "\(survey.table)")
            #expect(summary.withoutPressure == 10 && summary.withoutPressureLeastShortMedian > 0.4, "\(survey.table)")
        }
    }

    /// The overshoot is per lift: a stroke lifted at speed overshoots by what the prediction
    /// adds past its last sample; one that slows to a stop does not; one cancelled (as a
    /// recording's strokes are when it stops with a contact down) or still down has no end and
    /// counts for none.
    @Test func theOvershootIsCountedPerLift() {
        let fast = (0..<30).map { i in Sample(Point(100 + Double(i) * 10, 200), time: Double(i) / 100) }
        let slowing = (0..<30).map { i in Sample(Point(100 + 300 * (1 - pow(1 - Double(i) / 29, 2)), 400), time: 1 + Double(i) / 100) }
        let cancelled = (0..<30).map { i in Sample(Point(100 + Double(i) * 10, 500), time: 2 + Double(i) / 100) }
        let unfinished = (0..<30).map { i in Sample(Point(100 + Double(i) * 10, 600), time: 3 + Double(i) / 100) }
        func stroke(_ samples: [Sample]) -> [StrokeEvent] { [.down(samples[0])] + samples.dropFirst().map { .move($0) } }
        let p = PredictionAccuracy.measure(stroke(fast) + [.up] + stroke(slowing) + [.up] + stroke(cancelled) + [.cancel] + stroke(unfinished),
                                           horizon: 0.016)
        #expect(p.lifts == 2 && p.liftOvershootsPx.count == 2)
        // 1000 px/s for 16 ms past the last sample.
        #expect(abs(p.liftOvershootsPx[0] - 16) < 0.5, "\(p.liftOvershootsPx)")
        #expect(p.liftOvershootsPx[1] < 1, "\(p.liftOvershootsPx)")
        #expect(p.overshootMaxPx == p.liftOvershootsPx.max() && !p.meetsOvershootGoals)
        #expect(PredictionSurvey.set(of: "/x/svc2004-u7-s28-mt.evemu") == PredictionSurvey.tuning)
        #expect(PredictionSurvey.set(of: "/x/svc2004-u21-s22-mt.evemu") == PredictionSurvey.heldOut)
        #expect(PredictionSurvey.set(of: "/x/wacom-isdv4-pen.evemu") == PredictionSurvey.devices)
    }

    /// The least mean error within the overshoot goal: ink never more than 16 px ahead misses a
    /// contact 32 px on by at least 16 px, and one less than 16 px on by nothing.
    @Test func theLeastCappedErrorIsEachGapLessSixteenPixels() {
        // 2000 px/s: 32 px in 16 ms, 20 px between samples; the last 16 ms shorten the gap.
        let stroke = (0..<20).map { i in Sample(Point(100 + Double(i) * 20, 200), time: Double(i) / 100) }
        let events: [StrokeEvent] = [.down(stroke[0])] + stroke.dropFirst().map { .move($0) } + [.up]
        let p = PredictionAccuracy.measure(events, horizon: 0.016)
        let end = 100 + 19 * 20.0
        let gaps = stroke.map { min(32, end - $0.point.x) }
        #expect(abs(p.unpredictedMeanPx - gaps.reduce(0, +) / 20) < 1e-9)
        #expect(abs(p.leastCappedMeanPx - gaps.map { max($0 - 16, 0) }.reduce(0, +) / 20) < 1e-9)
        #expect(p.leastCappedRatio > 0.4 && p.leastCappedRatio < 0.5, "\(p.leastCappedRatio)")
        #expect(abs(p.leastShortMeanPx - gaps.map { max($0 - 6, 0) }.reduce(0, +) / 20) < 1e-9)
        #expect(p.leastShortRatio > p.leastCappedRatio && !p.hasPressure)
    }

    /// Measured against what the recording did: a stroke at constant speed is predicted exactly,
    /// and drawing nothing ahead misses by the distance covered in the horizon.
    @Test func theFiguresCompareWithWhatTheRecordingDidNext() {
        let stroke = (0..<30).map { i in Sample(Point(100 + Double(i) * 5, 200), time: Double(i) / 100) }
        let events: [StrokeEvent] = [.down(stroke[0])] + stroke.dropFirst().map { .move($0) } + [.up]
        let p = PredictionAccuracy.measure(events, horizon: 0.02)
        #expect(p.samples == 30)
        // 500 px/s for 20 ms: 10 px, except near the end, where the lift stops the contact.
        #expect(abs(p.unpredictedP95Px - 10) < 0.01, "\(p)")
        #expect(p.predictionMeanPx < 1.5, "\(p)")
    }
}
