import SignpadVocabulary

/// Whether the pad takes a signature from anyone who walks up, or only when a point of sale asks.
public enum KioskMode: String, Equatable, Sendable, CaseIterable {
    /// Anyone may sign at any time; a request takes the pad over with its text.
    case walkUp = "walk-up"
    /// Between requests an idle page shows and touches draw nothing.
    case requested
}

/// A point of sale's request as the customer sees it.
public struct KioskRequest: Equatable, Sendable {
    public var id: String
    /// Shown in the prompt's place; nil: the prompt.
    public var title: String?
    /// Shown under the title (an amount, consent wording), each in the rows it wraps to.
    public var lines: [String]
    /// How many rows each line takes, wrapped at the screen's width (see `KioskLayout.lineTextSize`).
    public var lineRows: [Int]
    /// Seconds without a touch after which the request ends `timedOut` (0: never).
    public var timeout: Double

    /// `lineRows`: nil, one row each.
    public init(id: String, title: String?, lines: [String], lineRows: [Int]? = nil, timeout: Double) {
        self.id = id
        self.title = title
        self.lines = lines
        self.lineRows = lineRows ?? lines.map { _ in 1 }
        self.timeout = timeout
    }
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
}

/// What a customer did during a request, for a point of sale that follows it.
public enum KioskRequestProgress: Equatable, Sendable {
    /// The first stroke, after the request showed or after a clear.
    case ink
    /// The customer cleared the box.
    case cleared
}
