import Foundation
import SignpadInk
import SignpadTestSupport
import SignpadVocabulary
import Testing

/// Strokes no recording has: on the canvas's very edges, jumps longer than the canvas, taps,
/// samples that repeat or barely move, hairpin turns, cancels, zero time steps and pens from a
/// hairline to the widest the configuration allows, on small canvases with a padded stride, a
/// patterned background and a clip.
struct RandomInk {
    var random: SeededRandom
    let width: Int
    let height: Int

    init(seed: UInt64) {
        random = SeededRandom(state: seed)
        width = Int.random(in: 8...150, using: &random)
        height = Int.random(in: 8...110, using: &random)
    }

    mutating func options() -> SmootherOptions {
        let pen: PenWidth
        let widest = Bool.random(using: &random) ? 100.0 : 12.0
        let a = Double.random(in: 0.1...widest, using: &random), b = Double.random(in: 0.1...widest, using: &random)
        switch Int.random(in: 0..<3, using: &random) {
        case 0: pen = .constant(a)
        case 1: pen = .pressure(min: min(a, b), max: max(a, b))
        default: pen = .velocity(min: min(a, b), max: max(a, b), filterWeight: Double.random(in: 0...1, using: &random))
        }
        return SmootherOptions(minDistance: [0, 0.5, 3][Int.random(in: 0..<3, using: &random)], width: pen)
    }

    mutating func renderer() -> InkRenderer {
        let stride = width + Int.random(in: 0...7, using: &random)
        var background = Canvas(width: width, height: height, stride: stride, fill: 0xFFFFFF)
        if Bool.random(using: &random) {
            for _ in 0..<(width * height / 4) {
                background[Int.random(in: 0..<width, using: &random), Int.random(in: 0..<height, using: &random)] = UInt32.random(in: 0...0xFFFFFF, using: &random)
            }
        }
        let clip = Bool.random(using: &random) ? nil : PixelRect(minX: Int.random(in: -5...width / 2, using: &random), minY: Int.random(in: -5...height / 2, using: &random),
                                                                    maxX: Int.random(in: width / 2...width + 5, using: &random), maxY: Int.random(in: height / 2...height + 5, using: &random))
        return InkRenderer(background: background, inkColor: UInt32.random(in: 0...0xFFFFFF, using: &random), clip: clip)
    }

    /// A point on the canvas, as the decoder clamps one: often exactly on an edge.
    func clamped(_ x: Double, _ y: Double) -> Point {
        let maxX = Double(width) - 1.0 / 256, maxY = Double(height) - 1.0 / 256
        return Point(min(max(x, 0), maxX), min(max(y, 0), maxY))
    }

    mutating func events() -> [StrokeEvent] {
        var events: [StrokeEvent] = []
        var time = 0.0
        for _ in 0..<Int.random(in: 1...5, using: &random) {
            var point = clamped(Double.random(in: -20...Double(width) + 20, using: &random), Double.random(in: -20...Double(height) + 20, using: &random))
            var heading = Double.random(in: 0..<(2 * .pi), using: &random)
            let samples = [1, 2, 3, 4, 5, Int.random(in: 6...60, using: &random)][Int.random(in: 0..<6, using: &random)]
            for index in 0..<samples {
                let step: Double
                switch Int.random(in: 0..<10, using: &random) {
                case 0: step = 0
                case 1: step = Double.random(in: 0...1, using: &random)
                case 2: step = Double.random(in: 0...Double(2 * max(width, height)), using: &random)
                default: step = Double.random(in: 1...12, using: &random)
                }
                heading += Int.random(in: 0..<6, using: &random) == 0 ? .pi - 0.01 : Double.random(in: -0.8...0.8, using: &random)
                if index > 0 { point = clamped(point.x + step * cos(heading), point.y + step * sin(heading)) }
                time += [0, 0.001, 0.008, 0.05][Int.random(in: 0..<4, using: &random)]
                let sample = Sample(point, time: time, pressure: Bool.random(using: &random) ? Double.random(in: 0...1, using: &random) : nil)
                events.append(index == 0 ? .down(sample) : .move(sample))
            }
            events.append(Int.random(in: 0..<4, using: &random) == 0 ? .cancel : .up)
        }
        return events
    }
}

@Suite struct RandomStrokeTests {
    /// Every promise the renderer makes on the recordings, on strokes no recording has.
    @Test(arguments: 1...40)
    func randomStrokesKeepEveryRendererPromise(seed: UInt64) {
        var ink = RandomInk(seed: seed)
        let options = ink.options(), fresh = ink.renderer(), events = ink.events()
        var run = IncrementalRun(renderer: fresh, options: options)
        run.run(events)
        let context = "seed \(seed): \(ink.width)x\(ink.height), \(options.width), \(events.count) events"
        #expect(run.events == events.count)
        #expect(run.unreported == 0, "\(context): \(run.unreported) pixels changed outside the dirty rectangles")
        #expect(run.wetMismatches == 0, "\(context): after \(run.wetMismatches) events the wet tail differs from one drawn whole")
        var whole = fresh, dirty = DirtyRegion()
        for piece in run.dry { whole.drawDry(piece, dirty: &dirty) }
        let differing = zip(whole.canvas.pixels, run.renderer.canvas.pixels).filter { $0 != $1 }.count
        #expect(differing == 0, "\(context): \(differing) pixels differ from the dry ink drawn whole (a wet pixel remains)")
        _ = expectC1Junctions(run.dry)  // records an issue at any junction that is not C1
    }

    /// Each stroke ends exactly on its last sample and a tap is a dot, whatever the stroke.
    @Test(arguments: 1...40)
    func randomStrokesEndOnTheirLastSample(seed: UInt64) {
        var ink = RandomInk(seed: seed)
        let options = ink.options()
        var smoother = MidpointSmoother(options: options)
        var last: Point?, ends = 0
        for event in ink.events() {
            if case .down(let s) = event { last = s.point }
            if case .move(let s) = event { last = s.point }
            let step = smoother.handle(event)
            guard step.strokeEnded, let last, let end = step.dry.last else { continue }
            if case .dot(let center, _) = end {
                // A tap: every sample within `tapRadius` of the first, whose dot it is.
                #expect(center.distance(to: last) <= options.tapRadius, "seed \(seed): a dot at \(center) for a stroke ending at \(last)")
            } else {
                #expect(end.endPoint == last, "seed \(seed): the stroke ends at \(end.endPoint), not on its last sample \(last)")
            }
            ends += 1
        }
        #expect(ends >= 1, "seed \(seed): no stroke ended")
    }
}
