extension Unicode.Scalar {
    /// As Unicode writes it: U+000A, U+7F72, U+1F600. In the base module, as the font check and
    /// the checks of names read from files (the configuration, the spool) all say it this way.
    public var codePoint: String {
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
