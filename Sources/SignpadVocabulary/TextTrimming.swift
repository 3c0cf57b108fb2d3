extension StringProtocol {
    /// The text without the white space and line breaks at either end (Unicode's White_Space).
    public var trimmed: String {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[first...last])
    }
}
