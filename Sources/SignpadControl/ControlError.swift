import SignpadExport
import SignpadVarlink
import SignpadVocabulary

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
    /// The document named cannot be signed: why, for the point of sale.
    case documentRefused(path: String, reason: String)

    public var name: String {
        switch self {
        case .wrongParameter: "org.varlink.service.InvalidParameter"
        case .invalidParameter: "org.signpad.Kiosk.InvalidParameter"
        case .busy: "org.signpad.Kiosk.Busy"
        case .noSuchRequest: "org.signpad.Kiosk.NoSuchRequest"
        case .notReady: "org.signpad.Kiosk.NotReady"
        case .methodNotFound: "org.varlink.service.MethodNotFound"
        case .documentRefused: "org.signpad.Kiosk.DocumentRefused"
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
        case .documentRefused(let path, let reason): ["path": .string(path), "reason": .string(reason)]
        }
    }
}

/// A call's parameters, taken one by one with their types checked; what is left over is a
/// parameter the method does not take (a misspelt `titel` is refused, not ignored).
struct CallParameters {
    private var remaining: [String: JSONValue]
    /// The enclosing parameter's name and a dot, for a struct's fields: "document.path".
    private let prefix: String

    init(_ parameters: [String: JSONValue], prefix: String = "") {
        remaining = parameters
        self.prefix = prefix
    }

    private mutating func take(_ name: String) -> JSONValue? {
        guard let value = remaining.removeValue(forKey: name), value != .null else { return nil }
        return value
    }

    mutating func string(_ name: String) throws(ControlError) -> String {
        guard let value = try optionalString(name) else { throw .wrongParameter(prefix + name) }
        return value
    }

    mutating func optionalString(_ name: String) throws(ControlError) -> String? {
        switch take(name) {
        case nil: return nil
        case .string(let value)?: return value
        default: throw .wrongParameter(prefix + name)
        }
    }

    mutating func optionalStrings(_ name: String) throws(ControlError) -> [String]? {
        try optionalArray(name) { if case .string(let value) = $0 { value } else { nil } }
    }

    mutating func optionalNumbers(_ name: String) throws(ControlError) -> [Double]? {
        try optionalArray(name) { if case .number(let value) = $0 { value } else { nil } }
    }

    /// An array whose every element `element` takes.
    private mutating func optionalArray<T>(_ name: String, _ element: (JSONValue) -> T?) throws(ControlError) -> [T]? {
        switch take(name) {
        case nil: return nil
        case .array(let values)?:
            var taken: [T] = []
            for value in values {
                guard let one = element(value) else { throw .wrongParameter(prefix + name) }
                taken.append(one)
            }
            return taken
        default: throw .wrongParameter(prefix + name)
        }
    }

    mutating func optionalNumber(_ name: String) throws(ControlError) -> Double? {
        switch take(name) {
        case nil: return nil
        case .number(let value)?: return value
        default: throw .wrongParameter(prefix + name)
        }
    }

    mutating func optionalBool(_ name: String) throws(ControlError) -> Bool? {
        switch take(name) {
        case nil: return nil
        case .bool(let value)?: return value
        default: throw .wrongParameter(prefix + name)
        }
    }

    func rejectOthers() throws(ControlError) {
        if let name = remaining.keys.sorted().first { throw .wrongParameter(prefix + name) }
    }

    /// A struct's fields, taken as a call's are.
    mutating func optionalObject(_ name: String) throws(ControlError) -> CallParameters? {
        switch take(name) {
        case nil: return nil
        case .object(let fields)?: return CallParameters(fields, prefix: prefix + name + ".")
        default: throw .wrongParameter(prefix + name)
        }
    }

    /// The name a field of this struct is called in errors.
    func named(_ name: String) -> String { prefix + name }
}

/// A request's values checked by the rules every request keeps (`RequestRules`, which the spool
/// applies too), a broken one refused as the parameter it came in.
public enum RequestLimits {
    public static func checked(_ request: SignatureRequest, timeout: Double?) throws(ControlError) -> SignatureRequest {
        do {
            if let timeout { try RequestRules.checkTimeout(timeout) }
            return try RequestRules.checked(request)
        } catch {
            throw .invalidParameter(error.field, expected: error.expected)
        }
    }
}
