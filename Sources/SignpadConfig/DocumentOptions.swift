/// Where a point of sale leaves the PDFs it asks to have signed, and how large one may be
/// (`[documents]`). A Varlink message holds 64 KiB, so a document comes as a file.
public struct DocumentOptions: Equatable, Sendable {
    /// The folder the point of sale's group writes documents to (the package makes the default 2770).
    public var directory = "/var/lib/signpad/documents"
    public var maxBytes = 32 << 20
    /// The customer is offered Sign only once every page has been shown to its foot.
    public var requireReview = true
    /// The program that draws a document's pages (signpad-render); nil: beside signpad, else
    /// where the package puts it.
    public var renderer: String?

    public static let maxBytesRange = (1 << 10)...(128 << 20)

    public init() {}
}
