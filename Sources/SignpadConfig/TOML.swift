/// A configuration mistake: which file, which line, which key, and what was expected.
public struct ConfigError: Error, CustomStringConvertible, Equatable {
    public var file: String
    public var line: Int
    public var key: String?
    public var message: String

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
            let escaped = s.replacingAll("\\", "\\\\").replacingAll("\"", "\\\"").replacingAll("\n", "\\n")
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

/// Reads the subset of TOML signpad's configuration uses: [tables], `key = value` with strings,
/// integers, floats, booleans and one-line arrays, and # comments. Keys are "table.key".
public enum TOMLParser {
    public struct Entry: Equatable, Sendable {
        public var value: TOMLValue
        public var line: Int
        /// Where the value is written on its line, in Unicode scalars: what `ConfigFileEdit` replaces.
        public var valueColumns: Range<Int> = 0..<0
        /// The [table] the key was written under; "" before the first header.
        public var table = ""
    }

    /// A file's keys, and the line of each [table] header (the last one, should a header repeat).
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
        var lineNumber = 0
        // Split as scalars: as Characters, "\r\n" is one grapheme that "\n" never matches.
        for raw in text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            var scanner = Scanner(Array(raw), file: file, line: lineNumber)
            scanner.skipSpaces()
            if scanner.atEndOrComment { continue }
            if scanner.peek == "[" {
                scanner.advance()
                let name = scanner.bareKey()
                guard !name.isEmpty, scanner.take("]") else { throw scanner.error("expected a table header like [display]") }
                scanner.skipSpaces()
                guard scanner.atEndOrComment else { throw scanner.error("expected nothing after the table header") }
                table = name
                document.tableLines[name] = lineNumber
                continue
            }
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
            guard scanner.atEndOrComment else { throw scanner.error("expected the end of the line after the value", key: fullKey) }
            if let previous = document.entries[fullKey] {
                throw ConfigError(file: file, line: lineNumber, key: fullKey, message: "defined twice (first on line \(previous.line))")
            }
            document.entries[fullKey] = Entry(value: value, line: lineNumber, valueColumns: valueStart..<valueEnd, table: table)
        }
        return document
    }

    struct Scanner {
        let chars: [Unicode.Scalar]
        let file: String
        let line: Int
        var index = 0

        init(_ chars: [Unicode.Scalar], file: String, line: Int) {
            self.chars = chars
            self.file = file
            self.line = line
        }

        var peek: Unicode.Scalar? { index < chars.count ? chars[index] : nil }
        var atEndOrComment: Bool { peek == nil || peek == "#" || peek == "\r" }
        mutating func advance() { index += 1 }
        mutating func take(_ c: Unicode.Scalar) -> Bool {
            if peek == c { index += 1; return true }
            return false
        }
        mutating func skipSpaces() { while peek == " " || peek == "\t" { index += 1 } }

        func error(_ message: String, key: String? = nil) -> ConfigError {
            ConfigError(file: file, line: line, key: key, message: message)
        }

        mutating func bareKey() -> String {
            var s = ""
            while let c = peek, c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "_" || c == "-" || c == "." {
                s.unicodeScalars.append(c)
                index += 1
            }
            return s
        }

        mutating func value(key: String) throws(ConfigError) -> TOMLValue {
            guard let c = peek else { throw error("expected a value", key: key) }
            if c == "\"" { return .string(try string(key: key)) }
            if c == "[" {
                advance()
                var items: [TOMLValue] = []
                skipSpaces()
                while !take("]") {
                    items.append(try value(key: key))
                    skipSpaces()
                    if take(",") { skipSpaces(); continue }
                    guard take("]") else { throw error("expected , or ] in the array (arrays are on one line)", key: key) }
                    break
                }
                return .array(items)
            }
            var word = ""
            while let c = peek, c != " " && c != "\t" && c != "," && c != "]" && c != "#" && c != "\r" {
                word.unicodeScalars.append(c)
                index += 1
            }
            if word == "true" { return .bool(true) }
            if word == "false" { return .bool(false) }
            let digits = word.replacingAll("_", "")
            if let i = Int(digits) { return .integer(i) }
            if let d = Double(digits), d.isFinite { return .float(d) }
            throw error("expected a value (a \"string\", a number, true/false or [array]), got \(word)", key: key)
        }

        mutating func string(key: String) throws(ConfigError) -> String {
            advance()
            var s = ""
            while let c = peek {
                advance()
                if c == "\"" { return s }
                if c == "\\" {
                    guard let e = peek else { break }
                    advance()
                    switch e {
                    case "n": s += "\n"
                    case "t": s += "\t"
                    case "\\": s += "\\"
                    case "\"": s += "\""
                    case "u":
                        let hex = String(String.UnicodeScalarView(chars[index..<min(index + 4, chars.count)]))
                        guard hex.count == 4, let v = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(v) else {
                            throw error("expected four hex digits after \\u", key: key)
                        }
                        s.unicodeScalars.append(scalar)
                        index += 4
                    default: throw error("unknown escape \\\(e) in a string", key: key)
                    }
                } else {
                    s.unicodeScalars.append(c)
                }
            }
            throw error("expected a closing \" for the string", key: key)
        }
    }
}
