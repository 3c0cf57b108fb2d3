import FoundationEssentials

/// One JSON value, as a Varlink message carries it: what the client sent is read into this, and
/// replies are built of it, so a parameter of the wrong type is seen and named, not guessed at.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Containers nested deeper than this are refused (the message itself is the first level):
    /// no call signpad takes needs more than four.
    public static let depthLimit = 64

    /// Parses one JSON text; nil when it is not JSON or nests deeper than `depthLimit`.
    public init?(parsing bytes: some Collection<UInt8>) {
        guard let parsed = try? JSONParser.parse(bytes, depthLimit: Self.depthLimit), parsed.tooDeep == nil else { return nil }
        self = parsed.value
    }

    /// The compact JSON text, keys sorted (the same value always gives the same bytes).
    public var encoded: [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding a JSONValue cannot fail: every case maps to JSON, non-finite numbers as null.
        return Array((try? encoder.encode(self)) ?? Data("null".utf8))
    }

    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "bool"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    public subscript(key: String) -> JSONValue? {
        if case .object(let fields) = self { return fields[key] }
        return nil
    }
}

/// Encoded only: what a client sends is read by `JSONParser`.
extension JSONValue: Encodable {
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value) where !value.isFinite: try container.encodeNil()
        case .number(let value) where value == value.rounded() && abs(value) < 1e15: try container.encode(Int64(value))
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(Dictionary(elements) { $1 }) }
    public init(nilLiteral: ()) { self = .null }
}
