import SignpadVocabulary

/// Whether the pad takes a signature from anyone who walks up, or only when a point of sale asks.
public enum KioskMode: String, Equatable, Sendable, CaseIterable {
    /// Anyone may sign at any time; a request takes the pad over with its text.
    case walkUp = "walk-up"
    /// Between requests an idle page shows and touches draw nothing.
    case requested
}

/// A point of sale's request as the customer sees it.
/// The one place a request's state is kept: what it shows, what its record keeps, its clock;
/// the effects that tell of it carry its id, so nobody else keeps it.
public struct KioskRequest: Equatable, Sendable {
    /// The id its signature's files are named by.
    public var id: String
    /// What the point of sale asked to be signed, as the record keeps it.
    public var context: SignatureRequest
    /// How many rows each line takes, wrapped at the screen's width (see `KioskLayout.lineTextSize`).
    public var lineRows: [Int]
    /// Seconds without a touch after which the request ends `timedOut` (0: never).
    public var timeout: Double
    /// The document the customer reads before the signing screen shows; nil once they go on to sign.
    public var review: DocumentReview?

    /// `lineRows`: nil, one row each.
    public init(id: String, context: SignatureRequest, lineRows: [Int]? = nil, timeout: Double, review: DocumentReview? = nil) {
        self.id = id
        self.review = review
        self.context = context
        self.lineRows = lineRows ?? context.lines.map { _ in 1 }
        self.timeout = timeout
    }

    /// Shown in the prompt's place; nil: the prompt.
    public var title: String? { context.title }
    /// Shown under the title (an amount, consent wording), each in the rows it wraps to.
    public var lines: [String] { context.lines }
}

/// What a request came to on the pad.
public enum KioskRequestEnd: Equatable, Sendable {
    /// Done with enough ink: the signature goes out as export `exportID`.
    case signed(exportID: Int)
    /// The customer pressed the decline button.
    case declined
    /// Nobody touched the pad for the request's timeout.
    case timedOut
    /// The point of sale cancelled it.
    case cancelled
    /// Its document could not be shown; the reason says why.
    case failed(String)
}

/// What a customer did during a request, for a point of sale that follows it.
public enum KioskRequestProgress: Equatable, Sendable {
    /// The first stroke, after the request showed or after a clear.
    case ink
    /// The customer cleared the box.
    case cleared
    /// The customer read the request's document and tapped Sign.
    case reviewed
}
