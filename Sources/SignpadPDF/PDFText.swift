/// PDF text strings (ISO 32000-1 §7.9.2): UTF-16BE after a byte order mark, else PDFDocEncoding,
/// which agrees with Latin-1 on the characters a field name or a reason uses.
enum PDFText {
    static func decode(_ bytes: [UInt8]) -> String {
        if bytes.starts(with: [0xFE, 0xFF]) {
            var units: [UInt16] = []
            var i = 2
            while i + 1 < bytes.count { units.append(UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1])); i += 2 }
            return String(decoding: units, as: UTF16.self)
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return String(decoding: bytes.dropFirst(3), as: UTF8.self) }
        return String(String.UnicodeScalarView(bytes.map { UnicodeScalar($0) }))
    }

    /// ASCII as itself; anything else as UTF-16BE with its mark, which every PDF reader reads.
    static func encode(_ text: String) -> [UInt8] {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return Array(text.utf8) }
        return [0xFE, 0xFF] + text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }
}
