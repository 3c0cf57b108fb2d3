/// References a point of sale might send, and a hostile one would.
public enum ReferenceSamples {
    /// Combining runs, ZWJ sequences, right-to-left text, 4-byte characters, `.` and `-` starts,
    /// control characters and plain ASCII, in runs of any length.
    public static func random(_ random: inout SeededRandom) -> String {
        let pieces: [[Unicode.Scalar]] = [
            ["a", "Z", "7", "é", "ß"], ["\u{301}", "\u{308}", "\u{20DD}"], ["👨", "\u{200D}", "👩", "👧"], ["א", "ب", "\u{202E}"],
            ["𝔄", "😀", "𠀋"], [".", "-", "_", " ", "/"], ["\u{0}", "\u{1F}", "\u{85}"], ["ก", "\u{E31}", "\u{E49}"],
        ]
        var scalars = String.UnicodeScalarView()
        let runs = Int.random(in: 1...12, using: &random)
        for _ in 0..<runs {
            let kind = pieces[Int.random(in: 0..<pieces.count, using: &random)]
            for _ in 0..<Int.random(in: 1...(Bool.random(using: &random) ? 4 : 120), using: &random) {
                scalars.append(kind[Int.random(in: 0..<kind.count, using: &random)])
            }
        }
        return String(scalars)
    }
}
