/// A configuration mistake: which file, which line, which key, and what was expected.
public struct ConfigError: Error, CustomStringConvertible, Equatable {
    public var file: String
    public var line: Int
    public var key: String?
    public var message: String

    public init(file: String, line: Int, key: String?, message: String) {
        self.file = file
        self.line = line
        self.key = key
        self.message = message
    }

    /// Line 0 is no line: a `--set` override, or a check of the file as a whole.
    public var description: String {
        (line > 0 ? "\(file):\(line): " : "\(file): ") + (key.map { "\($0): " } ?? "") + message
    }
}

/// A TOML value of the kinds signpad's configuration uses.
public indirect enum TOMLValue: Equatable, Sendable, CustomStringConvertible {
    case string(String)
    case integer(Int)
    case float(Double)
    case bool(Bool)
    case array([TOMLValue])

    public var typeName: String {
        switch self {
        case .string: return "a string"
        case .integer: return "an integer"
        case .float: return "a number"
        case .bool: return "true or false"
        case .array: return "an array"
        }
    }

    public var description: String {
        switch self {
        case .string(let s):
            // Escaped so that what is printed reads back as the same string, and a control
            // character never reaches a terminal raw.
            var escaped = ""
            for scalar in s.unicodeScalars {
                switch scalar {
                case "\\": escaped += "\\\\"
                case "\"": escaped += "\\\""
                case "\n": escaped += "\\n"
                case "\t": escaped += "\\t"
                case _ where scalar.value < 0x20 || scalar.value == 0x7f:
                    escaped += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16, uppercase: true)
                default: escaped.unicodeScalars.append(scalar)
                }
            }
            return "\"\(escaped)\""
        case .integer(let i): return String(i)
        case .float(let d): return d == d.rounded() && abs(d) < 1e15 ? String(format1: d) : String(d)
        case .bool(let b): return b ? "true" : "false"
        case .array(let a): return "[" + a.map(\.description).joined(separator: ", ") + "]"
        }
    }
}

extension String {
    init(format1 d: Double) { self = String(Int(d)) + ".0" }

    func replacingAll(_ target: String, _ replacement: String) -> String {
        split(separator: Character(target), omittingEmptySubsequences: false).joined(separator: replacement)
    }
}

/// Reads the TOML 1.0 a person editing signpad's configuration writes: [tables], `key = value`
/// and dotted keys, basic and literal strings, each on one line or many (\"\"\"…\"\"\" and
/// \'\'\'…\'\'\'), integers (with _ and 0x/0o/0b), floats, booleans, arrays over as many lines as
/// wanted with comments and a trailing comma, and # comments. Keys are "table.key". Hand-written,
/// not a library's, so every error names its file and line and every value where it stands in
/// the file, which `ConfigFileEdit` replaces in place. Not taken (signpad has no use for them):
/// inline tables, arrays of tables, quoted keys, dates and times.
public enum TOMLParser {
    public struct Entry: Equatable, Sendable {
        public var value: TOMLValue
        /// The line the key is on (1-based).
        public var line: Int
        /// The line the value ends on: later than `line` for a value over several lines.
        public var endLine: Int = 0
        /// Where the value's text is in the whole file, in Unicode scalars.
        public var valueRange: Range<Int> = 0..<0
        /// The [table] the key was written under; "" before the first header.
        public var table = ""
    }

    /// A file's keys, and the line of each [table] header.
    public struct Document: Sendable {
        public var entries: [String: Entry] = [:]
        public var tableLines: [String: Int] = [:]
    }

    public static func parse(_ text: String, file: String) throws(ConfigError) -> [String: Entry] {
        try document(text, file: file).entries
    }

    public static func document(_ text: String, file: String) throws(ConfigError) -> Document {
        var table = ""
        var document = Document()
        var scanner = Scanner(Array(text.unicodeScalars), file: file)
        while true {
            scanner.skipSpaces()
            if scanner.atEndOfLine {
                scanner.skipComment()
                guard scanner.takeNewline() else { break }
                continue
            }
            if scanner.peek == "[" {
                scanner.advance()
                guard scanner.peek != "[" else { throw scanner.error("arrays of tables ([[name]]) are not used in signpad's configuration") }
                scanner.skipSpaces()
                let name = scanner.bareKey()
                scanner.skipSpaces()
                guard !name.isEmpty, scanner.take("]") else { throw scanner.error("expected a table header like [display]") }
                scanner.skipSpaces()
                guard scanner.atEndOfLine else { throw scanner.error("expected nothing after the table header") }
                if let first = document.tableLines[name] {
                    throw scanner.error("the table [\(name)] is given twice (first on line \(first)); put its keys under one header")
                }
                table = name
                document.tableLines[name] = scanner.line
                continue
            }
            let keyLine = scanner.line
            let key = scanner.bareKey()
            guard !key.isEmpty else { throw scanner.error("expected a key (letters, digits, _ or -) followed by =") }
            scanner.skipSpaces()
            guard scanner.take("=") else { throw scanner.error("expected = after \(key)", key: key) }
            scanner.skipSpaces()
            let fullKey = table.isEmpty ? key : "\(table).\(key)"
            let valueStart = scanner.index
            let value = try scanner.value(key: fullKey)
            let valueEnd = scanner.index
            scanner.skipSpaces()
            guard scanner.atEndOfLine else { throw scanner.error("expected the end of the line after the value", key: fullKey) }
            if let previous = document.entries[fullKey] {
                throw ConfigError(file: file, line: keyLine, key: fullKey, message: "defined twice (first on line \(previous.line))")
            }
            document.entries[fullKey] = Entry(value: value, line: keyLine, endLine: scanner.line, valueRange: valueStart..<valueEnd, table: table)
        }
        return document
    }

    struct Scanner {
        let chars: [Unicode.Scalar]
        let file: String
        var index = 0
        /// The line `index` is on (1-based), for errors.
        private(set) var line = 1

        init(_ chars: [Unicode.Scalar], file: String) {
            self.chars = chars
            self.file = file
        }

        var peek: Unicode.Scalar? { index < chars.count ? chars[index] : nil }
        func peek(_ offset: Int) -> Unicode.Scalar? { index + offset < chars.count ? chars[index + offset] : nil }
        /// At a comment, a line's end (LF or CRLF) or the file's.
        var atEndOfLine: Bool { peek == nil || peek == "#" || peek == "\n" || (peek == "\r" && peek(1) == "\n") || (peek == "\r" && peek(1) == nil) }
        mutating func advance() {
            if peek == "\n" { line += 1 }
            index += 1
        }
        mutating func take(_ c: Unicode.Scalar) -> Bool {
            if peek == c { advance(); return true }
            return false
        }
        mutating func takeNewline() -> Bool {
            if peek == "\r" { advance() }
            return take("\n")
        }
        mutating func skipSpaces() { while peek == " " || peek == "\t" { advance() } }
        mutating func skipComment() {
            guard peek == "#" else { return }
            while let c = peek, c != "\n" { advance() }
        }
        /// Spaces, line ends and comments: what may stand between an array's values.
        mutating func skipBlank() {
            while true {
                skipSpaces()
                skipComment()
                guard takeNewline() else { return }
            }
        }

        func error(_ message: String, key: String? = nil) -> ConfigError {
            ConfigError(file: file, line: line, key: key, message: message)
        }

        mutating func bareKey() -> String {
            var s = ""
            while let c = peek, c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "_" || c == "-" || c == "." {
                s.unicodeScalars.append(c)
                advance()
            }
            return s
        }

        /// Arrays in arrays, at most: no key takes more than two levels, and each level is a
        /// call deeper on the stack (50,000 of them ended the process).
        static let maxArrayDepth = 8

        mutating func value(key: String, depth: Int = 1) throws(ConfigError) -> TOMLValue {
            guard let c = peek, !atEndOfLine else { throw error("expected a value", key: key) }
            if c == "\"" || c == "'" { return .string(try string(key: key)) }
            if c == "[" {
                guard depth <= Self.maxArrayDepth else { throw error("expected arrays nested at most \(Self.maxArrayDepth) deep", key: key) }
                let opened = line
                advance()
                var items: [TOMLValue] = []
                skipBlank()
                while !take("]") {
                    guard peek != nil else { throw error("expected ] to close the array begun on line \(opened)", key: key) }
                    items.append(try value(key: key, depth: depth + 1))
                    skipBlank()
                    if take(",") { skipBlank(); continue }
                    guard take("]") else { throw error("expected , or ] in the array begun on line \(opened)", key: key) }
                    break
                }
                return .array(items)
            }
            var word = ""
            while let c = peek, c != " " && c != "\t" && c != "," && c != "]" && c != "#" && c != "\r" && c != "\n" {
                word.unicodeScalars.append(c)
                advance()
            }
            if word == "true" { return .bool(true) }
            if word == "false" { return .bool(false) }
            if let number = Self.number(word) { return number }
            throw error("expected a value (a \"string\", a number, true/false or [array]), got \(word)", key: key)
        }

        /// A TOML integer or float; nil for anything else (inf and nan are no setting's value).
        static func number(_ word: String) -> TOMLValue? {
            let digits = word.replacingAll("_", "")
            for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] where digits.hasPrefix(prefix) {
                return Int(digits.dropFirst(2), radix: radix).map { .integer($0) }
            }
            if let i = Int(digits) { return .integer(i) }
            if let d = Double(digits), d.isFinite, digits.allSatisfy({ "+-.0123456789eE".contains($0) }) { return .float(d) }
            return nil
        }

        /// A basic or literal string, on one line or (tripled quotes) many.
        mutating func string(key: String) throws(ConfigError) -> String {
            let quote = peek!, literal = quote == "'", opened = line
            let multiLine = peek(1) == quote && peek(2) == quote
            if multiLine {
                advance(); advance(); advance()
                // A newline straight after the opening quotes is not part of the string.
                _ = takeNewline()
            } else {
                advance()
            }
            var s = ""
            while let c = peek {
                if c == quote {
                    if !multiLine {
                        advance()
                        return s
                    }
                    if peek(1) == quote && peek(2) == quote {
                        advance(); advance(); advance()
                        // Up to two quotes more belong to the string ("""a""""" is a"").
                        for _ in 0..<2 where peek == quote {
                            s.unicodeScalars.append(quote)
                            advance()
                        }
                        return s
                    }
                }
                if c == "\n" || (c == "\r" && peek(1) == "\n") {
                    guard multiLine else { break }
                    if c == "\r" { advance() }
                    advance()
                    s += "\n"
                    continue
                }
                advance()
                if c == "\\" && !literal {
                    try escape(into: &s, multiLine: multiLine, key: key)
                } else if c.value < 0x20 && c != "\t" || c.value == 0x7f {
                    throw error("a control character (U+\(String(c.value, radix: 16, uppercase: true))) in a string; write it as an escape such as \\t", key: key)
                } else {
                    s.unicodeScalars.append(c)
                }
            }
            let closing = multiLine ? String(repeating: String(quote), count: 3) : String(quote)
            throw ConfigError(file: file, line: opened, key: key, message: "expected a closing \(closing) for the string")
        }

        /// After a backslash in a basic string.
        private mutating func escape(into s: inout String, multiLine: Bool, key: String) throws(ConfigError) {
            guard let e = peek else { throw error("expected an escape after \\", key: key) }
            // A backslash ending a line of a multi-line string joins it to the next text.
            if multiLine && (e == " " || e == "\t" || e == "\n" || e == "\r") {
                skipSpaces()
                guard takeNewline() else { throw error("expected the end of the line after a line-ending \\", key: key) }
                while peek == " " || peek == "\t" || peek == "\n" || peek == "\r" { advance() }
                return
            }
            advance()
            switch e {
            case "n": s += "\n"
            case "t": s += "\t"
            case "r": s += "\r"
            case "b": s += "\u{8}"
            case "f": s += "\u{c}"
            case "\\": s += "\\"
            case "\"": s += "\""
            case "u", "U":
                let count = e == "u" ? 4 : 8
                let hex = String(String.UnicodeScalarView(chars[index..<min(index + count, chars.count)]))
                guard hex.unicodeScalars.count == count, let v = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(v) else {
                    throw error("expected \(count) hex digits of a Unicode scalar after \\\(e)", key: key)
                }
                s.unicodeScalars.append(scalar)
                for _ in 0..<count { advance() }
            default: throw error("unknown escape \\\(e) in a string", key: key)
            }
        }
    }
}
