import Foundation
import SignpadInk
import SignpadVocabulary
import Testing

@Suite struct InkPredictorTests {
    /// Samples at 100 Hz from `start`, `velocity` px/s, `pressure` each (nil: none).
    func line(_ n: Int, velocity: Point, from start: Point = Point(100, 100), pressures: [Double]? = nil) -> [Sample] {
        (0..<n).map { i in
            Sample(Point(start.x + velocity.x * Double(i) / 100, start.y + velocity.y * Double(i) / 100), time: 5 + Double(i) / 100,
                   pressure: pressures?[i])
        }
    }

    func prediction(_ samples: [Sample], horizon: Double = 0.016) -> Point? {
        var predictor = InkPredictor(horizon: horizon)
        for s in samples { predictor.add(s) }
        return predictor.predicted()
    }

    @Test func aSteadyStrokeIsPredictedWhereItWillBe() throws {
        let samples = line(12, velocity: Point(500, -200))
        let ahead = try #require(prediction(samples))
        let last = samples.last!.point
        #expect(ahead.distance(to: Point(last.x + 500 * 0.016, last.y - 200 * 0.016)) < 0.01, "\(ahead)")
    }

    @Test func nothingIsPredictedTooSoonStillOrOff() {
        #expect(prediction(line(2, velocity: Point(500, 0))) == nil, "two samples are no motion to fit")
        #expect(prediction(line(12, velocity: Point(5, 0))) == nil, "a contact barely moving")
        #expect(prediction(line(12, velocity: Point(500, 0)), horizon: 0) == nil, "ink.predict_ms = 0")
    }

    /// A contact that covered the last 35 ms clearly fast is fitted on them alone: one that has
    /// just set off from rest is predicted at its speed now, along its way.
    @Test func aContactJustSetOffIsPredictedAtItsSpeedNow() throws {
        let rest = line(20, velocity: Point(0, 0))
        let off = (1...3).map { i in Sample(Point(100 + 6 * Double(i), 100), time: rest.last!.time + Double(i) / 100) }
        let ahead = try #require(prediction(rest + off))
        let last = off.last!.point
        // 600 px/s for 16 ms, the short window's line.
        #expect(abs(ahead.x - (last.x + 600 * 0.016)) < 0.01 && abs(ahead.y - last.y) < 0.01, "\(ahead)")
    }

    /// A contact braking to a stop is not predicted past where it stops.
    @Test func aDeceleratingStrokeIsPredictedShortOfItsSpeed() throws {
        // x = 100 + 400 t - 4000 t²: 400 px/s falling by 8000 px/s², stopping 50 ms after the start.
        let samples = (0..<4).map { i -> Sample in
            let t = Double(i) / 100
            return Sample(Point(100 + 400 * t - 4000 * t * t, 100), time: t)
        }
        let ahead = try #require(prediction(samples))
        let last = samples.last!
        let speedNow = 400 - 8000 * last.time
        #expect(ahead.x > last.point.x && ahead.x - last.point.x < speedNow * 0.016 * 0.9, "\(ahead.x - last.point.x) px ahead at \(speedNow) px/s")
    }

    @Test func fallingPressureShrinksThePrediction() throws {
        let steady = line(12, velocity: Point(500, 0), pressures: Array(repeating: 0.8, count: 12))
        let lifting = line(12, velocity: Point(500, 0), pressures: (0..<12).map { $0 < 8 ? 0.8 : 0.8 - Double($0 - 7) * 0.15 })
        let full = try #require(prediction(steady)).x - steady.last!.point.x
        let shrunk = try #require(prediction(lifting)).x - lifting.last!.point.x
        #expect(shrunk < full * 0.5, "\(shrunk) px ahead with the pressure falling to \(lifting.last!.pressure!), \(full) px steady")
    }

    /// However fast the contact, no prediction is longer than 16 px: that is as far as ink can
    /// run past a stroke lifted at speed.
    @Test func aFastStrokeIsPredictedAtMostSixteenPixelsAhead() throws {
        let samples = line(12, velocity: Point(3000, -1500))
        let last = samples.last!.point
        let ahead = try #require(prediction(samples))
        #expect(abs(ahead.distance(to: last) - 16) < 1e-9, "\(ahead.distance(to: last)) px ahead")
        // Along the stroke still.
        #expect(abs((ahead.y - last.y) / (ahead.x - last.x) + 0.5) < 1e-6, "\(ahead)")
    }

    /// A contact going round a turn is predicted on the inside of the straight line ahead.
    @Test func aTurnBendsThePrediction() throws {
        // A circle of radius 50 px at 10 rad/s (500 px/s).
        let samples = (0..<12).map { i -> Sample in
            let angle = 10.0 * Double(i) / 100
            return Sample(Point(300 + 50 * cos(angle), 300 + 50 * sin(angle)), time: 5 + Double(i) / 100)
        }
        let ahead = try #require(prediction(samples))
        let last = samples.last!.point, centre = Point(300, 300)
        // Straight on along the tangent lands farther out than the circle; bent, it lands nearer.
        let angle = 10.0 * 11 / 100
        let straight = Point(last.x - 500 * sin(angle) * 0.016, last.y + 500 * cos(angle) * 0.016)
        #expect(ahead.distance(to: centre) < straight.distance(to: centre) - 0.1, "\(ahead) against \(straight)")
    }

    /// Pressure falling fast enough to reach nothing soon shrinks the prediction more than the
    /// same pressure reached slowly: a lift is coming.
    @Test func pressureFallingFastShrinksThePredictionMore() throws {
        let slowly = line(12, velocity: Point(500, 0), pressures: (0..<12).map { 0.8 - Double($0) * 0.01 })
        let fast = line(12, velocity: Point(500, 0), pressures: (0..<12).map { $0 < 11 ? 0.8 - Double($0) * 0.01 : 0.69 - 0.3 })
        let gentle = try #require(prediction(slowly)).x - slowly.last!.point.x
        let steep = prediction(fast).map { $0.x - fast.last!.point.x } ?? 0
        #expect(steep < gentle * 0.5 * 0.39 / 0.69, "\(steep) px ahead with the pressure falling fast, \(gentle) px slowly")
    }

    /// The pressure a prediction is measured against is the highest of the last 200 ms and of the
    /// 32 newest samples: an older peak no longer shrinks it, nor one a sample reported again took back.
    @Test func onlyTheRecentPressurePeakShrinksThePrediction() throws {
        let velocity = Point(500, 0)
        let steady = try #require(prediction(line(40, velocity: velocity, pressures: Array(repeating: 0.5, count: 40))))
        // Pressed hard, then 250 ms lighter: the hard samples are out of the window.
        let lighter = line(40, velocity: velocity, pressures: (0..<40).map { $0 < 15 ? 1 : 0.5 })
        let afterLighter = try #require(prediction(lighter))
        #expect(abs(afterLighter.x - steady.x) < 1e-9, "\(afterLighter.x) against \(steady.x) with a peak 250 ms old")
        // At 1 kHz the window holds 200 samples; the ring, 32: a peak 40 samples back is out of it.
        let fast = (0..<41).map { i in
            Sample(Point(100 + Double(i) * 0.5, 100), time: 5 + Double(i) / 1000, pressure: i == 0 ? 1 : 0.5)
        }
        let steadyFast = try #require(prediction(fast.map { Sample($0.point, time: $0.time, pressure: 0.5) }))
        let afterFast = try #require(prediction(fast))
        #expect(abs(afterFast.x - steadyFast.x) < 1e-9, "\(afterFast.x) against \(steadyFast.x) with a peak 40 samples back")
        // The newest sample reported hard, then again at its time and lighter: the light one
        // stands, beside the peak before it.
        var again = InkPredictor(horizon: 0.016)
        let samples = line(12, velocity: velocity, pressures: (0..<12).map { $0 == 8 ? 0.8 : 0.5 })
        for sample in samples.dropLast() { again.add(sample) }
        again.add(Sample(samples.last!.point, time: samples.last!.time, pressure: 1))
        again.add(samples.last!)
        let guess = again.predicted()
        let reported = try #require(guess)
        let once = try #require(prediction(samples))
        #expect(abs(reported.x - once.x) < 1e-9, "\(reported.x) against \(once.x) after the hard report was taken back")
    }

    /// A sample reported again earlier than the one before it puts the ring out of time order:
    /// the window is still measured back from the newest, to the first sample older than it, so a
    /// hard press 100 ms before the newest still counts, though a later sample came in between.
    @Test func aSampleReportedAgainEarlierKeepsThePeakBeforeIt() throws {
        func predicted(firstPressure: Double) -> Point? {
            var predictor = InkPredictor(horizon: 0.016)
            predictor.add(Sample(Point(100, 100), time: 5, pressure: firstPressure))
            predictor.add(Sample(Point(110, 100), time: 5.02, pressure: 0.5))
            predictor.add(Sample(Point(120, 100), time: 5.25, pressure: 0.5))
            predictor.add(Sample(Point(130, 100), time: 5.3, pressure: 0.5))
            predictor.add(Sample(Point(125, 100), time: 5.1, pressure: 0.5))
            return predictor.predicted()
        }
        let hard = try #require(predicted(firstPressure: 1)), light = try #require(predicted(firstPressure: 0.5))
        #expect(abs((hard.x - 125) - (light.x - 125) * 0.5) < 1e-6, "\(hard.x - 125) px ahead after a hard press, \(light.x - 125) px after a light one")
    }
}
