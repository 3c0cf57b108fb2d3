/// What a point of sale asked the customer to sign, as the record keeps it: the exact text
/// shown, and what it said of the signer, the reason and the document.
public struct SignatureRequest: Codable, Equatable, Sendable {
    public var reference: String
    public var title: String?
    public var lines: [String]
    public var signer: String?
    public var reason: String?
    /// The SHA-256 of the document signed, 64 lowercase hex digits.
    public var documentSha256: String?

    public init(reference: String, title: String? = nil, lines: [String] = [], signer: String? = nil, reason: String? = nil, documentSha256: String? = nil) {
        self.reference = reference
        self.title = title
        self.lines = lines
        self.signer = signer
        self.reason = reason
        self.documentSha256 = documentSha256
    }
}
