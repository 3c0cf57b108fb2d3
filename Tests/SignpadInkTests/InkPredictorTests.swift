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
}
