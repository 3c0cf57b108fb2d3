import SignpadInput
import SignpadTestSupport
import SignpadVocabulary
import Testing

/// A panel's pen and touchscreen read together: one stroke at a time, the pen's before the hand's.
@Suite struct InputArbiterTests {
    let pen = 5, touch = 4, other = 6
    let sample = Sample(Point(10, 10), time: 0)

    @Test func theFirstContactOwnsThePaperUntilItLifts() {
        var arbiter = InputArbiter()
        #expect(arbiter.route(.down(sample), from: touch, kind: .touchscreen, now: 0) == .pass)
        #expect(arbiter.route(.down(sample), from: other, kind: .touchscreen, now: 0.1) == .drop)
        #expect(arbiter.route(.move(sample), from: other, kind: .touchscreen, now: 0.2) == .drop)
        #expect(arbiter.route(.move(sample), from: touch, kind: .touchscreen, now: 0.2) == .pass)
        #expect(arbiter.route(.up, from: other, kind: .touchscreen, now: 0.3) == .drop)
        #expect(arbiter.owner == touch)
        #expect(arbiter.route(.up, from: touch, kind: .touchscreen, now: 0.4) == .pass)
        #expect(arbiter.owner == nil)
    }

    /// A touch that stayed down past the idle timeout is let go of: another device may draw.
    @Test func aContactLetGoOfFreesThePaper() {
        var arbiter = InputArbiter()
        #expect(arbiter.letGo() == nil)
        _ = arbiter.route(.down(sample), from: touch, kind: .touchscreen, now: 0)
        #expect(arbiter.route(.down(sample), from: other, kind: .touchscreen, now: 0.1) == .drop)
        _ = arbiter.route(.up, from: other, kind: .touchscreen, now: 0.2)
        #expect(arbiter.letGo() == touch)
        #expect(arbiter.owner == nil)
        #expect(arbiter.route(.down(sample), from: other, kind: .touchscreen, now: 61) == .pass)
        #expect(arbiter.route(.up, from: touch, kind: .touchscreen, now: 62) == .drop, "the let-go contact's lift is nothing")
        #expect(arbiter.owner == other)
    }

    @Test func aContactRefusedDoesNotStartMidPathWhenThePaperIsFree() {
        var arbiter = InputArbiter()
        _ = arbiter.route(.down(sample), from: touch, kind: .touchscreen, now: 0)
        #expect(arbiter.route(.down(sample), from: other, kind: .touchscreen, now: 0.1) == .drop)
        _ = arbiter.route(.up, from: touch, kind: .touchscreen, now: 0.2)
        // The other finger is still down: it must lift and land again to draw.
        #expect(arbiter.route(.move(sample), from: other, kind: .touchscreen, now: 0.3) == .drop)
        #expect(arbiter.route(.up, from: other, kind: .touchscreen, now: 0.4) == .drop)
        #expect(arbiter.route(.down(sample), from: other, kind: .touchscreen, now: 0.5) == .pass)
    }

    @Test func touchesAreIgnoredWhileThePenIsNearAndForAMomentAfter() {
        var arbiter = InputArbiter()
        #expect(arbiter.pen(pen, near: true, at: sample.point, now: 0) == false)
        #expect(arbiter.route(.down(sample), from: touch, kind: .touchscreen, now: 0.1) == .drop)
        #expect(arbiter.pen(pen, near: false, at: sample.point, now: 2) == false)
        #expect(arbiter.route(.down(sample), from: touch, kind: .touchscreen, now: 2 + InputArbiter.palmSeconds / 2) == .drop)
        #expect(arbiter.route(.down(sample), from: touch, kind: .touchscreen, now: 2 + InputArbiter.palmSeconds + 0.01) == .pass)
    }

    /// A pen put down near the glass (on the panel, or on a counter within reach of the digitiser)
    /// stops ignoring touches once it has lain still; picked up, it is held again.
    @Test func aPenLyingStillIsPutDownAndTouchesDrawAgain() {
        var arbiter = InputArbiter()
        let rest = InputArbiter.restingSeconds
        _ = arbiter.pen(pen, near: true, at: Point(100, 100), now: 0)
        // A held pen trembles: each small move within the distance keeps the clock running...
        _ = arbiter.pen(pen, near: true, at: Point(101, 100.5), now: rest / 2)
        #expect(arbiter.touchesIgnored(now: rest - 0.01))
        #expect(!arbiter.touchesIgnored(now: rest), "lain still for restingSeconds")
        #expect(arbiter.penNear)
        // ...a frame from the pen where it lies changes nothing, and does not take back a touch.
        #expect(arbiter.route(.down(sample), from: touch, kind: .touchscreen, now: rest + 1) == .pass)
        #expect(arbiter.pen(pen, near: true, at: Point(100.5, 101), now: rest + 2) == false)
        #expect(arbiter.owner == touch)
        // Picked up: the hand that holds it wrote the touch.
        #expect(arbiter.pen(pen, near: true, at: Point(130, 90), now: rest + 3) == true)
        #expect(arbiter.touchesIgnored(now: rest + 3 + rest - 0.01))
    }

    @Test func aPenWhosePositionIsUnknownIsNeverPutDown() {
        var arbiter = InputArbiter()
        _ = arbiter.pen(pen, near: true, at: nil, now: 0)
        #expect(arbiter.touchesIgnored(now: 1000))
    }

    @Test func aPenComingNearEndsATouchStroke() {
        var arbiter = InputArbiter()
        #expect(arbiter.route(.down(sample), from: touch, kind: .touchscreen, now: 0) == .pass)
        #expect(arbiter.pen(pen, near: false, at: sample.point, now: 0.1) == false)
        #expect(arbiter.pen(pen, near: true, at: sample.point, now: 0.2) == true)
        #expect(arbiter.owner == nil)
        // The hand's later events are not drawn; the pen's are.
        #expect(arbiter.route(.move(sample), from: touch, kind: .touchscreen, now: 0.3) == .drop)
        #expect(arbiter.route(.down(sample), from: pen, kind: .pen, now: 0.4) == .pass)
        #expect(arbiter.route(.up, from: touch, kind: .touchscreen, now: 0.5) == .drop)
        #expect(arbiter.route(.move(sample), from: pen, kind: .pen, now: 0.6) == .pass)
    }

    @Test func aPenLandingDuringATouchStrokeTakesThePaper() {
        var arbiter = InputArbiter()
        _ = arbiter.route(.down(sample), from: touch, kind: .touchscreen, now: 0)
        #expect(arbiter.route(.down(sample), from: pen, kind: .pen, now: 0.1) == .withdrawOwnerThenPass)
        #expect(arbiter.owner == pen)
        #expect(arbiter.route(.move(sample), from: touch, kind: .touchscreen, now: 0.2) == .drop)
    }

    @Test func aPenDoesNotCutAnotherPensStroke() {
        var arbiter = InputArbiter()
        let secondPen = other
        _ = arbiter.route(.down(sample), from: pen, kind: .pen, now: 0)
        #expect(arbiter.pen(secondPen, near: true, at: sample.point, now: 0.1) == false)
        #expect(arbiter.route(.down(sample), from: secondPen, kind: .pen, now: 0.2) == .drop)
        #expect(arbiter.owner == pen)
    }

    @Test func aDeviceThatGoesAwayFreesThePaperAndItsProximity() {
        var arbiter = InputArbiter()
        _ = arbiter.pen(pen, near: true, at: sample.point, now: 0)
        _ = arbiter.route(.down(sample), from: pen, kind: .pen, now: 0.1)
        #expect(arbiter.remove(touch, now: 0.2) == false)
        #expect(arbiter.remove(pen, now: 0.3) == true)
        #expect(arbiter.owner == nil)
        #expect(arbiter.touchesIgnored(now: 0.3 + InputArbiter.palmSeconds / 2))
        #expect(!arbiter.touchesIgnored(now: 0.3 + InputArbiter.palmSeconds + 0.01))
    }
}

/// Two touchscreens and a pen, each sending well-formed strokes of its own, interleaved at
/// random, with the pen coming near, lying still and leaving, the kiosk letting a touch go, and
/// devices unplugged. Whatever the order, the kiosk is handed one well-formed stroke at a time.
@Suite struct InputArbiterRandomTests {
    enum Handed: Equatable { case event(StrokeEvent, from: Int), withdrawn, letGo }
    static let pen = 2

    /// Plays the daemon's part (`DaemonInputs.readInput`, `letGoOfTouch`, `close`) for one seed.
    static func handed(seed: UInt64) -> [Handed] {
        var random = SeededRandom(state: seed)
        let devices: [(number: Int, kind: DeviceKind)] = [(0, .touchscreen), (1, .touchscreen), (Self.pen, .pen)]
        var arbiter = InputArbiter()
        var down = Set<Int>()  // devices with a contact down (as their decoder sees it)
        var penAt = Point(100, 100)
        var now = 0.0, out: [Handed] = []
        let sample = { (p: Point) in Sample(p, time: now) }
        for _ in 0..<400 {
            now += [0.001, 0.01, 0.2, 1.5, 6][Int.random(in: 0..<5, using: &random)]
            let (device, kind) = devices[Int.random(in: 0..<devices.count, using: &random)]
            switch Int.random(in: 0..<10, using: &random) {
            case 0...5:
                // The device's next event: down, or a move or lift of its contact.
                let event: StrokeEvent
                if !down.contains(device) {
                    event = .down(sample(Point(Double.random(in: 0..<800, using: &random), 50)))
                    down.insert(device)
                } else if Int.random(in: 0..<4, using: &random) == 0 {
                    event = Bool.random(using: &random) ? .up : .cancel
                    down.remove(device)
                } else {
                    event = .move(sample(Point(Double.random(in: 0..<800, using: &random), 60)))
                }
                switch arbiter.route(event, from: device, kind: kind, now: now) {
                case .drop: break
                case .pass: out.append(.event(event, from: device))
                case .withdrawOwnerThenPass: out += [.withdrawn, .event(event, from: device)]
                }
            case 6, 7:
                // The pen's proximity after a batch: near (moving or lying still) or gone.
                let near = Int.random(in: 0..<4, using: &random) != 0 || down.contains(Self.pen)
                if Bool.random(using: &random) { penAt = Point(penAt.x + Double.random(in: -20...20, using: &random), penAt.y) }
                if arbiter.pen(Self.pen, near: near, at: penAt, now: now) { out.append(.withdrawn) }
            case 8:
                // The kiosk lets the touch down go (idle timeout); its decoder stops following it.
                if let owner = arbiter.letGo() {
                    out.append(.letGo)
                    down.remove(owner)
                }
            default:
                // Unplugged (and back at once): a stroke in progress ends with a cancel.
                if arbiter.remove(device, now: now) { out.append(.event(.cancel, from: device)) }
                down.remove(device)
            }
        }
        return out
    }

    @Test(arguments: 1...30)
    func theKioskIsHandedOneWellFormedStrokeAtATime(seed: UInt64) {
        var open: Int?, strokes = 0, problems: [String] = []
        for (index, handed) in Self.handed(seed: seed).enumerated() {
            switch handed {
            case .withdrawn, .letGo:
                if open == nil { problems.append("\(index): \(handed) with no stroke open") }
                open = nil
            case .event(.down, let from):
                if let open { problems.append("\(index): a down from \(from) while \(open)'s stroke is open") }
                open = from
                strokes += 1
            case .event(let event, let from):
                if open != from { problems.append("\(index): \(event) from \(from) while \(open.map { "\($0)'s" } ?? "no") stroke is open") }
                if case .move = event { continue }
                open = nil
            }
        }
        #expect(problems.isEmpty, "seed \(seed): \(problems.prefix(5))")
        #expect(strokes >= 5, "seed \(seed): only \(strokes) strokes handed over")
    }
}
