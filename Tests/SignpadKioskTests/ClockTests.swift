@testable import SignpadKiosk
import SignpadVocabulary
import Testing

/// The kiosk's clocks and the double tap, on their own (the kiosk's own tests drive them through
/// touches).
@Suite struct ClockTests {
    @Test func twoShortNearTapsConfirmAfterTheirQuietAndOnlyOnce() {
        var taps = DoubleTap(seconds: 0.4, radius: 40)
        taps.lifted(at: Point(10, 10), start: 1.0, now: 1.05, moved: false)
        #expect(taps.confirmsAt == nil, "one tap is not two")
        taps.lifted(at: Point(30, 20), start: 1.3, now: 1.35, moved: false)
        #expect(taps.confirmsAt == 1.35 + 0.4)
        let early = taps.confirms(now: 1.7), due = taps.confirms(now: 1.75), again = taps.confirms(now: 2)
        #expect(!early, "not before the quiet has passed")
        #expect(due)
        #expect(!again, "once")
    }

    @Test func aThirdTapALongOneAMoveAFarOneOrALateOneDoNotConfirm() {
        var third = DoubleTap(seconds: 0.4, radius: 40)
        third.lifted(at: Point(10, 10), start: 1.0, now: 1.05, moved: false)
        third.lifted(at: Point(10, 10), start: 1.2, now: 1.25, moved: false)
        third.touchLanded()
        let confirmed = third.confirms(now: 5)
        #expect(third.confirmsAt == nil && !confirmed, "a touch landing in the quiet cancels it")
        for (start, now, moved, at) in [(1.2, 1.7, false, Point(10, 10)), (1.2, 1.25, true, Point(10, 10)),
                                        (1.2, 1.25, false, Point(51, 10)), (1.5, 1.55, false, Point(10, 10))] {
            var taps = DoubleTap(seconds: 0.4, radius: 40)
            taps.lifted(at: Point(10, 10), start: 1.0, now: 1.05, moved: false)
            taps.lifted(at: at, start: start, now: now, moved: moved)
            #expect(taps.confirmsAt == nil, "second tap from \(start) to \(now) at \(at), moved \(moved)")
        }
    }

    @Test func aTouchCountsForAClockOnlyIfThatClockRanOutSinceAPhantomLandedThere() {
        var clocks = ActivityClocks(idleTimeout: 60, sleepAfter: 30)
        clocks.activity(now: 5)
        #expect(clocks.lastActivity == 5 && clocks.lastWaking == 5)
        #expect(clocks.idleDeadline() == 65 && clocks.sleepDeadline == 35)
        #expect(!clocks.idleIsUp(now: 64.9) && clocks.idleIsUp(now: 65) && clocks.sleepIsDue(now: 35))
        // A still touch landed 45 s ago at this place: past sleep's 30 s, within idle's 60 s.
        clocks.touchLanded(gap: 45)
        #expect(clocks.touchCounts == (idle: false, sleep: true))
        clocks.touchActs(now: 50)
        #expect(clocks.lastActivity == 5 && clocks.lastWaking == 50)
        clocks.touchIsAPersons()
        clocks.touchActs(now: 52)
        #expect(clocks.lastActivity == 52 && clocks.lastWaking == 52)
        clocks.touchLanded(gap: nil)
        #expect(clocks.touchCounts == (idle: true, sleep: true), "a place where no still touch landed")
        #expect(clocks.idleDeadline(since: 100) == 160)
        let never = ActivityClocks(idleTimeout: 0, sleepAfter: 0)
        #expect(!never.idleTimeoutRuns && !never.idleIsUp(now: 1e9))
    }
}
