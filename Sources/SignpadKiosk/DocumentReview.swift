/// A point of sale's document as the customer reads it before signing: the page shown, how far
/// it is scrolled, and which pages have been seen to their foot.
public struct DocumentReview: Equatable, Sendable {
    /// Where the signature will go, outlined on its page: fractions of the page's width and
    /// height from its top left, so that it holds at whatever width the page is drawn.
    public struct FieldMark: Equatable, Sendable {
        public var page: Int
        public var left, top, width, height: Double

        public init(page: Int, left: Double, top: Double, width: Double, height: Double) {
            self.page = page
            self.left = left
            self.top = top
            self.width = width
            self.height = height
        }

        /// Within a page's size of its page, and finite: a mark from anywhere else (a page of
        /// 10⁻¹⁴ points puts any field there) is outlined nowhere.
        public var liesOnItsPage: Bool {
            let near = -1.0...2.0
            return [left, top, left + width, top + height].allSatisfy(near.contains)
        }
    }

    public let pageCount: Int
    public let field: FieldMark?
    /// Sign is offered only once every page has been seen to its foot (`documents.require_review`).
    public let everyPage: Bool
    /// The page shown, from 0.
    public private(set) var page = 0
    /// How many of the page's rows are scrolled above the view.
    public private(set) var offset = 0
    /// The shown page's height in pixels once it is drawn; nil while it is being drawn.
    public private(set) var pageHeight: Int?
    private var seen: [Bool]
    public private(set) var seenCount = 0

    public init(pageCount: Int, field: FieldMark?, everyPage: Bool) {
        precondition(pageCount > 0, "a document to review has pages")
        self.pageCount = pageCount
        self.field = field
        self.everyPage = everyPage
        seen = Array(repeating: false, count: pageCount)
    }

    /// Every page seen to its foot; without `everyPage`, a page shown at all: Sign is never
    /// there before the customer has seen any of the document.
    public var mayProceed: Bool { everyPage ? seenCount == pageCount : anyShown }
    private var anyShown = false
    public func hasSeen(_ page: Int) -> Bool { seen[page] }

    /// The shown page arrived, `height` pixels high, in a view `viewport` high.
    mutating func drawn(page drawn: Int, height: Int, viewport: Int) -> Bool {
        guard drawn == page, pageHeight == nil else { return false }
        pageHeight = height
        anyShown = true
        offset = 0
        markSeen(viewport: viewport)
        return true
    }

    /// Scrolls by `rows` (positive: the page moves up); whether anything moved.
    mutating func scroll(by rows: Int, viewport: Int) -> Bool {
        guard let pageHeight else { return false }
        let moved = min(max(offset + rows, 0), max(pageHeight - viewport, 0))
        guard moved != offset else { return false }
        offset = moved
        markSeen(viewport: viewport)
        return true
    }

    /// Shows page `to` from its top, to be drawn.
    mutating func turn(to next: Int) -> Bool {
        guard (0..<pageCount).contains(next), next != page else { return false }
        page = next
        offset = 0
        pageHeight = nil
        return true
    }

    private mutating func markSeen(viewport: Int) {
        guard let pageHeight, !seen[page], offset + viewport >= pageHeight else { return }
        seen[page] = true
        seenCount += 1
    }
}
