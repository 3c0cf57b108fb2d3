@testable import SignpadKiosk
import SignpadVocabulary
import Testing

func at(_ p: Point, _ t: Double = 0) -> Sample { Sample(p, time: t) }

extension Kiosk {
    /// What one event causes, as a fresh list.
    mutating func handle(_ event: StrokeEvent, now: Double) -> [KioskEffect] {
        var effects: [KioskEffect] = []
        handle(event, now: now, into: &effects)
        return effects
    }

    /// A finger touching down at `from`, moving through `through`, lifting.
    mutating func swipe(_ points: [Point], now: Double) -> [KioskEffect] {
        var effects = handle(.down(at(points[0], now)), now: now)
        for p in points.dropFirst() { effects += handle(.move(at(p, now)), now: now) }
        return effects + handle(.up, now: now)
    }

    mutating func tap(_ p: Point, now: Double) -> [KioskEffect] { swipe([p], now: now) }
}

func centre(_ r: PixelRect) -> Point { Point(Double(r.minX + r.maxX) / 2, Double(r.minY + r.maxY) / 2) }

func signatureSwipe(_ layout: KioskLayout) -> [Point] {
    let c = centre(layout.box)
    return (0..<20).map { Point(c.x - 150 + Double($0) * 15, c.y + Double($0 % 3) * 10) }
}

func saves(_ effects: [KioskEffect]) -> [Signature] {
    effects.compactMap { if case .save(let s, _, _, _) = $0 { return s } else { return nil } }
}

@Suite struct KioskTests {
    let layout = KioskLayout(width: 1024, height: 600)

    @Test func layoutFitsTheScreenAndNothingOverlaps() {
        for (w, h) in [(800, 480), (1024, 600), (1920, 1080), (1080, 1920)] {
            let l = KioskLayout(width: w, height: h)
            let screen = PixelRect(x: 0, y: 0, width: w, height: h)
            for r in [l.prompt, l.box, l.clearButton, l.doneButton, l.message] {
                #expect(r.intersection(screen) == r && !r.isEmpty, "\(w)x\(h): \(r)")
            }
            #expect(l.box.intersection(l.clearButton).isEmpty && l.box.intersection(l.doneButton).isEmpty)
            #expect(l.clearButton.intersection(l.doneButton).isEmpty)
        }
    }

    @Test func inkInTheBoxIsCapturedAndForwarded() {
        var kiosk = Kiosk(layout: layout)
        let effects = kiosk.swipe(signatureSwipe(layout), now: 1)
        #expect(effects.filter { if case .ink = $0 { return true } else { return false } }.count == 21)
        #expect(kiosk.signature.strokes.count == 1)
        #expect(kiosk.signature.sampleCount == 20)
    }

    @Test func aTouchStartingOnAButtonIsNeverInk() {
        var kiosk = Kiosk(layout: layout)
        let effects = kiosk.swipe([centre(layout.clearButton), centre(layout.box)], now: 1)
        #expect(!effects.contains { if case .ink = $0 { return true } else { return false } })
        #expect(!effects.contains(.clearInk), "released off the button: not pressed")
        #expect(kiosk.signature.isEmpty)
    }

    /// The hand resting on the glass before the pen comes near: its stroke is taken back, the
    /// signature keeps the strokes before it, and the hand's later events mean nothing.
    @Test func aStrokeTakenBackLeavesTheOthersAndIsNoPartOfTheSignature() {
        var kiosk = Kiosk(layout: layout)
        _ = kiosk.swipe(signatureSwipe(layout), now: 1)
        let before = kiosk.signature
        let c = centre(layout.box)
        _ = kiosk.handle(.down(at(Point(c.x, c.y - 40), 2)), now: 2)
        _ = kiosk.handle(.move(at(Point(c.x + 20, c.y - 40), 2.1)), now: 2.1)
        #expect(kiosk.signature.strokes.count == 2)
        #expect(kiosk.handle(.withdraw, now: 2.2) == [.withdrawInk])
        #expect(kiosk.signature == before)
        #expect(kiosk.handle(.up, now: 2.3).isEmpty, "the hand lifting is no ink")
        #expect(kiosk.handle(.withdraw, now: 2.4).isEmpty, "nothing is being drawn")
        #expect(kiosk.signature == before)
    }

    /// A pen's eraser end takes away the strokes it passes over, whole, and nothing else: it
    /// draws no ink and presses no button.
    @Test func theEraserTakesAwayTheStrokesItPassesOver() {
        var kiosk = Kiosk(layout: layout)
        let c = centre(layout.box)
        _ = kiosk.swipe([Point(c.x - 100, c.y), Point(c.x - 100, c.y + 60)], now: 1)   // a vertical stroke
        _ = kiosk.swipe([Point(c.x + 100, c.y), Point(c.x + 160, c.y)], now: 1)       // a horizontal one
        _ = kiosk.tap(Point(c.x, c.y - 50), now: 1)                                     // a dot
        let horizontal = kiosk.signature.strokes[1], dot = kiosk.signature.strokes[2]
        func eraser(_ p: Point) -> Sample { Sample(p, time: 2, erasing: true) }
        // Down beside the vertical stroke, out of reach; then across it, between two of its samples.
        var effects = kiosk.handle(.down(eraser(Point(c.x - 140, c.y + 30))), now: 2)
        #expect(effects.isEmpty)
        effects = kiosk.handle(.move(eraser(Point(c.x - 60, c.y + 30))), now: 2.1)
        #expect(effects == [.redrawInk(removed: [0])])
        #expect(kiosk.signature.strokes == [horizontal, dot])
        // Within reach of the dot's edge, not over it.
        let reach = KioskRules().eraser.radius + KioskRules().inkWidth / 2
        effects = kiosk.handle(.move(eraser(Point(c.x, c.y - 50 + reach - 0.5))), now: 2.2)
        #expect(effects == [.redrawInk(removed: [1])])
        #expect(kiosk.signature.strokes == [horizontal])
        #expect(kiosk.handle(.up, now: 2.3).isEmpty)
        // On a button: nothing pressed, nothing drawn.
        effects = kiosk.handle(.down(eraser(centre(layout.clearButton))), now: 3) + kiosk.handle(.up, now: 3.1)
        #expect(effects.isEmpty)
        #expect(kiosk.signature.strokes == [horizontal])
    }

    /// Each stroke keeps the device it came from through whatever takes strokes away (the
    /// eraser, a withdrawal, Undo), and Done hands the devices over with the signature.
    @Test func eachStrokeKeepsItsDeviceThroughEveryChange() throws {
        let layout = KioskLayout(width: 1024, height: 600, undo: true)
        var kiosk = Kiosk(layout: layout)
        let c = centre(layout.box)
        func stroke(_ points: [Point], by device: String, at t: Double) {
            var effects: [KioskEffect] = []
            kiosk.handle(.down(at(points[0], t)), device: device, now: t, into: &effects)
            for p in points.dropFirst() { kiosk.handle(.move(at(p, t)), device: device, now: t, into: &effects) }
            kiosk.handle(.up, device: device, now: t, into: &effects)
        }
        stroke([Point(c.x - 100, c.y), Point(c.x - 100, c.y + 60)], by: "pen", at: 1)
        stroke([Point(c.x + 100, c.y), Point(c.x + 160, c.y)], by: "touchscreen", at: 1.5)
        stroke([Point(c.x - 20, c.y - 50), Point(c.x + 20, c.y - 50)], by: "pen", at: 2)
        stroke([Point(c.x - 150, c.y + 80), Point(c.x + 150, c.y + 80)], by: "touchscreen", at: 2.5)
        #expect(kiosk.strokeDevices == ["pen", "touchscreen", "pen", "touchscreen"])
        // The pen's eraser across the first stroke.
        var effects: [KioskEffect] = []
        kiosk.handle(.down(Sample(Point(c.x - 140, c.y + 30), time: 3, erasing: true)), device: "pen", now: 3, into: &effects)
        kiosk.handle(.move(Sample(Point(c.x - 60, c.y + 30), time: 3.1, erasing: true)), device: "pen", now: 3.1, into: &effects)
        kiosk.handle(.up, device: "pen", now: 3.2, into: &effects)
        #expect(effects == [.redrawInk(removed: [0])])
        #expect(kiosk.strokeDevices == ["touchscreen", "pen", "touchscreen"])
        // A hand's stroke taken back as the pen comes near.
        kiosk.handle(.down(at(Point(c.x, c.y + 20), 4)), device: "touchscreen", now: 4, into: &effects)
        kiosk.handle(.move(at(Point(c.x + 30, c.y + 20), 4.1)), device: "touchscreen", now: 4.1, into: &effects)
        #expect(kiosk.strokeDevices == ["touchscreen", "pen", "touchscreen", "touchscreen"])
        kiosk.handle(.withdraw, device: "touchscreen", now: 4.2, into: &effects)
        #expect(kiosk.strokeDevices == ["touchscreen", "pen", "touchscreen"])
        _ = kiosk.tap(centre(try #require(layout.undoButton)), now: 5)
        #expect(kiosk.strokeDevices == ["touchscreen", "pen"])
        #expect(kiosk.strokeDevices.count == kiosk.signature.strokes.count)
        let done = kiosk.tap(centre(layout.doneButton), now: 6)
        let saved = done.compactMap { if case .save(_, let devices, _, _) = $0 { return devices } else { return nil } }
        #expect(saved == [["touchscreen", "pen"]])
        #expect(kiosk.strokeDevices.isEmpty && kiosk.signature.isEmpty)
    }

    @Test func segmentsAreAsFarApartAsTheirNearestPoints() {
        typealias E = StrokeEraser
        #expect(E.squaredDistance(Point(0, 0), Point(10, 10), Point(0, 10), Point(10, 0)) == 0, "crossing")
        #expect(E.squaredDistance(Point(0, 0), Point(10, 0), Point(0, 5), Point(10, 5)) == 25, "parallel")
        #expect(E.squaredDistance(Point(0, 0), Point(10, 0), Point(13, 4), Point(20, 4)) == 25, "end to end")
        #expect(E.squaredDistance(Point(0, 0), Point(0, 0), Point(-3, 4), Point(3, 4)) == 16, "a point and a segment")
    }

    @Test func aButtonPressTakenBackIsNotPressed() {
        var kiosk = Kiosk(layout: layout)
        _ = kiosk.swipe(signatureSwipe(layout), now: 1)
        _ = kiosk.handle(.down(at(centre(layout.clearButton), 2)), now: 2)
        #expect(kiosk.pressedButton == .clear)
        #expect(kiosk.handle(.withdraw, now: 2.1) == [.repaintChrome])
        #expect(kiosk.pressedButton == nil)
        #expect(!kiosk.handle(.up, now: 2.2).contains(.clearInk), "lifted on the button after being taken back: not pressed")
        #expect(kiosk.signature.strokes.count == 1)
    }

    @Test func aStrokeBegunOutsideTheBoxIsInkFromItsLastSampleOutside() {
        var kiosk = Kiosk(layout: layout)
        let x = centre(layout.box).x, top = Double(layout.box.minY)
        let far = Point(x, top - 40), near = Point(x + 5, top - 6)
        let inside = [Point(x + 10, top + 8), Point(x + 20, top + 30)]
        let effects = kiosk.swipe([far, near] + inside, now: 1)
        let ink = effects.compactMap { if case .ink(let event) = $0 { return event } else { return nil } }
        #expect(ink == [.down(at(near, 1)), .move(at(inside[0], 1)), .move(at(inside[1], 1)), .up])
        #expect(kiosk.signature.strokes.map { $0.map(\.point) } == [[near] + inside])

        var untouched = Kiosk(layout: layout)
        let along = untouched.swipe([far, Point(x + 200, top - 40), near], now: 1)
        #expect(!along.contains { if case .ink = $0 { return true } else { return false } }, "never entered the box")
        #expect(untouched.signature.isEmpty)
    }

    @Test func aSaveLooksLikeSuccessAndAProblemAsksForAttention() {
        let style = KioskStyle()
        func colour(_ message: KioskMessage) -> UInt32? {
            KioskScreen.items(layout: layout, labels: KioskLabels(), style: style, message: message, pressed: nil)
                .compactMap { item -> UInt32? in
                    guard item.rect == layout.message, case .text(_, _, let color) = item.kind else { return nil }
                    return color
                }.first
        }
        #expect(colour(.saved) == style.confirmation)
        #expect(colour(.saving) == style.text)
        #expect(colour(.tooLittleInk) == style.message)
        #expect(colour(.saveFailed("the disk is full")) == style.message)
        #expect(colour(.none) == nil)
        #expect(style.confirmation != style.message)
    }

    @Test func clearWipesTheInk() {
        var kiosk = Kiosk(layout: layout)
        _ = kiosk.swipe(signatureSwipe(layout), now: 1)
        let effects = kiosk.tap(centre(layout.clearButton), now: 2)
        #expect(effects.contains(.clearInk))
        #expect(kiosk.signature.isEmpty)
    }

    @Test func doneSavesOnceAndWipesTheScreenForTheNextCustomer() {
        var kiosk = Kiosk(layout: layout)
        _ = kiosk.swipe(signatureSwipe(layout), now: 1)
        let effects = kiosk.tap(centre(layout.doneButton), now: 2)
        let saved = saves(effects)
        #expect(saved.count == 1)
        #expect(saved.first?.sampleCount == 20)
        #expect(effects.contains(.clearInk))
        #expect(kiosk.message == .saving)
        _ = kiosk.exportFinished(1, error: nil, now: 2.1)
        #expect(kiosk.message == .saved)
        _ = kiosk.tick(now: 2.1 + kiosk.rules.savedSeconds)
        #expect(kiosk.message == .none)
        #expect(saves(kiosk.tap(centre(layout.doneButton), now: 5)).isEmpty, "nothing left to save")
    }

    @Test func aDotOrATickIsNotASignature() {
        var kiosk = Kiosk(layout: layout)
        let c = centre(layout.box)
        _ = kiosk.tap(c, now: 1)
        _ = kiosk.swipe([c, Point(c.x + 8, c.y + 8)], now: 1.5)
        let effects = kiosk.tap(centre(layout.doneButton), now: 2)
        #expect(saves(effects).isEmpty)
        #expect(kiosk.message == .tooLittleInk)
        #expect(!kiosk.signature.isEmpty, "the customer can keep signing")
        _ = kiosk.tick(now: 2 + kiosk.rules.hintSeconds)
        #expect(kiosk.message == .none)
    }

    @Test func idleTimeoutWipesAnUnconfirmedSignature() {
        var kiosk = Kiosk(layout: layout)
        _ = kiosk.swipe(signatureSwipe(layout), now: 10)
        #expect(kiosk.nextDeadline() == 10 + kiosk.rules.idleTimeout)
        #expect(kiosk.tick(now: 20).isEmpty)
        #expect(kiosk.tick(now: 10 + kiosk.rules.idleTimeout) == [.clearInk])
        #expect(kiosk.signature.isEmpty)
    }

    /// A customer pauses with the pen raised, moving it as people do while they think: the
    /// signature stays. Then the pen is put down near the glass, or comes and goes at the edge of
    /// its range in one place: that holds nothing off, and the signature is wiped on time.
    @Test func aPenMovingAboveTheGlassKeepsTheSignatureAndOneLyingStillDoesNot() {
        var kiosk = Kiosk(layout: layout)
        let idle = kiosk.rules.idleTimeout
        _ = kiosk.swipe(signatureSwipe(layout), now: 10)
        let c = centre(layout.box)
        var t = 10.0
        while t < 10 + 3 * idle {
            t += idle / 4
            kiosk.penHovers(at: Point(c.x + (Int(t) % 2 == 0 ? 40 : -40), c.y - 20), now: t)
            #expect(kiosk.tick(now: t).isEmpty, "wiped at \(t) under a customer still holding the pen")
        }
        let strokes = kiosk.signature.strokes.count
        #expect(strokes == 1)
        let lastMove = t, laid = Point(c.x + (Int(t) % 2 == 0 ? 40 : -40), c.y - 20)
        #expect(kiosk.nextDeadline() == lastMove + idle)
        // Laid down where it last moved to: it jitters a pixel or two, and leaves range and comes back.
        for step in 1..<Int(idle) {
            kiosk.penHovers(at: laid + Point(Double(step % 3), Double(step % 2)), now: lastMove + Double(step))
            #expect(kiosk.tick(now: lastMove + Double(step)).isEmpty)
        }
        #expect(kiosk.nextDeadline() == lastMove + idle, "a pen lying still is no customer")
        #expect(kiosk.tick(now: lastMove + idle) == [.clearInk])
    }

    @Test func aPenMovingAboveTheGlassKeepsTheScreenOnButDoesNotWakeIt() {
        var rules = KioskRules()
        rules.sleepAfter = 300
        var kiosk = Kiosk(layout: layout, rules: rules)
        kiosk.penHovers(at: centre(layout.box), now: 200)
        kiosk.penHovers(at: centre(layout.box) + Point(0, 50), now: 250)
        #expect(kiosk.tick(now: 300).isEmpty, "somebody holds the pen above the glass")
        #expect(kiosk.tick(now: 550) == [.sleep(true)])
        kiosk.penHovers(at: centre(layout.box), now: 551)
        kiosk.penHovers(at: centre(layout.box) + Point(100, 0), now: 552)
        #expect(kiosk.tick(now: 553).isEmpty)
        #expect(kiosk.asleep, "a touch wakes the screen, not a pen passing by")
    }

    /// A customer who walks away with a finger, or a drop of water, still on the glass: the
    /// signature is wiped all the same, and that touch is let go of.
    @Test func aTouchLeftDownDoesNotKeepASignatureOnTheScreen() {
        var kiosk = Kiosk(layout: layout)
        let points = signatureSwipe(layout)
        _ = kiosk.swipe(points, now: 10)
        _ = kiosk.handle(.down(at(points[3], 11)), now: 11)
        _ = kiosk.handle(.move(at(points[5], 12)), now: 12)
        #expect(kiosk.signature.strokes.count == 2)
        #expect(kiosk.nextDeadline() == 12 + kiosk.rules.idleTimeout)
        #expect(kiosk.tick(now: 12 + kiosk.rules.idleTimeout) == [.clearInk, .letGoOfTouch])
        let strokesLeft = kiosk.signature.strokes.count
        #expect(strokesLeft == 0)
        let nobodyAtThePad = kiosk.isBetweenCustomers
        #expect(nobodyAtThePad)
        // Should its device still report it, it draws nothing.
        #expect(kiosk.handle(.move(at(points[8], 80)), now: 80).isEmpty, "the touch let go of draws nothing")
        #expect(kiosk.handle(.up, now: 81).isEmpty)
        #expect(kiosk.swipe(points, now: 90).contains(.ink(.down(at(points[0], 90)))), "the next touch is ink again")
    }

    @Test func aTouchHeldOutsideTheBoxIsLetGoOfWithoutInk() {
        var kiosk = Kiosk(layout: layout)
        _ = kiosk.handle(.down(at(Point(2, 2), 5)), now: 5)
        #expect(kiosk.nextDeadline() == 5 + kiosk.rules.idleTimeout, "a touch held down is timed too")
        #expect(kiosk.tick(now: 5 + kiosk.rules.idleTimeout - 1).isEmpty)
        #expect(kiosk.tick(now: 5 + kiosk.rules.idleTimeout) == [.letGoOfTouch])
        #expect(kiosk.nextDeadline() == .infinity)
    }

    @Test func aFingerLeftOnDoneIsLetGoOfUnpressed() {
        var kiosk = Kiosk(layout: layout)
        _ = kiosk.swipe(signatureSwipe(layout), now: 10)
        _ = kiosk.handle(.down(at(centre(layout.doneButton), 11)), now: 11)
        #expect(kiosk.pressedButton == .done)
        #expect(kiosk.tick(now: 11 + kiosk.rules.idleTimeout) == [.clearInk, .repaintChrome, .letGoOfTouch])
        #expect(kiosk.pressedButton == nil)
        #expect(kiosk.handle(.up, now: 80).isEmpty, "neither a save nor a too-little-ink hint")
        let message = kiosk.message, exports = kiosk.pendingExports.count
        #expect(message == .none && exports == 0)
    }

    @Test func anIdleScreenSleepsOnlyWhenNobodyIsAtThePadAndTheWakingTouchDrawsNothing() {
        var rules = KioskRules()
        rules.sleepAfter = 300
        var kiosk = Kiosk(layout: layout, rules: rules)
        _ = kiosk.swipe(signatureSwipe(layout), now: 10)
        #expect(kiosk.nextDeadline() == 10 + rules.idleTimeout, "ink is wiped before the screen may sleep")
        #expect(kiosk.tick(now: 10 + rules.idleTimeout) == [.clearInk])
        #expect(!kiosk.asleep, "never straight over a customer's ink")
        #expect(kiosk.nextDeadline() == 10 + rules.sleepAfter)
        #expect(kiosk.tick(now: 10 + rules.sleepAfter) == [.sleep(true)])
        #expect(kiosk.asleep)
        #expect(kiosk.nextDeadline() == .infinity, "nothing more to do until a touch")
        // The waking touch lands on Done and moves through the box: it is neither a press nor ink.
        let waking = kiosk.swipe([centre(layout.doneButton), centre(layout.box)], now: 400)
        #expect(waking == [.sleep(false)])
        #expect(!kiosk.asleep && kiosk.signature.isEmpty && kiosk.pendingExports.isEmpty)
        #expect(kiosk.swipe(signatureSwipe(layout), now: 401).contains { if case .ink = $0 { return true } else { return false } },
                "the next touch is ink again")
    }

    @Test func aStaffMessageKeepsTheScreenOnAndAFailedSaveWakesIt() {
        var rules = KioskRules()
        rules.sleepAfter = 300
        var kiosk = Kiosk(layout: layout, rules: rules)
        _ = kiosk.exportFinished(nil, error: "/srv/signatures: the disk is full", now: 1)
        #expect(kiosk.tick(now: 1000).isEmpty, "staff must see the message")
        _ = kiosk.exportFinished(nil, error: nil, now: 1001)
        #expect(kiosk.tick(now: 1001 + rules.sleepAfter).contains(.sleep(true)))
        let effects = kiosk.exportFinished(nil, error: "/srv/signatures: not writable", now: 2000)
        #expect(effects.first == .sleep(false) && !kiosk.asleep)
        #expect(kiosk.message == .saveFailed("/srv/signatures: not writable"))
    }

    @Test func aFailedSaveIsShownToStaffAndClearStillWorks() {
        var kiosk = Kiosk(layout: layout)
        _ = kiosk.swipe(signatureSwipe(layout), now: 1)
        _ = kiosk.tap(centre(layout.doneButton), now: 2)
        _ = kiosk.exportFinished(1, error: "/srv/signatures: the disk is full", now: 2.2)
        #expect(kiosk.message == .saveFailed("/srv/signatures: the disk is full"))
        #expect(kiosk.pendingExports == [1], "still pending: the exporter retries it")
        _ = kiosk.swipe(signatureSwipe(layout), now: 3)
        #expect(kiosk.tap(centre(layout.clearButton), now: 4).contains(.clearInk))
        _ = kiosk.tick(now: 1000)
        #expect(kiosk.message == .saveFailed("/srv/signatures: the disk is full"), "a staff message stays until the save succeeds")
        _ = kiosk.exportFinished(1, error: nil, now: 1001)
        #expect(kiosk.message == .saved)
        #expect(kiosk.pendingExports.isEmpty)
    }

    @Test func aReloadWaitsUntilNobodyIsAtThePad() {
        var kiosk = Kiosk(layout: layout)
        #expect(kiosk.isBetweenCustomers, "a fresh screen")
        let points = signatureSwipe(layout)
        _ = kiosk.handle(.down(at(points[0], 1)), now: 1)
        #expect(!kiosk.isBetweenCustomers, "a finger is down")
        _ = kiosk.handle(.up, now: 1)
        #expect(!kiosk.isBetweenCustomers, "ink on the screen")
        _ = kiosk.tap(centre(layout.clearButton), now: 2)
        #expect(kiosk.isBetweenCustomers, "cleared")
        _ = kiosk.handle(.down(at(centre(layout.doneButton), 3)), now: 3)
        #expect(!kiosk.isBetweenCustomers, "a finger on a button")
        _ = kiosk.handle(.up, now: 3)
        _ = kiosk.swipe(points, now: 4)
        _ = kiosk.tap(centre(layout.doneButton), now: 5)
        #expect(!kiosk.isBetweenCustomers, "the customer waits for Saving")
        _ = kiosk.exportFinished(1, error: nil, now: 5.1)
        #expect(!kiosk.isBetweenCustomers, "the customer reads Saved")
        _ = kiosk.tick(now: 5.1 + kiosk.rules.savedSeconds)
        #expect(kiosk.isBetweenCustomers, "Saved has gone")
        _ = kiosk.swipe(points, now: 10)
        _ = kiosk.tap(centre(layout.doneButton), now: 11)
        _ = kiosk.exportFinished(2, error: "/srv/signatures: the disk is full", now: 11.1)
        #expect(kiosk.isBetweenCustomers, "a staff message is no customer: a reload may be what fixes the folder")
    }

    @Test func aSignatureFromBeforeTheLastStartShowsStaffItsFailureButNoSavedWhenWritten() {
        var kiosk = Kiosk(layout: layout)
        _ = kiosk.exportFinished(nil, error: "/srv/signatures: the export folder is missing", now: 1)
        #expect(kiosk.message == .saveFailed("/srv/signatures: the export folder is missing"))
        _ = kiosk.exportFinished(nil, error: nil, now: 2)
        #expect(kiosk.message == .none, "the customer in front of the screen saved nothing")
        _ = kiosk.swipe(signatureSwipe(layout), now: 3)
        _ = kiosk.tap(centre(layout.doneButton), now: 4)
        _ = kiosk.exportFinished(nil, error: nil, now: 4.1)
        #expect(kiosk.message == .saving, "this customer's own signature is still being written")
        _ = kiosk.exportFinished(1, error: nil, now: 4.2)
        #expect(kiosk.message == .saved)
    }

    /// A kiosk with a signature on it at time 1, and `kiosk.double_tap_confirm` as asked.
    func signedKiosk(doubleTapConfirms: Bool) -> Kiosk {
        var rules = KioskRules()
        rules.doubleTapConfirms = doubleTapConfirms
        var kiosk = Kiosk(layout: layout, rules: rules)
        _ = kiosk.swipe(signatureSwipe(layout), now: 1)
        return kiosk
    }

    @Test func doubleTapOutsideTheBoxConfirmsWhenEnabled() {
        var kiosk = signedKiosk(doubleTapConfirms: true)
        let rules = kiosk.rules
        let outside = Point(Double(layout.width) / 2, 3)
        #expect(saves(kiosk.tap(outside, now: 2)).isEmpty)
        #expect(saves(kiosk.tap(outside, now: 2.2)).isEmpty, "not before the quiet after the second tap")
        #expect(kiosk.nextDeadline() == 2.2 + rules.doubleTapSeconds, "the daemon wakes for it")
        #expect(saves(kiosk.tick(now: 2.5)).isEmpty)
        #expect(saves(kiosk.tick(now: 2.6)).count == 1)
        #expect(kiosk.message == .saving && !kiosk.hasInk)
        #expect(saves(kiosk.tick(now: 3)).isEmpty, "confirmed once")
        // Two touches in different places (a sleeve, a palm's edge, two drops) are no double tap.
        var scattered = signedKiosk(doubleTapConfirms: true)
        let elsewhere = Point(outside.x + rules.doubleTapRadius + 1, outside.y)
        _ = scattered.tap(outside, now: 2)
        _ = scattered.tap(elsewhere, now: 2.2)
        #expect(saves(scattered.tick(now: 2.39)).isEmpty, "the second tap is farther than doubleTapRadius")
        _ = scattered.tap(Point(elsewhere.x - 30, elsewhere.y + 20), now: 2.4)
        #expect(saves(scattered.tick(now: 2.8)).count == 1, "a finger's second tap lands near its first")
        var off = signedKiosk(doubleTapConfirms: false)
        _ = off.tap(outside, now: 2)
        _ = off.tap(outside, now: 2.2)
        #expect(saves(off.tick(now: 3)).isEmpty, "disabled by default")
    }

    /// Water on the glass makes and breaks contact at one place, tap after tap: it must not
    /// confirm a signature the customer walked away from (the idle timeout wipes it instead).
    @Test func tapsThatGoOnAtOnePlaceNeverConfirm() {
        var kiosk = signedKiosk(doubleTapConfirms: true)
        let drop = Point(Double(layout.width) / 2, 3)
        var now = 2.0
        var effects: [KioskEffect] = []
        for _ in 0..<12 {
            effects += kiosk.tap(Point(drop.x + 2, drop.y), now: now)
            now += 0.3
            effects += kiosk.tick(now: now)
        }
        effects += kiosk.tick(now: now + 5)
        #expect(saves(effects).isEmpty)
        #expect(kiosk.hasInk, "still the customer's to confirm or to lose to the idle timeout")
        // A customer who taps twice and goes on writing did not mean to confirm either.
        _ = kiosk.tap(drop, now: now + 5)
        _ = kiosk.tap(drop, now: now + 5.2)
        _ = kiosk.swipe(signatureSwipe(layout), now: now + 5.4)
        #expect(saves(kiosk.tick(now: now + 6)).isEmpty)
    }
}

@Suite struct KioskLayoutTests {
    /// From the smallest screen the kiosk takes to 4K, either way up: everything on the screen,
    /// a box to sign in, and nothing on top of anything else.
    @Test func everyScreenTheKioskTakesHasRoomForEverything() throws {
        var checked = 0
        for width in stride(from: KioskLayout.minimumWidth, through: 3840, by: 37) {
            for height in stride(from: KioskLayout.minimumHeight, through: 3840, by: 41) {
                try KioskLayout.requireRoom(width: width, height: height)
                let lines = KioskLayout.maxRequestLines(width: width, height: height)
                // Plain, with Undo, and a request's with Undo, Decline and all the rows of text it may have.
                for layout in [KioskLayout(width: width, height: height), KioskLayout(width: width, height: height, undo: true),
                               KioskLayout(width: width, height: height, requestLines: lines, decline: true, undo: true)] {
                    let screen = PixelRect(x: 0, y: 0, width: width, height: height)
                    var parts = [("prompt", layout.prompt), ("box", layout.box), ("message", layout.message)]
                    parts += layout.buttons.map { ($0.button.rawValue, $0.rect) }
                    if layout.lineCount > 0 { parts.append(("lines", layout.lines)) }
                    for (name, rect) in parts {
                        #expect(!rect.isEmpty && rect.intersection(screen) == rect, "\(width)x\(height): \(name) \(rect) is empty or off the screen")
                    }
                    for (i, (a, ra)) in parts.enumerated() {
                        for (b, rb) in parts[(i + 1)...] where (a, b) != ("box", "message") {
                            #expect(ra.intersection(rb).isEmpty, "\(width)x\(height): \(a) \(ra) overlaps \(b) \(rb)")
                        }
                    }
                    #expect(layout.box.height >= 20 && layout.box.width >= 100, "\(width)x\(height): box \(layout.box)")
                    #expect(layout.box.height >= KioskLayout.minimumBoxHeight(width: width, height: height), "\(width)x\(height): box \(layout.box)")
                    checked += 1
                }
            }
        }
        #expect(checked > 3000)
    }

    @Test(arguments: [(199, 150), (200, 149), (8, 8), (0, 0)])
    func aScreenTooSmallIsRefusedWithItsSize(width: Int, height: Int) {
        #expect(throws: ScreenSizeError(width: width, height: height)) { try KioskLayout.requireRoom(width: width, height: height) }
    }

    /// Beyond an 8K panel either way up, a signature's image (its ink's extent) could need
    /// gigabytes: the kiosk does not start, and says why. 8K itself, either way up, is taken.
    @Test func aScreenBeyondEightKIsRefusedAndEightKIsTaken() throws {
        for (width, height) in [(8193, 600), (600, 8193), (8192, 8192), (16384, 16384)] {
            #expect(throws: ScreenSizeError(width: width, height: height)) { try KioskLayout.requireRoom(width: width, height: height) }
        }
        #expect(ScreenSizeError(width: 16384, height: 16384).description
            == "the screen is 16384x16384 pixels; the kiosk signs on at most 8192x4608 (either way up), as a signature's image is as large as the ink on it")
        try KioskLayout.requireRoom(width: 7680, height: 4320)
        try KioskLayout.requireRoom(width: 4320, height: 7680)
    }
}
