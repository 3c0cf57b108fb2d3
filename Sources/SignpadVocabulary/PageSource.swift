/// Draws the pages of a point of sale's document for the customer to read, away from the
/// caller's thread: a document may take long to draw, or never finish, and ink must not wait.
public protocol PageSource: AnyObject, Sendable {
    /// Asks for page `page` (from 0) of `document`, `width` pixels wide, for request `id`, in
    /// place of any page asked for before and not yet begun: only the newest is wanted. The
    /// answer comes from `drawn()`, after whatever `wake` the source was made with was called.
    func draw(_ document: [UInt8], page: Int, width: Int, for id: String)
    /// The pages drawn, or refused, since the last call, in the order they were asked for.
    func drawn() -> [DrawnPage]
}

/// One page a `PageSource` drew, or why it could not.
public struct DrawnPage: Sendable {
    public enum Outcome: Sendable {
        /// `scale`: pixels per PDF point; `sha256`: of the pixels as little-endian XRGB rows;
        /// `pageCount`: the document's pages as the renderer counts them.
        case drawn(Canvas, scale: Double, sha256: String, renderer: String, pageCount: Int)
        case failed(String)
    }

    /// The request the page was drawn for.
    public var id: String
    public var page: Int
    public var outcome: Outcome

    public init(id: String, page: Int, outcome: Outcome) {
        self.id = id
        self.page = page
        self.outcome = outcome
    }
}
