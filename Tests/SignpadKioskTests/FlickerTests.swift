@testable import SignpadKiosk
import SignpadVocabulary
import Testing

/// Water or dirt that makes and breaks contact at one place (see `FlickerGuard`).
@Suite struct FlickerTests {
    let layout = KioskLayout(width: 1024, height: 600)

    /// A place in the box away from `signatureSwipe`'s ink.
    var wet: Point { Point(centre(layout.box).x + 200, centre(layout.box).y - 60) }

    /// The kiosk as the daemon runs it: `tick` whenever its deadline has come, then the event.
    struct Clocked {
        var kiosk: Kiosk
        var effects: [KioskEffect] = []

        mutating func at(_ now: Double, _ event: StrokeEvent) {
            advance(to: now)
            kiosk.handle(event, now: now, into: &effects)
        }

        mutating func advance(to now: Double) {
            // A hair past each deadline: (a + b) − a may come out a hair short of b.
            while kiosk.nextDeadline() <= now { effects += kiosk.tick(now: min(kiosk.nextDeadline() + 1e-9, now)) }
            effects += kiosk.tick(now: now)
        }

        /// A tap of `seconds` down at `p`.
        mutating func tap(_ p: Point, at now: Double, seconds: Double = 0.05) {
            at(now, .down(Sample(p, time: now)))
            at(now + seconds / 2, .move(Sample(Point(p.x + 1, p.y), time: now + seconds / 2)))
            at(now + seconds, .up)
        }

        mutating func swipe(_ points: [Point], at now: Double) {
            at(now, .down(Sample(points[0], time: now)))
            for (i, p) in points.enumerated().dropFirst() { at(now + Double(i) * 0.01, .move(Sample(p, time: now + Double(i) * 0.01))) }
            at(now + Double(points.count) * 0.01, .up)
        }

        /// Takes the effects so far.
        mutating func taken() -> [KioskEffect] {
            defer { effects = [] }
            return effects
        }
    }

    static func inks(_ effects: some Sequence<KioskEffect>) -> Int {
        effects.filter { if case .ink = $0 { return true } else { return false } }.count
    }

    static func held(_ effects: [KioskEffect]) -> [Point] {
        effects.compactMap { if case .flickerHeld(let p) = $0 { return p } else { return nil } }
    }

    /// The customer walks away unconfirmed, and a drop of water starts making and breaking contact
    /// every half second. Before, every contact was a touch event, so the signature stayed for as
    /// long as the water did.
    @Test func aFlickeringDropDoesNotKeepASignatureOnTheScreen() {
        var pad = Clocked(kiosk: Kiosk(layout: layout))
        pad.swipe(signatureSwipe(layout), at: 10)
        var t = 20.0
        while t < 600 {
            pad.tap(Point(wet.x + Double(Int(t * 2) % 5), wet.y), at: t)  // it wanders a little
            t += 0.5
        }
        pad.advance(to: 600)
        let effects = pad.taken()
        let wipe = effects.firstIndex(of: .clearInk)
        #expect(wipe != nil, "the signature is wiped")
        // The water's first taps are taps, as a person's are: dots, and activity.
        #expect(Self.inks(effects[..<(wipe ?? 0)]) >= 3 * 3)
        #expect(Self.inks(effects[(wipe ?? effects.endIndex)...]) == 0, "after the wipe the water draws nothing")
        #expect(Self.held(effects).count == 1, "said once")
        #expect(pad.kiosk.signature.isEmpty && !pad.kiosk.hasInk)
        #expect(pad.kiosk.nextDeadline() == .infinity)
    }

    /// When the wipe comes: an idle timeout after the water's second contact (the third is the
    /// first counted as a phantom's), not after its last.
    @Test func theWipeComesAnIdleTimeoutAfterThePhantomWasKnown() {
        var pad = Clocked(kiosk: Kiosk(layout: layout))
        pad.swipe(signatureSwipe(layout), at: 10)
        let idle = pad.kiosk.rules.idleTimeout
        var t = 20.0
        while t < 20.55 + idle - 0.1 {
            pad.tap(wet, at: t)
            t += 0.5
        }
        #expect(!pad.taken().contains(.clearInk))
        pad.advance(to: 20.55 + idle + 0.01)
        #expect(pad.taken().contains(.clearInk))
    }

    @Test func aPhantomDoesNotKeepTheScreenAwakeNorWakeIt() {
        var rules = KioskRules()
        rules.sleepAfter = 120
        var pad = Clocked(kiosk: Kiosk(layout: layout, rules: rules))
        for k in 0..<600 { pad.tap(wet, at: 10 + Double(k)) }  // once a second for ten minutes
        let effects = pad.taken()
        #expect(effects.contains(.sleep(true)))
        #expect(!effects.contains(.sleep(false)), "the water does not wake it")
        #expect(pad.kiosk.asleep)
        pad.tap(centre(layout.box), at: 700)
        #expect(pad.taken() == [.sleep(false)], "a person's touch elsewhere wakes it")
    }

    /// Someone who wakes the screen by tapping the same spot each time, with the screen sleeping
    /// sooner than an idle timeout: the spot has had two still touches within `idle_timeout`, but
    /// each came after the screen had slept, which no phantom holding it awake would do.
    @Test func aPersonWakingTheScreenAtTheSameSpotEachTimeWakesIt() {
        var rules = KioskRules()
        rules.idleTimeout = 120
        rules.sleepAfter = 60
        var pad = Clocked(kiosk: Kiosk(layout: layout, rules: rules))
        var t = 0.0
        for _ in 0..<6 {
            t += 70
            pad.advance(to: t)
            #expect(pad.kiosk.asleep)
            _ = pad.taken()
            pad.tap(wet, at: t)
            #expect(pad.taken() == [.sleep(false)], "at \(t) s")
        }
    }

    /// The next customer's first tap lands where the last one tapped three times: it came after the
    /// idle timeout ran out, which no phantom holding it off would do, so it is a dot and activity.
    @Test func aTapWhereTheLastCustomerTappedAfterTheTimeoutIsADot() {
        var rules = KioskRules()
        rules.sleepAfter = 300  // places are remembered that long
        var pad = Clocked(kiosk: Kiosk(layout: layout, rules: rules))
        for t in [1.0, 2.0, 3.0] { pad.tap(wet, at: t) }
        pad.advance(to: 100)
        #expect(pad.kiosk.signature.isEmpty, "wiped at the idle timeout")
        _ = pad.taken()
        pad.tap(wet, at: 100)
        #expect(Self.inks(pad.taken()) == 3)
        pad.advance(to: 100 + rules.idleTimeout - 1)
        #expect(!pad.kiosk.signature.isEmpty, "the idle clock restarted")
    }

    /// A person's taps are no phantom: a double tap, or dotting an i twice, draws both dots and
    /// restarts the idle clock each time.
    @Test func aPersonTappingTwiceAtOnePlaceIsNoPhantom() {
        var pad = Clocked(kiosk: Kiosk(layout: layout))
        pad.tap(wet, at: 10)
        pad.tap(wet, at: 10.3)
        #expect(Self.inks(pad.taken()) == 6)
        #expect(pad.kiosk.nextDeadline() == 10.35 + pad.kiosk.rules.idleTimeout)
    }

    /// A phantom's contacts while someone signs are taps as any: the customer's ink stays an idle
    /// timeout after their own last stroke, not the water's.
    @Test func aCustomerSigningBesideThePhantomIsTimedByTheirOwnStrokes() {
        var pad = Clocked(kiosk: Kiosk(layout: layout))
        for k in 0..<10 { pad.tap(wet, at: 1 + Double(k)) }
        pad.swipe(signatureSwipe(layout), at: 30)
        #expect(!pad.kiosk.signature.isEmpty)
        for k in 0..<29 { pad.tap(wet, at: 31 + Double(k) * 2) }
        let idle = pad.kiosk.rules.idleTimeout
        pad.advance(to: 30.2 + idle - 0.01)
        #expect(!pad.kiosk.signature.isEmpty, "the customer's ink is not wiped early")
        pad.advance(to: 30.2 + idle + 0.01)
        #expect(pad.kiosk.signature.isEmpty, "and not held off by the water")
    }

    /// Someone who lands where the phantom flickers, while nobody is at the pad, and then writes:
    /// their stroke starts where they landed once they move away from it.
    @Test func someoneLandingOnThePhantomsPlaceAndWritingIsInk() {
        var pad = Clocked(kiosk: Kiosk(layout: layout))
        for k in 0..<200 { pad.tap(wet, at: 1 + Double(k) * 0.5) }
        _ = pad.taken()
        pad.at(120, .down(Sample(wet, time: 120)))
        pad.at(120.01, .move(Sample(Point(wet.x + 4, wet.y), time: 120.01)))
        #expect(pad.taken().isEmpty, "held while within reach of where it landed")
        let away = Point(wet.x - 30, wet.y + 5)
        pad.at(120.02, .move(Sample(away, time: 120.02)))
        #expect(pad.taken() == [.ink(.down(Sample(wet, time: 120))), .ink(.move(Sample(away, time: 120.02)))])
        pad.at(120.03, .up)
        #expect(pad.kiosk.signature.strokes.count == 1)
        #expect(pad.kiosk.nextDeadline() == 120.03 + pad.kiosk.rules.idleTimeout, "activity")
    }

    /// A phantom that lands and stays is let go of as any touch that stays: an idle timeout after it
    /// landed, so on a multitouch panel the next finger is followed.
    @Test func aPhantomThatStaysDownIsLetGoOf() {
        var pad = Clocked(kiosk: Kiosk(layout: layout))
        for k in 0..<200 { pad.tap(wet, at: 1 + Double(k) * 0.5) }
        _ = pad.taken()
        pad.at(120, .down(Sample(wet, time: 120)))
        #expect(pad.kiosk.nextDeadline() == 120 + pad.kiosk.rules.idleTimeout)
        pad.advance(to: 120 + pad.kiosk.rules.idleTimeout)
        #expect(pad.taken() == [.letGoOfTouch])
    }

    /// A contact left on the glass that keeps reporting moves of a pixel or two (water that
    /// wobbles, a noisy controller): every move was a touch event, so the signature under it
    /// stayed, and its stroke grew, for as long as it lay there.
    @Test func aContactThatStaysDownAndJittersIsLetGoOfAtTheIdleTimeout() {
        var pad = Clocked(kiosk: Kiosk(layout: layout))
        pad.swipe(signatureSwipe(layout), at: 10)
        pad.at(20, .down(Sample(wet, time: 20)))
        var t = 20.0
        while t < 200 {
            t += 0.01
            let jitter = Point(wet.x + Double(Int(t * 100) % 5) - 2, wet.y + Double(Int(t * 70) % 3) - 1)
            pad.at(t, .move(Sample(jitter, time: t)))
        }
        let idle = pad.kiosk.rules.idleTimeout
        let effects = pad.taken()
        let wipe = effects.firstIndex(of: .clearInk)
        #expect(wipe != nil && effects.contains(.letGoOfTouch), "wiped, and the contact let go of")
        // The signature's 21 events, then the contact's landing and its moves (one each 0.01 s)
        // until the timeout, none after.
        let inks = Self.inks(effects)
        #expect(inks <= 21 + 1 + Int(idle * 100) + 1, "\(inks) ink events: none after the let-go")
        #expect(pad.kiosk.signature.isEmpty)
    }

    /// A place is forgotten once nothing has landed on it for the guard's memory: a tap there then
    /// makes a dot again.
    @Test func aPlaceLeftAloneIsForgotten() {
        var pad = Clocked(kiosk: Kiosk(layout: layout))
        for k in 0..<200 { pad.tap(wet, at: 1 + Double(k) * 0.5) }
        let idle = pad.kiosk.rules.idleTimeout
        pad.tap(wet, at: 100.5 + idle - 1)
        #expect(Self.inks(pad.taken().suffix(3)) == 0, "still remembered")
        pad.tap(wet, at: 100.5 + 2 * idle + 1)
        #expect(Self.inks(pad.taken()) == 3, "forgotten: a dot")
    }

    @Test func theGuardHoldsEightPlacesAndForgetsTheOldest() {
        var guardian = FlickerGuard(memorySeconds: 60)
        /// A still tap at `p`; true when still taps keep landing there.
        func still(_ p: Point, _ t: Double) -> Bool {
            let again = guardian.land(at: p, now: t) != nil
            _ = guardian.lift(now: t + 0.01)
            return again
        }
        let places = (0..<9).map { Point(Double($0) * 50, 0) }
        for (i, p) in places.enumerated() { _ = still(p, Double(i)); _ = still(p, Double(i) + 0.1) }
        #expect(still(places[8], 10), "the newest is remembered")
        #expect(!still(places[0], 11), "the oldest gave way")
        #expect(!still(places[1], 12), "and then the next oldest, to it")
        #expect(still(places[3], 13), "places[2] gave way to places[1]")
    }
}
