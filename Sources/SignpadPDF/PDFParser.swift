/// Reads PDF objects from a file's bytes, one token at a time, as ISO 32000-1 §7.2–7.3 define
/// them. Nesting is limited, so a hostile file cannot exhaust the stack.
struct PDFParser {
    let bytes: [UInt8]
    var position: Int

    static let maxDepth = 64

    /// A position outside the bytes reads as their end: nothing there.
    init(_ bytes: [UInt8], at position: Int) {
        self.bytes = bytes
        self.position = position >= 0 ? position : bytes.count
    }

    static func isWhitespace(_ b: UInt8) -> Bool { b == 0 || b == 9 || b == 10 || b == 12 || b == 13 || b == 32 }
    static func isDelimiter(_ b: UInt8) -> Bool {
        b == UInt8(ascii: "(") || b == UInt8(ascii: ")") || b == UInt8(ascii: "<") || b == UInt8(ascii: ">") || b == UInt8(ascii: "[")
            || b == UInt8(ascii: "]") || b == UInt8(ascii: "{") || b == UInt8(ascii: "}") || b == UInt8(ascii: "/") || b == UInt8(ascii: "%")
    }
    static func isRegular(_ b: UInt8) -> Bool { !isWhitespace(b) && !isDelimiter(b) }

    var atEnd: Bool { position >= bytes.count }

    /// Skips white space and comments.
    mutating func skipSpace() {
        while position < bytes.count {
            let b = bytes[position]
            if Self.isWhitespace(b) { position += 1 } else if b == UInt8(ascii: "%") {
                while position < bytes.count, bytes[position] != 10, bytes[position] != 13 { position += 1 }
            } else { return }
        }
    }

    /// The regular characters from here: a keyword or a number's text.
    mutating func word() -> [UInt8] {
        let start = position
        while position < bytes.count, Self.isRegular(bytes[position]) { position += 1 }
        return Array(bytes[start..<position])
    }

    /// Whether the next token is `keyword`; taken if so.
    mutating func take(_ keyword: String) -> Bool {
        skipSpace()
        let saved = position
        if word() == Array(keyword.utf8) { return true }
        position = saved
        return false
    }

    mutating func expect(_ keyword: String) throws(PDFError) {
        guard take(keyword) else { throw PDFError("expected \"\(keyword)\"", at: position) }
    }

    /// A non-negative integer token, or nil with nothing taken.
    mutating func unsignedInteger() -> Int? {
        skipSpace()
        let saved = position
        let text = word()
        guard !text.isEmpty, text.count <= 18, text.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { position = saved; return nil }
        return text.reduce(0) { $0 * 10 + Int($1 - 48) }
    }

    /// One object; `N G R` is a reference. A stream's bytes are not read here: a dictionary is
    /// returned and the caller, who can resolve its /Length, reads them.
    mutating func object(depth: Int = 0) throws(PDFError) -> PDFObject {
        guard depth < Self.maxDepth else { throw PDFError("objects nested more than \(Self.maxDepth) deep", at: position) }
        skipSpace()
        guard position < bytes.count else { throw PDFError("the file ends inside an object", at: position) }
        let start = position
        switch bytes[position] {
        case UInt8(ascii: "/"):
            return .name(name())
        case UInt8(ascii: "("):
            return .string(try literalString())
        case UInt8(ascii: "<"):
            if position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "<") {
                return .dictionary(try dictionary(depth: depth))
            }
            return .string(try hexString())
        case UInt8(ascii: "["):
            position += 1
            var items: [PDFObject] = []
            while true {
                skipSpace()
                guard position < bytes.count else { throw PDFError("an array is not closed", at: start) }
                if bytes[position] == UInt8(ascii: "]") { position += 1; return .array(items) }
                items.append(try object(depth: depth + 1))
            }
        default:
            let text = word()
            switch text {
            case Array("true".utf8): return .boolean(true)
            case Array("false".utf8): return .boolean(false)
            case Array("null".utf8): return .null
            case []: throw PDFError("unexpected \"\(Character(UnicodeScalar(bytes[position])))\"", at: position)
            default: break
            }
            guard let number = Self.number(text) else { throw PDFError("unexpected \"\(String(decoding: text.prefix(20), as: UTF8.self))\"", at: start) }
            if case .integer(let n) = number, n >= 0 {
                let saved = position
                if let generation = unsignedInteger(), generation <= PDFReference.maxGeneration, take("R") { return .reference(PDFReference(n, generation)) }
                position = saved
            }
            return number
        }
    }

    static func number(_ text: [UInt8]) -> PDFObject? {
        var digits = text[...]
        var negative = false
        if let sign = digits.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty, digits.count <= 40 else { return nil }
        let dots = digits.filter { $0 == UInt8(ascii: ".") }.count
        guard dots <= 1, digits.allSatisfy({ ($0 >= 48 && $0 <= 57) || $0 == UInt8(ascii: ".") }), digits.count > dots else { return nil }
        if dots == 0, digits.count <= 18 {
            let v = digits.reduce(0) { $0 * 10 + Int($1 - 48) }
            return .integer(negative ? -v : v)
        }
        guard let v = Double(String(decoding: digits, as: UTF8.self)) else { return nil }
        return .real(negative ? -v : v)
    }

    mutating func name() -> PDFName {
        position += 1
        var out: [UInt8] = []
        while position < bytes.count, Self.isRegular(bytes[position]) {
            let b = bytes[position]
            if b == UInt8(ascii: "#"), position + 2 < bytes.count, let h = Self.hexValue(bytes[position + 1]), let l = Self.hexValue(bytes[position + 2]) {
                out.append(h << 4 | l)
                position += 3
            } else {
                out.append(b)
                position += 1
            }
        }
        return PDFName(bytes: out)
    }

    static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case 48...57: b - 48
        case 65...70: b - 55
        case 97...102: b - 87
        default: nil
        }
    }

    mutating func literalString() throws(PDFError) -> [UInt8] {
        let start = position
        position += 1
        var out: [UInt8] = []
        var open = 1
        while position < bytes.count {
            let b = bytes[position]
            position += 1
            switch b {
            case UInt8(ascii: "("): open += 1; out.append(b)
            case UInt8(ascii: ")"):
                open -= 1
                if open == 0 { return out }
                out.append(b)
            case UInt8(ascii: "\\"):
                guard position < bytes.count else { break }
                let e = bytes[position]
                position += 1
                switch e {
                case UInt8(ascii: "n"): out.append(10)
                case UInt8(ascii: "r"): out.append(13)
                case UInt8(ascii: "t"): out.append(9)
                case UInt8(ascii: "b"): out.append(8)
                case UInt8(ascii: "f"): out.append(12)
                case 13: if position < bytes.count, bytes[position] == 10 { position += 1 }
                case 10: break
                case 48...55:
                    var v = Int(e - 48)
                    for _ in 0..<2 where position < bytes.count && (48...55).contains(bytes[position]) {
                        v = v * 8 + Int(bytes[position] - 48)
                        position += 1
                    }
                    out.append(UInt8(truncatingIfNeeded: v))
                default: out.append(e)
                }
            default: out.append(b)
            }
        }
        throw PDFError("a string is not closed", at: start)
    }

    mutating func hexString() throws(PDFError) -> [UInt8] {
        let start = position
        position += 1
        var out: [UInt8] = []
        var high: UInt8?
        while position < bytes.count {
            let b = bytes[position]
            position += 1
            if b == UInt8(ascii: ">") {
                if let h = high { out.append(h << 4) }
                return out
            }
            if Self.isWhitespace(b) { continue }
            guard let v = Self.hexValue(b) else { throw PDFError("a hex string holds \"\(Character(UnicodeScalar(b)))\"", at: position - 1) }
            if let h = high { out.append(h << 4 | v); high = nil } else { high = v }
        }
        throw PDFError("a hex string is not closed", at: start)
    }

    mutating func dictionary(depth: Int) throws(PDFError) -> PDFDictionary {
        let start = position
        position += 2
        var entries: [(key: PDFName, value: PDFObject)] = []
        while true {
            skipSpace()
            guard position + 1 < bytes.count else { throw PDFError("a dictionary is not closed", at: start) }
            if bytes[position] == UInt8(ascii: ">"), bytes[position + 1] == UInt8(ascii: ">") {
                position += 2
                return PDFDictionary(entries)
            }
            guard bytes[position] == UInt8(ascii: "/") else { throw PDFError("a dictionary's key is not a name", at: position) }
            let key = name()
            entries.append((key, try object(depth: depth + 1)))
        }
    }
}
