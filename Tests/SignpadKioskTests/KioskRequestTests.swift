@testable import SignpadKiosk
import SignpadVocabulary
import Testing

/// A point of sale's request on the pad: what the customer sees and does, and how it ends.
@Suite struct KioskRequestTests {
    let layout = KioskLayout(width: 1024, height: 600)

    func requested(decline: Bool = false) -> Kiosk {
        var rules = KioskRules()
        rules.mode = .requested
        rules.offersDecline = decline
        return Kiosk(layout: layout, rules: rules)
    }

    func ends(_ effects: [KioskEffect]) -> [KioskRequestEnd] {
        effects.compactMap { if case .requestEnded(_, let end) = $0 { return end } else { return nil } }
    }

    @Test func betweenRequestsTouchesDrawNothing() {
        var kiosk = requested()
        #expect(kiosk.showsIdlePage)
        let effects = kiosk.swipe(signatureSwipe(layout), now: 1) + kiosk.tap(centre(layout.doneButton), now: 2)
        #expect(!effects.contains { if case .ink = $0 { return true } else { return false } })
        #expect(saves(effects).isEmpty && kiosk.signature.isEmpty)
    }

    /// Out of service (the recipient certificate ended), a walk-up kiosk takes no signature: the
    /// idle page shows what staff must do, touches draw nothing, and the screen never sleeps over it.
    @Test func outOfServiceAWalkUpKioskTakesNoSignatureAndTellsStaffWhy() {
        var rules = KioskRules()
        rules.sleepAfter = 30
        var kiosk = Kiosk(layout: layout, rules: rules)
        #expect(!kiosk.showsIdlePage)
        let taken = kiosk.takeOutOfService("the certificate expired", now: 1)
        #expect(taken.contains(.layoutChanged) && kiosk.showsIdlePage)
        let effects = kiosk.swipe(signatureSwipe(layout), now: 2) + kiosk.tap(centre(layout.doneButton), now: 3)
        #expect(!effects.contains { if case .ink = $0 { return true } else { return false } })
        #expect(saves(effects).isEmpty && kiosk.signature.isEmpty)
        #expect(!kiosk.tick(now: 1000).contains(.sleep(true)), "staff must see why")
        let texts = KioskScreen.items(kiosk: kiosk, labels: KioskLabels(), style: KioskStyle()).compactMap { item -> String? in
            if case .text(let text, _, _) = item.kind { return text } else { return nil }
        }
        #expect(texts == ["Out of service", "Staff: the certificate expired"])
    }

    @Test func aSignedRequestSavesOnceAndTakesItsTextAway() {
        var kiosk = requested()
        let shown = kiosk.beginRequest(KioskRequest(id: "R", context: SignatureRequest(reference: "R", title: "Total", lines: ["a", "b"]), timeout: 30), now: 1)
        #expect(shown.contains(.layoutChanged) && kiosk.layout.lineCount == 2)
        #expect(kiosk.layout.box.height < layout.box.height && kiosk.layout.box.height >= KioskLayout.minimumBoxHeight(width: 1024, height: 600))
        let drawn = kiosk.swipe(signatureSwipe(kiosk.layout), now: 2)
        #expect(drawn.filter { $0 == .requestProgress(id: "R", .ink) }.count == 1, "ink is told once, at the first stroke")
        let done = kiosk.tap(centre(kiosk.layout.doneButton), now: 3)
        #expect(saves(done).count == 1)
        #expect(ends(done) == [.signed(exportID: 1)])
        #expect(kiosk.request == nil && kiosk.layout == layout && kiosk.showsIdlePage)
    }

    @Test func declineTimeoutAndCancelEndItUnsaved() {
        var declined = requested(decline: true)
        _ = declined.beginRequest(KioskRequest(id: "R", context: SignatureRequest(reference: "R"), timeout: 30), now: 1)
        _ = declined.swipe(signatureSwipe(declined.layout), now: 2)
        let pressed = declined.tap(centre(declined.layout.declineButton!), now: 3)
        #expect(ends(pressed) == [.declined] && saves(pressed).isEmpty && declined.signature.isEmpty)

        var idle = requested()
        _ = idle.beginRequest(KioskRequest(id: "R", context: SignatureRequest(reference: "R"), timeout: 10), now: 1)
        _ = idle.swipe(signatureSwipe(idle.layout), now: 5)
        #expect(idle.nextDeadline() == 15, "the timeout counts from the last touch")
        #expect(ends(idle.tick(now: 14.9)).isEmpty)
        let timed = idle.tick(now: 15)
        #expect(ends(timed) == [.timedOut] && timed.contains(.clearInk) && idle.signature.isEmpty)

        var cancelled = requested()
        _ = cancelled.beginRequest(KioskRequest(id: "R", context: SignatureRequest(reference: "R"), timeout: 0), now: 1)
        _ = cancelled.swipe(signatureSwipe(cancelled.layout), now: 2)
        let ended = cancelled.cancelRequest(now: 3)
        #expect(ends(ended) == [.cancelled] && saves(ended).isEmpty && cancelled.signature.isEmpty && cancelled.isBetweenCustomers)
    }

    @Test func aRequestTakesAWalkUpSignatureOver() {
        var kiosk = Kiosk(layout: layout)
        _ = kiosk.swipe(signatureSwipe(layout), now: 1)
        let shown = kiosk.beginRequest(KioskRequest(id: "R", context: SignatureRequest(reference: "R", title: "T"), timeout: 30), now: 2)
        #expect(shown.contains(.clearInk) && kiosk.signature.isEmpty, "the walk-up ink is wiped, unsaved")
        #expect(!kiosk.isBetweenCustomers, "a reload waits for the request")
    }

    @Test func clearIsToldDuringARequest() {
        var kiosk = requested()
        _ = kiosk.beginRequest(KioskRequest(id: "R", context: SignatureRequest(reference: "R"), timeout: 30), now: 1)
        _ = kiosk.swipe(signatureSwipe(kiosk.layout), now: 2)
        #expect(kiosk.tap(centre(kiosk.layout.clearButton), now: 3).contains(.requestProgress(id: "R", .cleared)))
        #expect(kiosk.swipe(signatureSwipe(kiosk.layout), now: 4).contains(.requestProgress(id: "R", .ink)), "ink again after a clear")
    }
}
