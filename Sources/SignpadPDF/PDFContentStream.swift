/// A content stream's operators (ISO 32000-1 §8, §9), written as text with numbers of at most
/// four decimals.
public struct PDFContentStream {
    public private(set) var bytes: [UInt8] = []

    public init() {}

    private mutating func emit(_ numbers: [Double], _ op: String) {
        for n in numbers {
            bytes += Array(PDFWriter.real(n).utf8)
            bytes.append(32)
        }
        bytes += Array(op.utf8)
        bytes.append(10)
    }

    public mutating func save() { emit([], "q") }
    public mutating func restore() { emit([], "Q") }
    /// Concatenates `[a b c d e f]` to the current transformation.
    public mutating func transform(_ a: Double, _ b: Double, _ c: Double, _ d: Double, _ e: Double, _ f: Double) { emit([a, b, c, d, e, f], "cm") }
    public mutating func strokeColor(red: Double, green: Double, blue: Double) { emit([red, green, blue], "RG") }
    public mutating func fillColor(red: Double, green: Double, blue: Double) { emit([red, green, blue], "rg") }
    public mutating func lineWidth(_ w: Double) { emit([w], "w") }
    /// Round caps and joins: a degenerate subpath then paints a dot (§8.5.3.2).
    public mutating func roundEnds() { emit([1], "J"); emit([1], "j") }
    public mutating func move(_ x: Double, _ y: Double) { emit([x, y], "m") }
    public mutating func line(_ x: Double, _ y: Double) { emit([x, y], "l") }
    public mutating func curve(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ x3: Double, _ y3: Double) { emit([x1, y1, x2, y2, x3, y3], "c") }
    public mutating func rectangle(_ x: Double, _ y: Double, _ w: Double, _ h: Double) { emit([x, y, w, h], "re") }
    public mutating func stroke() { emit([], "S") }
    /// Intersects the clip with the current path, which is then dropped.
    public mutating func clip() { emit([], "W"); emit([], "n") }

    /// One line of text in a standard font's WinAnsi encoding; characters it lacks become "?".
    public mutating func text(_ string: String, font: String, size: Double, x: Double, y: Double) {
        bytes += Array("BT\n/\(font) ".utf8)
        emit([size], "Tf")
        emit([x, y], "Td")
        var encoded: [UInt8] = []
        for scalar in string.unicodeScalars { encoded.append(Self.winAnsi(scalar) ?? UInt8(ascii: "?")) }
        PDFWriter.write(.string(encoded), to: &bytes)
        bytes += Array(" Tj\nET\n".utf8)
    }

    /// Latin-1's printable characters, as WinAnsiEncoding has them (its 0x80–0x9F differ and
    /// are left out).
    static func winAnsi(_ scalar: UnicodeScalar) -> UInt8? {
        let v = scalar.value
        if (0x20..<0x7F).contains(v) || (0xA0...0xFF).contains(v) { return UInt8(v) }
        return nil
    }

    /// Helvetica's advance widths in thousandths of the size, for the characters WinAnsi maps
    /// to Latin-1; an average for the rest. Enough to fit a line in a box.
    public static func helveticaWidth(_ string: String, size: Double) -> Double {
        var total = 0.0
        for scalar in string.unicodeScalars {
            let v = scalar.value
            let width: Double
            switch v {
            case 0x20: width = 278
            case 0x2C, 0x2E, 0x3A, 0x3B, 0x69, 0x6A, 0x6C, 0x49: width = 250
            case 0x66, 0x74, 0x72: width = 333
            case 0x6D, 0x57, 0x77: width = 833
            case 0x41...0x5A: width = 667
            default: width = 556
            }
            total += width
        }
        return total * size / 1000
    }
}
