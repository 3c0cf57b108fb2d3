import SignpadVocabulary

/// Where everything is on the screen a document is reviewed on: the prompt with the page number,
/// the page, and beneath it Previous, Next, Decline (when offered) and Sign.
public struct ReviewLayout: Equatable, Sendable {
    public let prompt: PixelRect
    /// Where the page shows, drawn to this width.
    public let page: PixelRect
    public let previousButton: PixelRect
    public let nextButton: PixelRect
    public let declineButton: PixelRect?
    public let signButton: PixelRect

    public init(width: Int, height: Int, decline: Bool) {
        let base = KioskLayout(width: width, height: height, decline: decline, undo: true)
        prompt = base.prompt
        previousButton = base.clearButton
        nextButton = base.undoButton ?? base.clearButton
        declineButton = base.declineButton
        signButton = base.doneButton
        // Down to the buttons' margin: the review has no message row.
        page = PixelRect(minX: base.box.minX, minY: base.prompt.maxY, maxX: base.box.maxX, maxY: base.message.maxY)
    }

    /// The buttons `review` shows now: Previous past the first page, Next before the last, and
    /// Sign once it may be pressed.
    public func buttons(for review: DocumentReview) -> [(button: KioskLayout.Button, rect: PixelRect)] {
        var shown: [(KioskLayout.Button, PixelRect)] = []
        if review.page > 0 { shown.append((.previousPage, previousButton)) }
        if review.page < review.pageCount - 1 { shown.append((.nextPage, nextButton)) }
        if let declineButton { shown.append((.decline, declineButton)) }
        if review.mayProceed { shown.append((.sign, signButton)) }
        return shown
    }

    /// Every place a button may show, for a repaint that takes one away.
    public var buttonPlaces: [PixelRect] { [previousButton, nextButton, signButton] + (declineButton.map { [$0] } ?? []) }

    /// The button shown at `p`: asked by every move of a finger holding one, so no list is made.
    public func button(at p: Point, for review: DocumentReview) -> KioskLayout.Button? {
        let x = Int(p.x), y = Int(p.y)
        if review.page > 0, previousButton.contains(x: x, y: y) { return .previousPage }
        if review.page < review.pageCount - 1, nextButton.contains(x: x, y: y) { return .nextPage }
        if let declineButton, declineButton.contains(x: x, y: y) { return .decline }
        if review.mayProceed, signButton.contains(x: x, y: y) { return .sign }
        return nil
    }

    /// Where the field is outlined on the page drawn `width` by `height`, in screen pixels with
    /// the page scrolled by `offset`; nil off this page.
    public func fieldOutline(_ review: DocumentReview, pageWidth: Int, pageHeight: Int) -> PixelRect? {
        guard let field = review.field, field.page == review.page, field.liesOnItsPage else { return nil }
        let w = Double(pageWidth), h = Double(pageHeight)
        return PixelRect(minX: page.minX + Int((field.left * w).rounded()), minY: page.minY - review.offset + Int((field.top * h).rounded()),
                         maxX: page.minX + Int(((field.left + field.width) * w).rounded()),
                         maxY: page.minY - review.offset + Int(((field.top + field.height) * h).rounded()))
    }
}
