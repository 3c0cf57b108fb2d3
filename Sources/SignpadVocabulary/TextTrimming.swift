extension StringProtocol {
    /// The text without the white space and line breaks at either end: Unicode's White_Space and
    /// the zero-width space, scalar by scalar as Foundation trims (a mark after a space stays).
    public var trimmed: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !Self.trims($0) }), let last = scalars.lastIndex(where: { !Self.trims($0) }) else { return "" }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }

    private static func trims(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.isWhitespace || scalar == "\u{200B}" }
}
