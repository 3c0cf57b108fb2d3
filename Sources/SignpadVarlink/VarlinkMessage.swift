/// A call as a client sent it (varlink.org: one JSON object, ended by a NUL byte).
public struct VarlinkCall: Equatable, Sendable {
    /// The fully qualified method: `org.signpad.Kiosk.RequestSignature`.
    public var method: String
    public var parameters: [String: JSONValue]
    /// The client takes several replies, the last without `continues`.
    public var more: Bool
    /// The client takes no reply.
    public var oneway: Bool

    public init(method: String, parameters: [String: JSONValue] = [:], more: Bool = false, oneway: Bool = false) {
        self.method = method
        self.parameters = parameters
        self.more = more
        self.oneway = oneway
    }

    /// `org.signpad.Kiosk` of `org.signpad.Kiosk.RequestSignature`.
    public var interface: String {
        guard let dot = method.lastIndex(of: ".") else { return "" }
        return String(method[..<dot])
    }

    /// `RequestSignature` of `org.signpad.Kiosk.RequestSignature`.
    public var methodName: String {
        guard let dot = method.lastIndex(of: ".") else { return method }
        return String(method[method.index(after: dot)...])
    }

    /// Reads one message (without its NUL). A parameter nested deeper than `JSONValue.depthLimit`
    /// is `parameterTooDeep`: the rest of the call was read, so it can be answered.
    public init(message: some Collection<UInt8>) throws(VarlinkProtocolError) {
        let limit = JSONValue.depthLimit
        guard let parsed = try? JSONParser.parse(message, depthLimit: limit) else { throw .notJSON }
        let value = parsed.value
        guard case .object(let fields) = value else { throw parsed.tooDeep != nil ? .tooDeep(limit: limit) : .notAnObject(value.typeName) }
        // Deep in a field no call has, the value is ignored with its field; deep in one the call
        // is read from (its value left out), that field is refused below; deep nowhere else.
        if let path = parsed.tooDeep, path.isEmpty { throw .tooDeep(limit: limit) }
        guard case .string(let method)? = fields["method"] else { throw .field("method", expected: "a string") }
        self.method = method
        switch fields["parameters"] {
        case nil, .null?: parameters = [:]
        case .object(let given)?: parameters = given
        case let other?: throw .field("parameters", expected: "an object, got \(other.typeName)")
        }
        more = try Self.flag("more", in: fields)
        oneway = try Self.flag("oneway", in: fields)
        if try Self.flag("upgrade", in: fields) { throw .field("upgrade", expected: "false: signpad's interface has no upgrade") }
        if let path = parsed.tooDeep, path.count >= 2, path[0] == "parameters" {
            throw .parameterTooDeep(path[1], limit: limit, oneway: oneway)
        }
    }

    private static func flag(_ name: String, in fields: [String: JSONValue]) throws(VarlinkProtocolError) -> Bool {
        switch fields[name] {
        case nil, .null?: return false
        case .bool(let value)?: return value
        case let other?: throw .field(name, expected: "true or false, got \(other.typeName)")
        }
    }
}

/// A message that is not a Varlink call: the connection is dropped, as there is no telling
/// what the client meant or whether it would understand a reply. But `parameterTooDeep`, a
/// call whose one parameter is refused: it is answered `org.varlink.service.InvalidParameter`.
public enum VarlinkProtocolError: Error, Equatable, CustomStringConvertible {
    case notJSON
    case notAnObject(String)
    case field(String, expected: String)
    /// Past `VarlinkLimits.messageBytes` with no NUL yet.
    case tooLarge(limit: Int)
    /// The client closed its side in the middle of a message.
    case unfinished(bytes: Int)
    /// Nested deeper than `JSONValue.depthLimit` outside any field.
    case tooDeep(limit: Int)
    /// A call whose parameter nests deeper than `JSONValue.depthLimit`, whether it takes a reply.
    case parameterTooDeep(String, limit: Int, oneway: Bool)

    public var description: String {
        switch self {
        case .notJSON: "a message that is not JSON"
        case .notAnObject(let type): "a message that is a JSON \(type), not an object"
        case .field(let name, let expected): "a message whose \"\(name)\" is not \(expected)"
        case .tooLarge(let limit): "a message longer than \(limit) bytes"
        case .unfinished(let bytes): "a message of \(bytes) bytes without its closing NUL byte before the connection closed"
        case .tooDeep(let limit): "a message nested deeper than \(limit) levels, which no call is"
        case .parameterTooDeep(let name, let limit, _): "a call whose parameter \"\(name)\" is nested deeper than \(limit) levels"
        }
    }
}

/// What goes back to a client: replies and errors, each one message.
public enum VarlinkReply {
    public static func parameters(_ parameters: [String: JSONValue], continues: Bool = false) -> [UInt8] {
        var message: [String: JSONValue] = ["parameters": .object(parameters)]
        if continues { message["continues"] = true }
        return JSONValue.object(message).encoded + [0]
    }

    public static func error(_ name: String, parameters: [String: JSONValue] = [:]) -> [UInt8] {
        JSONValue.object(["error": .string(name), "parameters": .object(parameters)]).encoded + [0]
    }
}

/// Splits what a connection reads into messages at their NUL bytes.
public struct VarlinkFramer: Sendable {
    public let limit: Int
    private var buffer: [UInt8] = []
    /// Where the next message starts in `buffer`.
    private var start = 0
    /// NUL bytes from `start` on: whole messages waiting. Counted as bytes come, so the loop's
    /// every turn asks without scanning what a client has sent.
    private var whole = 0
    /// Bytes after the last NUL: the message begun and not ended, counted as bytes come.
    public private(set) var unfinishedBytes = 0

    public init(limit: Int) { self.limit = limit }

    public mutating func append(_ bytes: some Collection<UInt8>) {
        // What was taken goes once it is most of the buffer: a client that keeps sending never
        // leaves a message boundary at the end, and the buffer would only grow.
        if start > 0 && (start == buffer.count || start >= 4096 && start * 2 >= buffer.count) {
            buffer.removeFirst(start)
            start = 0
        }
        for byte in bytes {
            if byte == 0 {
                whole += 1
                unfinishedBytes = 0
            } else {
                unfinishedBytes += 1
            }
        }
        buffer.append(contentsOf: bytes)
    }

    /// Whether the message begun is already past the limit: it can only be dropped.
    public var unfinishedTooLarge: Bool { unfinishedBytes > limit }

    /// The next whole message, without its NUL; nil until one has arrived.
    public mutating func next() throws(VarlinkProtocolError) -> [UInt8]? {
        guard whole > 0, let end = buffer[start...].firstIndex(of: 0) else {
            if buffer.count - start > limit { throw .tooLarge(limit: limit) }
            return nil
        }
        guard end - start <= limit else { throw .tooLarge(limit: limit) }
        let message = Array(buffer[start..<end])
        start = end + 1
        whole -= 1
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        }
        return message
    }

    /// Whether a whole message waits to be taken.
    public var hasMessage: Bool { whole > 0 }

    /// Bytes not taken yet, whole messages and a message begun.
    public var partialBytes: Int { buffer.count - start }
}
