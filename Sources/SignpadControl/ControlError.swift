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
