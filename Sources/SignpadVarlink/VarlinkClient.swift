import Glibc
import SystemPackage

/// A blocking client of one connection, for `signpad request`: a call, and its replies as they come.
public final class VarlinkClient {
    public let path: String
    private let fd: FileDescriptor
    private var framer = VarlinkFramer(limit: 64 << 20)

    public init(path: String) throws(VarlinkClientError) {
        self.path = path
        guard let address = UnixSocketAddress(path) else {
            throw VarlinkClientError(path: path, reason: "the path is longer than the \(UnixSocketAddress.capacity - 1) bytes a socket's path may have")
        }
        let raw = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard raw >= 0 else { throw VarlinkClientError(path: path, reason: "cannot create a socket: \(Errno(rawValue: errno))") }
        fd = FileDescriptor(rawValue: raw)
        let connected = address.withSockaddr { connect(raw, $0, $1) }
        guard connected == 0 else {
            let error = Errno(rawValue: errno)
            try? fd.close()
            let hint = switch error {
            case .noSuchFileOrDirectory, .connectionRefused: " (is signpad running, with [control] socket set to this path?)"
            case .permissionDenied: " (the caller must be in the socket's group, signpad-pos by default)"
            default: ""
            }
            throw VarlinkClientError(path: path, reason: "cannot connect: \(error)\(hint)")
        }
    }

    deinit { try? fd.close() }

    /// Sends a call; then `next()` returns its replies.
    public func send(_ method: String, _ parameters: [String: JSONValue], more: Bool) throws(VarlinkClientError) {
        var message: [String: JSONValue] = ["method": .string(method), "parameters": .object(parameters)]
        if more { message["more"] = true }
        let bytes = JSONValue.object(message).encoded + [0]
        do {
            _ = try bytes.withUnsafeBytes { try fd.writeAll($0) }
        } catch {
            throw VarlinkClientError(path: path, reason: "sending failed: \(error)")
        }
    }

    /// The next reply: its parameters, whether more follow, or the error it carries.
    public func next() throws(VarlinkClientError) -> VarlinkClientReply {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            do {
                if let message = try framer.next() {
                    guard case .object(let fields)? = JSONValue(parsing: message) else {
                        throw VarlinkClientError(path: path, reason: "a reply that is not a JSON object")
                    }
                    var parameters: [String: JSONValue] = [:]
                    if case .object(let given)? = fields["parameters"] { parameters = given }
                    if case .string(let error)? = fields["error"] { return .error(error, parameters) }
                    return .parameters(parameters, continues: fields["continues"] == .bool(true))
                }
            } catch let error as VarlinkProtocolError {
                throw VarlinkClientError(path: path, reason: "\(error)")
            } catch let error as VarlinkClientError {
                throw error
            } catch {
                throw VarlinkClientError(path: path, reason: "\(error)")
            }
            let count: Int
            do {
                count = try chunk.withUnsafeMutableBytes { try fd.read(into: $0, retryOnInterrupt: true) }
            } catch {
                throw VarlinkClientError(path: path, reason: "reading failed: \(error)")
            }
            guard count > 0 else { throw VarlinkClientError(path: path, reason: "signpad closed the connection") }
            framer.append(chunk[..<count])
        }
    }
}

public enum VarlinkClientReply: Equatable, Sendable {
    case parameters([String: JSONValue], continues: Bool)
    case error(String, [String: JSONValue])
}

public struct VarlinkClientError: Error, CustomStringConvertible {
    public var path: String
    public var reason: String

    public var description: String { "\(path): \(reason)" }
}
