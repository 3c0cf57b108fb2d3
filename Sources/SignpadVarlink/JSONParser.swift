/// Reads JSON text (RFC 8259) in one pass: the position only moves forward, so a message costs
/// time in proportion to its length however it nests (Foundation's decoder, through `Codable`'s
/// try-each-type, cost about depth^2.5 and held the loop for minutes). Containers nested deeper
/// than `depthLimit` are read over, their brackets matched and strings scanned with a stack of
/// one byte per level, and left out; `tooDeep` says under which keys the first one was.
struct JSONParser {
    struct Parsed {
        var value: JSONValue
        /// The keys of the objects around the first container nested too deep (nil: none was).
        var tooDeep: [String]?
    }

    /// Not JSON: the byte offset where reading stopped.
    struct SyntaxError: Error {
        var offset: Int
    }

    private let bytes: [UInt8]
    private let depthLimit: Int
    private var position = 0
    /// The keys of the objects being read, outermost first.
    private var path: [String] = []
    private var tooDeep: [String]?

    private init(_ bytes: [UInt8], depthLimit: Int) {
        self.bytes = bytes
        self.depthLimit = depthLimit
    }

    static func parse(_ bytes: some Collection<UInt8>, depthLimit: Int) throws(SyntaxError) -> Parsed {
        var parser = JSONParser(Array(bytes), depthLimit: depthLimit)
        let value = try parser.value(depth: 1)
        parser.skipSpace()
        guard parser.position == parser.bytes.count else { throw SyntaxError(offset: parser.position) }
        return Parsed(value: value, tooDeep: parser.tooDeep)
    }

    private var failure: SyntaxError { SyntaxError(offset: position) }

    private mutating func skipSpace() {
        while position < bytes.count, bytes[position] == 0x20 || bytes[position] == 0x0A || bytes[position] == 0x0D || bytes[position] == 0x09 {
            position += 1
        }
    }

    /// The value at `position`; a container opened here would be `depth` deep.
    private mutating func value(depth: Int) throws(SyntaxError) -> JSONValue {
        skipSpace()
        guard position < bytes.count else { throw failure }
        switch bytes[position] {
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            guard depth <= depthLimit else {
                if tooDeep == nil { tooDeep = path }
                try skipContainer()
                return .null
            }
            return bytes[position] == UInt8(ascii: "[") ? try array(depth: depth) : try object(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default: return .number(try number())
        }
    }

    private mutating func array(depth: Int) throws(SyntaxError) -> JSONValue {
        position += 1
        var elements: [JSONValue] = []
        skipSpace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") { position += 1; return .array(elements) }
        while true {
            elements.append(try value(depth: depth + 1))
            skipSpace()
            guard position < bytes.count else { throw failure }
            position += 1
            switch bytes[position - 1] {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "]"): return .array(elements)
            default: position -= 1; throw failure
            }
        }
    }

    private mutating func object(depth: Int) throws(SyntaxError) -> JSONValue {
        position += 1
        var fields: [String: JSONValue] = [:]
        skipSpace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") { position += 1; return .object(fields) }
        while true {
            skipSpace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw failure }
            let key = try string()
            skipSpace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw failure }
            position += 1
            path.append(key)
            fields[key] = try value(depth: depth + 1)
            path.removeLast()
            skipSpace()
            guard position < bytes.count else { throw failure }
            position += 1
            switch bytes[position - 1] {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "}"): return .object(fields)
            default: position -= 1; throw failure
            }
        }
    }

    /// Past the container at `position` without reading its values: brackets must match.
    private mutating func skipContainer() throws(SyntaxError) {
        var closers: [UInt8] = []
        repeat {
            guard position < bytes.count else { throw failure }
            switch bytes[position] {
            case UInt8(ascii: "["): closers.append(UInt8(ascii: "]")); position += 1
            case UInt8(ascii: "{"): closers.append(UInt8(ascii: "}")); position += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                guard bytes[position] == closers.last else { throw failure }
                closers.removeLast()
                position += 1
            case UInt8(ascii: "\""): _ = try string()
            default: position += 1
            }
        } while !closers.isEmpty
    }

    private mutating func literal(_ word: StaticString) throws(SyntaxError) {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count else { throw failure }
        for index in 0..<count where bytes[position + index] != word.utf8Start[index] { throw failure }
        position += count
    }

    /// -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?, as RFC 8259 has it.
    private mutating func number() throws(SyntaxError) -> Double {
        let start = position
        func digits() -> Int {
            let from = position
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
            return position - from
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "-") { position += 1 }
        let integerStart = position
        let integerDigits = digits()
        guard integerDigits > 0, integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0") else { throw failure }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard digits() > 0 else { throw failure }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard digits() > 0 else { throw failure }
        }
        // Out of Double's range reads as ±infinity, which a parameter's check then refuses by name.
        guard let number = Double(String(decoding: bytes[start..<position], as: UTF8.self)) else { throw failure }
        return number
    }

    /// The string at `position` (its opening quote), escapes resolved; its bytes must be UTF-8.
    private mutating func string() throws(SyntaxError) -> String {
        position += 1
        var decoded: [UInt8] = []
        var runStart = position
        while true {
            guard position < bytes.count else { throw failure }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") { break }
            guard byte >= 0x20 else { throw failure }
            guard byte == UInt8(ascii: "\\") else { position += 1; continue }
            decoded += bytes[runStart..<position]
            position += 1
            guard position < bytes.count else { throw failure }
            let escape = bytes[position]
            position += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
            case UInt8(ascii: "b"): decoded.append(0x08)
            case UInt8(ascii: "f"): decoded.append(0x0C)
            case UInt8(ascii: "n"): decoded.append(0x0A)
            case UInt8(ascii: "r"): decoded.append(0x0D)
            case UInt8(ascii: "t"): decoded.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hexQuad()
                if (0xD800..<0xDC00).contains(scalar) {
                    // A high surrogate takes the low one that must follow.
                    guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else { throw failure }
                    position += 2
                    let low = try hexQuad()
                    guard (0xDC00..<0xE000).contains(low) else { throw failure }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let unicode = Unicode.Scalar(scalar) else { throw failure }
                decoded += Array(String(Character(unicode)).utf8)
            default:
                position -= 1
                throw failure
            }
            runStart = position
        }
        let end = position
        position += 1
        let text: String?
        if decoded.isEmpty {
            text = String(validating: bytes[runStart..<end], as: UTF8.self)
        } else {
            decoded += bytes[runStart..<end]
            text = String(validating: decoded, as: UTF8.self)
        }
        guard let text else { throw SyntaxError(offset: runStart) }
        return text
    }

    private mutating func hexQuad() throws(SyntaxError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw failure }
        var value: UInt32 = 0
        for byte in bytes[position..<position + 4] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure
            }
            value = value << 4 | UInt32(digit)
        }
        position += 4
        return value
    }
}
