import Testing
import SignpadInk
import SignpadInput

/// A panel's pen and touchscreen read together: one stroke at a time, the pen's before the hand's.
@Suite struct InputArbiterTests {
    let pen = "/dev/input/event5", touch = "/dev/input/event4", other = "/dev/input/event6"
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
