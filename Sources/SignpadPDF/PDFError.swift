/// Why a document cannot be read or signed, with the byte where it went wrong when there is one.
public struct PDFError: Error, Equatable, Sendable, CustomStringConvertible {
    public let reason: String
    public let offset: Int?

    public init(_ reason: String, at offset: Int? = nil) {
        self.reason = reason
        self.offset = offset
    }

    public var description: String { offset.map { "\(reason) (at byte \($0))" } ?? reason }
}
