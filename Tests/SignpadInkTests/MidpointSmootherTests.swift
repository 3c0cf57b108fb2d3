import SignpadInk
import SignpadVocabulary
import Testing

/// Runs a stroke through a smoother and collects everything it drew for good.
func dryPieces(_ events: [StrokeEvent], options: SmootherOptions = SmootherOptions()) -> [InkPiece] {
    var smoother = MidpointSmoother(options: options)
    var pieces: [InkPiece] = []
    for event in events { pieces.append(contentsOf: smoother.handle(event).dry) }
    return pieces
}

func stroke(_ points: [(Double, Double)], pressure: Double? = nil) -> [StrokeEvent] {
    var events: [StrokeEvent] = []
    for (index, p) in points.enumerated() {
        let sample = Sample(Point(p.0, p.1), time: Double(index) * 0.01, pressure: pressure)
        events.append(index == 0 ? .down(sample) : .move(sample))
    }
    events.append(.up)
    return events
}

/// Checks C1 at every junction of consecutive cubics: the incoming control point, the junction
/// and the outgoing control point are collinear and the handles point opposite ways.
func expectC1Junctions(_ pieces: [InkPiece], sourceLocation: SourceLocation = #_sourceLocation) -> Int {
    var checked = 0
    for (a, b) in zip(pieces, pieces.dropFirst()) {
        guard case .cubic(let left) = a, case .cubic(let right) = b, left.p3 == right.p0 else { continue }
        let incoming = left.p3 - left.c2, outgoing = right.c1 - right.p0
        let li = (incoming.x * incoming.x + incoming.y * incoming.y).squareRoot()
        let lo = (outgoing.x * outgoing.x + outgoing.y * outgoing.y).squareRoot()
        if li < 1e-9 || lo < 1e-9 { continue }
        let cross = (incoming.x * outgoing.y - incoming.y * outgoing.x) / (li * lo)
        let dot = (incoming.x * outgoing.x + incoming.y * outgoing.y) / (li * lo)
        #expect(abs(cross) < 1e-9, "junction at \(left.p3) bends: sin = \(cross)", sourceLocation: sourceLocation)
        #expect(dot > 0, "junction at \(left.p3) reverses", sourceLocation: sourceLocation)
        checked += 1
    }
    return checked
}

@Suite struct MidpointSmootherTests {
    @Test func emitsTheSchemeCubicWhenTheFifthSampleArrives() {
        var smoother = MidpointSmoother()
        let points = [Point(0, 0), Point(10, 0), Point(20, 10), Point(30, 10), Point(40, 0)]
        var steps: [SmootherStep] = []
        for (i, p) in points.enumerated() {
            steps.append(smoother.handle(i == 0 ? .down(Sample(p, time: 0)) : .move(Sample(p, time: Double(i)))))
        }
        #expect(steps[0..<4].allSatisfy { $0.dry.isEmpty })
        #expect(steps[4].dry.count == 1)
        guard case .cubic(let c) = steps[4].dry[0] else { Issue.record("expected a cubic"); return }
        #expect(c.p0 == Point(0, 0))
        #expect(c.c1 == Point(10, 0))
        #expect(c.c2 == Point(20, 10))
        #expect(c.p3 == Point(30, 5))  // midpoint of p2 (20,10) and p4 (40,0)
    }

    @Test(arguments: 1...12) func strokeEndsExactlyOnItsLastSample(count: Int) {
        let points = (0..<count).map { (Double($0) * 7, Double(($0 * $0) % 11) * 3) }
        let pieces = dryPieces(stroke(points))
        #expect(!pieces.isEmpty)
        let last = points.last!
        if count == 1 {
            #expect(pieces == [.dot(center: Point(last.0, last.1), diameter: 2.5)])
        } else {
            #expect(pieces.last!.endPoint == Point(last.0, last.1))
        }
        _ = expectC1Junctions(pieces)
    }

    @Test func cancelEndsTheStrokeLikeUp() {
        var events = stroke([(0, 0), (5, 5), (10, 3), (20, 8), (30, 2), (35, 9)])
        events[events.count - 1] = .cancel
        let pieces = dryPieces(events)
        #expect(pieces.last?.endPoint == Point(35, 9))
    }

    @Test func aTapDrawsARoundDot() {
        #expect(dryPieces(stroke([(50, 50)])) == [.dot(center: Point(50, 50), diameter: 2.5)])
        let jitter = dryPieces(stroke([(50, 50), (50.6, 50.2), (50.1, 50.7), (50.4, 50.4)]))
        #expect(jitter.last == .dot(center: Point(50, 50), diameter: 2.5))
    }

    @Test func closeSamplesAreSkippedButTheLastOneIsKept() {
        var smoother = MidpointSmoother()
        _ = smoother.handle(.down(Sample(Point(0, 0), time: 0)))
        _ = smoother.handle(.move(Sample(Point(10, 0), time: 0.01)))
        let close = smoother.handle(.move(Sample(Point(10.3, 0), time: 0.02)))
        // The skipped sample still ends the wet tail: the ink never lags the finger.
        #expect(close.wet.last?.point == Point(10.3, 0))
        let end = smoother.handle(.up)
        #expect(end.dry.last?.endPoint == Point(10.3, 0))
        #expect(end.strokeEnded)
    }

    @Test func wetTailAlwaysReachesTheNewestSample() {
        var smoother = MidpointSmoother()
        for i in 0..<40 {
            let p = Point(Double(i) * 3, 20 + Double(i % 5) * 4)
            let step = smoother.handle(i == 0 ? .down(Sample(p, time: 0)) : .move(Sample(p, time: Double(i) * 0.01)))
            #expect(step.wet.last?.point == p)
        }
        #expect(smoother.handle(.up).wet.isEmpty)
    }

    @Test func pressureWidthFollowsPressure() {
        let light = dryPieces(stroke([(0, 0), (10, 0), (20, 0), (30, 0), (40, 0)], pressure: 0), options: SmootherOptions(width: .pressure(min: 1, max: 5)))
        let heavy = dryPieces(stroke([(0, 0), (10, 0), (20, 0), (30, 0), (40, 0)], pressure: 1), options: SmootherOptions(width: .pressure(min: 1, max: 5)))
        guard case .cubic(let l) = light[0], case .cubic(let h) = heavy[0] else { Issue.record("expected cubics"); return }
        #expect(l.startWidth == 1)
        #expect(h.startWidth == 5)
    }

    @Test func fastStrokesAreThinnerWithVelocityWidth() {
        let options = SmootherOptions(width: .velocity(min: 0.5, max: 4, filterWeight: 0.7))
        let slow = dryPieces(stroke((0..<12).map { (Double($0) * 0.8, 0) }), options: options)
        let fast = dryPieces(stroke((0..<12).map { (Double($0) * 40, 0) }), options: options)
        guard case .cubic(let s) = slow.last!, case .cubic(let f) = fast.last! else { Issue.record("expected cubics"); return }
        #expect(f.endWidth < s.endWidth)
        #expect(f.endWidth >= 0.5)
    }
}
