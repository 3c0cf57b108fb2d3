@testable import SignpadKiosk
import SignpadVocabulary
import Testing

/// A request's document read on the pad before the signing screen: pages turned and scrolled,
/// Sign offered only once every page was seen, nothing inked or confirmed meanwhile.
@Suite struct DocumentReviewTests {
    let layout = KioskLayout(width: 1024, height: 600)

    func reviewing(pages: Int, everyPage: Bool = true, decline: Bool = false) -> (Kiosk, [KioskEffect]) {
        var rules = KioskRules()
        rules.mode = .requested
        rules.offersDecline = decline
        var kiosk = Kiosk(layout: layout, rules: rules)
        let field = DocumentReview.FieldMark(page: pages - 1, left: 0.1, top: 0.8, width: 0.3, height: 0.1)
        let review = DocumentReview(pageCount: pages, field: field, everyPage: everyPage)
        let effects = kiosk.beginRequest(KioskRequest(id: "R", context: SignatureRequest(reference: "R"), timeout: 60, review: review), now: 1)
        return (kiosk, effects)
    }

    func buttons(_ kiosk: Kiosk) -> [KioskLayout.Button] { kiosk.review.map { kiosk.reviewLayout.buttons(for: $0).map(\.button) } ?? [] }

    /// A drag up the page by `rows`, from its lower part.
    func drag(_ kiosk: inout Kiosk, rows: Int, now: Double) -> [KioskEffect] {
        let page = kiosk.reviewLayout.page
        let x = Double(page.minX + page.width / 2), from = Double(page.maxY - 5)
        let steps = 10
        return kiosk.swipe((0...steps).map { Point(x, from - Double(rows) * Double($0) / Double(steps)) }, now: now)
    }

    @Test func everyPageMustBeSeenToItsFootBeforeSignShows() {
        var (kiosk, begun) = reviewing(pages: 2)
        #expect(begun.contains(.pageWanted(id: "R", page: 0)) && begun.contains(.layoutChanged))
        #expect(buttons(kiosk) == [.nextPage], "no Sign before anything is read")
        let viewport = kiosk.reviewLayout.page.height
        #expect(kiosk.pageDrawn(1, height: 900, now: 1).isEmpty, "a page not shown now is ignored")
        #expect(kiosk.pageDrawn(0, height: viewport * 3, now: 1) == [.reviewChanged])
        #expect(kiosk.review?.hasSeen(0) == false)

        // Dragging scrolls and draws no ink; it stops at the page's foot.
        let dragged = drag(&kiosk, rows: viewport - 20, now: 2)
        #expect(dragged.contains(.reviewScrolled))
        #expect(!dragged.contains { if case .ink = $0 { return true } else { return false } })
        #expect(kiosk.review?.offset == viewport - 20 && kiosk.review?.hasSeen(0) == false)
        _ = drag(&kiosk, rows: viewport, now: 3)
        _ = drag(&kiosk, rows: viewport, now: 4)
        #expect(kiosk.review?.offset == viewport * 2 && kiosk.review?.hasSeen(0) == true, "scrolled to the foot and no further")

        let next = kiosk.tap(centre(kiosk.reviewLayout.nextButton), now: 5)
        #expect(next.contains(.pageWanted(id: "R", page: 1)) && kiosk.review?.page == 1 && kiosk.review?.offset == 0)
        #expect(buttons(kiosk) == [.previousPage])
        // A page no taller than the view is seen once shown: Sign appears with it.
        #expect(kiosk.pageDrawn(1, height: viewport, now: 1) == [.reviewChanged])
        #expect(buttons(kiosk) == [.previousPage, .sign])

        let signing = kiosk.tap(centre(kiosk.reviewLayout.signButton), now: 6)
        #expect(signing.contains(.layoutChanged) && kiosk.review == nil && kiosk.request?.id == "R")
        let done = kiosk.swipe(signatureSwipe(kiosk.layout), now: 7) + kiosk.tap(centre(kiosk.layout.doneButton), now: 8)
        #expect(saves(done).count == 1)
    }

    @Test func signIsNotPressedWhereItDoesNotShowNorConfirmedFromTheReview() {
        var (kiosk, _) = reviewing(pages: 1)
        _ = kiosk.pageDrawn(0, height: kiosk.reviewLayout.page.height * 2, now: 1)
        #expect(kiosk.tap(centre(kiosk.reviewLayout.signButton), now: 2).isEmpty)
        #expect(kiosk.review != nil, "Sign is not there until the page was read")
        #expect(kiosk.confirm(now: 3).isEmpty, "a replay's end or a double tap confirms only the signing screen")
        #expect(kiosk.review != nil && kiosk.request != nil)
    }

    /// Without require_review, Sign shows with the first page drawn, never before: a customer
    /// signs nothing they were shown none of.
    @Test func withoutRequireReviewSignShowsWithTheFirstPage() {
        var (kiosk, _) = reviewing(pages: 3, everyPage: false)
        #expect(buttons(kiosk) == [.nextPage])
        #expect(kiosk.tap(centre(kiosk.reviewLayout.signButton), now: 2).isEmpty && kiosk.review != nil)
        #expect(kiosk.pageDrawn(0, height: 10_000, now: 3) == [.reviewChanged])
        #expect(buttons(kiosk) == [.nextPage, .sign])
        let signing = kiosk.tap(centre(kiosk.reviewLayout.signButton), now: 4)
        #expect(signing.contains(.requestProgress(id: "R", .reviewed)) && kiosk.review == nil)
    }

    @Test func declineWorksDuringTheReview() {
        var (kiosk, _) = reviewing(pages: 2, decline: true)
        #expect(buttons(kiosk) == [.nextPage, .decline])
        let declined = kiosk.tap(centre(kiosk.reviewLayout.declineButton!), now: 2)
        #expect(declined.contains(.requestEnded(id: "R", .declined)) && kiosk.request == nil)
    }

    @Test func aPageThatCannotBeDrawnFailsTheRequest() {
        var (kiosk, _) = reviewing(pages: 2)
        let failed = kiosk.reviewFailed("poppler crashed", now: 2)
        #expect(failed.contains(.requestEnded(id: "R", .failed("poppler crashed"))) && kiosk.request == nil && kiosk.showsIdlePage)
        #expect(kiosk.reviewFailed("again", now: 3).isEmpty, "once ended, nothing more")
    }

    @Test func theFieldIsOutlinedOnItsPageOnlyAndScrollsWithIt() {
        var (kiosk, _) = reviewing(pages: 2)
        let shown = kiosk.reviewLayout
        #expect(shown.fieldOutline(kiosk.review!, pageWidth: 1000, pageHeight: 1400) == nil, "the field is on page 2")
        _ = kiosk.pageDrawn(0, height: 100, now: 1)
        _ = kiosk.tap(centre(shown.nextButton), now: 2)
        _ = kiosk.pageDrawn(1, height: 1400, now: 1)
        let top = shown.fieldOutline(kiosk.review!, pageWidth: 1000, pageHeight: 1400)
        #expect(top == PixelRect(minX: shown.page.minX + 100, minY: shown.page.minY + 1120, maxX: shown.page.minX + 400, maxY: shown.page.minY + 1260))
        _ = drag(&kiosk, rows: 200, now: 3)
        #expect(shown.fieldOutline(kiosk.review!, pageWidth: 1000, pageHeight: 1400)?.minY == top!.minY - kiosk.review!.offset)
        #expect(kiosk.review!.offset == 200)
    }

    /// A field far off its page (a page of 10⁻¹⁴ points makes any field so) is not outlined, and
    /// never traps converting its place to pixels.
    @Test func aFieldOffItsPageIsNotOutlined() {
        var rules = KioskRules()
        rules.mode = .requested
        var kiosk = Kiosk(layout: layout, rules: rules)
        for left in [1e300, -1e300, .infinity, .nan, 2.5] {
            let review = DocumentReview(pageCount: 1, field: .init(page: 0, left: left, top: 0.5, width: 0.1, height: 0.1), everyPage: true)
            _ = kiosk.beginRequest(KioskRequest(id: "R", context: SignatureRequest(reference: "R"), timeout: 60, review: review), now: 1)
            _ = kiosk.pageDrawn(0, height: 2000, now: 1)
            #expect(kiosk.reviewLayout.fieldOutline(kiosk.review!, pageWidth: 1000, pageHeight: 2000) == nil, "\(left)")
            _ = kiosk.cancelRequest(now: 2)
        }
    }

    /// The request's timeout counts from the page appearing: a customer reading a page that fits
    /// the screen touches nothing meanwhile.
    @Test func aPageAppearingIsActivity() {
        var (kiosk, _) = reviewing(pages: 1)
        #expect(kiosk.tick(now: 50).isEmpty)
        _ = kiosk.pageDrawn(0, height: 100, now: 50)
        #expect(kiosk.tick(now: 100).isEmpty, "60 s from the page, not from the request")
        #expect(kiosk.tick(now: 111).contains(.requestEnded(id: "R", .timedOut)))
    }

    /// What a touch finds is what shows: each button shown at its place, none where none shows.
    @Test func aTouchFindsTheButtonsShownAndNoOther() {
        var (kiosk, _) = reviewing(pages: 3, decline: true)
        for step in 0..<3 {
            let layout = kiosk.reviewLayout, review = kiosk.review!
            let shown = layout.buttons(for: review)
            for place in layout.buttonPlaces {
                let expected = shown.first { $0.rect == place }?.button
                #expect(layout.button(at: centre(place), for: review) == expected, "page \(step): \(place)")
            }
            _ = kiosk.pageDrawn(step, height: 10, now: 1)
            _ = kiosk.tap(centre(layout.nextButton), now: 2)
        }
    }

    @Test func theReviewScreensItemsNameThePageAndItsButtons() {
        var (kiosk, _) = reviewing(pages: 2)
        let texts = KioskScreen.items(kiosk: kiosk, labels: KioskLabels(), style: KioskStyle()).compactMap { item -> String? in
            switch item.kind {
            case .text(let text, _, _), .button(let text, _): text
            default: nil
            }
        }
        #expect(texts == ["Please read the document   1 / 2", "Next"])
        _ = kiosk.pageDrawn(0, height: 10, now: 1)
        _ = kiosk.tap(centre(kiosk.reviewLayout.nextButton), now: 2)
        _ = kiosk.pageDrawn(1, height: 10, now: 1)
        let later = KioskScreen.items(kiosk: kiosk, labels: KioskLabels(), style: KioskStyle()).compactMap { item -> String? in
            if case .button(let text, _) = item.kind { return text } else { return nil }
        }
        #expect(later == ["Previous", "Sign"])
    }
}
