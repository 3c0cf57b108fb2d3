import SignpadVarlink

/// A call refused, as the Varlink error the client gets.
public enum ControlError: Error, Equatable {
    /// The parameter is missing, of the wrong type, or not one the method takes.
    case wrongParameter(String)
    /// The parameter's value is outside what signpad takes.
    case invalidParameter(String, expected: String)
    /// The request under way: its id and reference for the user who asked (or root), else nil.
    case busy(id: String?, reference: String?)
    case noSuchRequest(String)
    case notReady(String)
    case methodNotFound(String)

    public var name: String {
        switch self {
        case .wrongParameter: "org.varlink.service.InvalidParameter"
        case .invalidParameter: "org.signpad.Kiosk.InvalidParameter"
        case .busy: "org.signpad.Kiosk.Busy"
        case .noSuchRequest: "org.signpad.Kiosk.NoSuchRequest"
        case .notReady: "org.signpad.Kiosk.NotReady"
        case .methodNotFound: "org.varlink.service.MethodNotFound"
        }
    }

    public var parameters: [String: JSONValue] {
        switch self {
        case .wrongParameter(let name): ["parameter": .string(name)]
        case .invalidParameter(let name, let expected): ["parameter": .string(name), "expected": .string(expected)]
        case .busy(let id?, let reference?): ["id": .string(id), "reference": .string(reference)]
        case .busy: [:]
        case .noSuchRequest(let id): ["id": .string(id)]
        case .notReady(let reason): ["reason": .string(reason)]
        case .methodNotFound(let method): ["method": .string(method)]
        }
    }
}

/// A call's parameters, taken one by one with their types checked; what is left over is a
/// parameter the method does not take (a misspelt `titel` is refused, not ignored).
struct CallParameters {
    private var remaining: [String: JSONValue]

    init(_ parameters: [String: JSONValue]) { remaining = parameters }

    private mutating func take(_ name: String) -> JSONValue? {
        guard let value = remaining.removeValue(forKey: name), value != .null else { return nil }
        return value
    }

    mutating func string(_ name: String) throws(ControlError) -> String {
        guard let value = try optionalString(name) else { throw .wrongParameter(name) }
        return value
    }

    mutating func optionalString(_ name: String) throws(ControlError) -> String? {
        switch take(name) {
        case nil: return nil
        case .string(let value)?: return value
        default: throw .wrongParameter(name)
        }
    }

    mutating func optionalStrings(_ name: String) throws(ControlError) -> [String]? {
        switch take(name) {
        case nil: return nil
        case .array(let values)?:
            var strings: [String] = []
            for value in values {
                guard case .string(let string) = value else { throw .wrongParameter(name) }
                strings.append(string)
            }
            return strings
        default: throw .wrongParameter(name)
        }
    }

    mutating func optionalNumber(_ name: String) throws(ControlError) -> Double? {
        switch take(name) {
        case nil: return nil
        case .number(let value)?: return value
        default: throw .wrongParameter(name)
        }
    }

    mutating func optionalBool(_ name: String) throws(ControlError) -> Bool? {
        switch take(name) {
        case nil: return nil
        case .bool(let value)?: return value
        default: throw .wrongParameter(name)
        }
    }

    func rejectOthers() throws(ControlError) {
        if let name = remaining.keys.sorted().first { throw .wrongParameter(name) }
    }
}

/// What a request's values may be: enough for any sale, little enough for the screen and the
/// file names.
public enum RequestLimits {
    public static let referenceCharacters = 64
    public static let textCharacters = 200
    public static let timeout: ClosedRange<Double> = 5...3600

    public static func check(reference: String, title: String?, lines: [String], signer: String?, reason: String?,
                             documentSha256: String?, timeout: Double?) throws(ControlError) {
        guard (1...referenceCharacters).contains(reference.count), printable(reference) else {
            throw .invalidParameter("reference", expected: "1 to \(referenceCharacters) printable characters (no control characters)")
        }
        for (name, text) in [("title", title), ("signer", signer), ("reason", reason)] {
            guard let text else { continue }
            guard text.count <= textCharacters, printable(text) else {
                throw .invalidParameter(name, expected: "at most \(textCharacters) printable characters (no control characters)")
            }
        }
        for line in lines where line.count > textCharacters || !printable(line) {
            throw .invalidParameter("lines", expected: "lines of at most \(textCharacters) printable characters each (no control characters)")
        }
        if let hash = documentSha256, hash.count != 64 || !hash.allSatisfy(\.isHexDigit) {
            throw .invalidParameter("documentSha256", expected: "64 hexadecimal digits (a SHA-256)")
        }
        if let timeout, !timeout.isFinite || !Self.timeout.contains(timeout) {
            throw .invalidParameter("timeoutSeconds", expected: "seconds from \(Int(Self.timeout.lowerBound)) to \(Int(Self.timeout.upperBound))")
        }
    }

    private static func printable(_ text: String) -> Bool {
        !text.unicodeScalars.contains { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format && $0 != "\u{200D}" && $0 != "\u{200C}" }
    }
}
