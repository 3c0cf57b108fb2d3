import Glibc
import SystemPackage

/// What one client may cost the daemon. A client past these is dropped with a journal line; none
/// of them can hold up the loop that draws ink, as every socket is non-blocking.
public struct VarlinkLimits: Equatable, Sendable {
    /// The longest message taken (a request with its text is a few KiB).
    public var messageBytes = 65_536
    /// Connections open at once; more are refused (closed at once) until one ends.
    public var connections = 32
    /// Connections one user (uid) may hold of them: half, so that one member of the group alone
    /// cannot lock another out (a point of sale needs one or two). With every connection taken, a
    /// user holding fewer than another gets one of that user's quiet ones.
    public var connectionsPerUser = 16
    /// Calls taken from one connection in one turn of the loop; the next turn takes more.
    public var callsPerTurn = 64
    /// A connection with no call under way that sends nothing for this long is closed.
    public var idleSeconds = 60.0
    /// A client that leaves its replies unread this long is dropped.
    public var unreadSeconds = 10.0
    /// Replies waiting for a client to read them, at most (an image is a few hundred KiB).
    public var unreadBytes = 8 << 20

    public init() {}
}

/// Who called, from the socket's peer credentials (SO_PEERCRED): for the journal, each user's
/// share of the connections, and whose request is whose.
public struct VarlinkCaller: Equatable, Sendable {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32
}

/// One interface the server offers besides `org.varlink.service`, with its description text as
/// `GetInterfaceDescription` returns it.
public struct VarlinkInterface: Sendable {
    public var name: String
    public var description: String
    public var methods: Set<String>

    public init(name: String, description: String, methods: Set<String>) {
        self.name = name
        self.description = description
        self.methods = methods
    }
}

/// A call waiting for its reply; a connection takes one call at a time, in order. A reply to
/// any other call of the connection (a oneway call, one already answered) is not sent.
public struct VarlinkCallID: Hashable, Sendable {
    let connection: Int
    /// The call's number on its connection.
    let call: Int
}

/// What happened on the socket, for the daemon to act on or log.
public enum VarlinkEvent: Sendable {
    /// A call of one of the server's interfaces; answer it with `reply` or `fail` (unless oneway).
    case call(VarlinkCallID, VarlinkCall, VarlinkCaller)
    /// A connection was closed by signpad: why, and whose it was.
    case dropped(VarlinkCaller, reason: String)
    /// A connection past `VarlinkLimits.connections`, or its user's share of them, was refused.
    case refused(VarlinkCaller, reason: String)
    /// A client hung up while its call was under way.
    case hungUp(VarlinkCallID, VarlinkCaller)
}

public struct VarlinkServerError: Error, CustomStringConvertible {
    public var path: String
    public var reason: String

    public var description: String { "control socket \(path): \(reason)" }
}

/// The Varlink service on a Unix stream socket: accepts connections, frames their messages,
/// answers `org.varlink.service` itself and hands every other call to the daemon as an event.
/// It never blocks: the daemon polls its descriptors with the others in its loop.
public final class VarlinkServer {
    public let path: String
    public let limits: VarlinkLimits
    private let listener: FileDescriptor
    private let interfaces: [String: VarlinkInterface]
    private let info: [String: JSONValue]
    private var connections: [Int: Connection] = [:]
    private var nextConnection = 0
    /// Where the time is read (seconds on a clock that never steps), for replies sent between turns.
    private let uptime: @Sendable () -> Double

    private final class Connection {
        let fd: FileDescriptor
        let caller: VarlinkCaller
        var framer: VarlinkFramer
        var unread: [UInt8] = []
        /// The number of the call under way: more messages wait in the framer until it is answered.
        var awaiting: Int?
        var pending: Bool { awaiting != nil }
        /// A call under way, or replies the client has not read yet: its next calls wait. A client
        /// that never reads thus fills its socket and blocks, as it would with any server, and is
        /// not read on (which would reset it at the drop, its replies lost).
        var busy: Bool { awaiting != nil || !unread.isEmpty }
        /// Calls taken so far, which numbers the next.
        var calls = 0
        /// The client shut its side for writing (`echo … | socat`): its calls are answered, then
        /// the connection is closed.
        var sentAll = false
        var lastActivity: Double
        /// Since when replies wait unread.
        var unreadSince: Double?
        var closing: String?

        init(fd: FileDescriptor, caller: VarlinkCaller, limit: Int, now: Double) {
            self.fd = fd
            self.caller = caller
            framer = VarlinkFramer(limit: limit)
            lastActivity = now
        }
    }

    /// Listens at `path` (replacing a socket no one answers on), mode `mode`, owned by `groupID`
    /// when given, so that only members of that group (a point of sale) may connect.
    /// `uptime` is the clock `handle`'s `now` is read from, for the replies sent between its calls.
    public init(path: String, mode: mode_t, groupID: gid_t?, limits: VarlinkLimits = VarlinkLimits(),
                interfaces: [VarlinkInterface], vendor: String, product: String, version: String, url: String,
                uptime: @escaping @Sendable () -> Double) throws(VarlinkServerError) {
        self.uptime = uptime
        self.path = path
        self.limits = limits
        self.interfaces = Dictionary(uniqueKeysWithValues: interfaces.map { ($0.name, $0) })
        info = ["vendor": .string(vendor), "product": .string(product), "version": .string(version), "url": .string(url),
                "interfaces": .array((["org.varlink.service"] + interfaces.map(\.name)).map { .string($0) })]
        func fail(_ reason: String) -> VarlinkServerError { VarlinkServerError(path: path, reason: reason) }
        guard UnixSocketAddress(path) != nil else {
            throw fail("the path is longer than the \(UnixSocketAddress.capacity - 1) bytes a socket's path may have")
        }
        // Made under a name of its own beside the path, and renamed to it once it listens: a
        // client that connects as soon as the path appears (one waiting for signpad to start)
        // would otherwise be refused until the socket listens.
        let making = Self.makingName(path)
        try Self.clearStale(path, for: path)
        try Self.clearStale(making, for: path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw fail("cannot create a socket: \(Errno(rawValue: errno))") }
        listener = FileDescriptor(rawValue: fd)
        let bound = UnixSocketAddress(making)!.withSockaddr { bind(fd, $0, $1) }
        guard bound == 0 else {
            let error = Errno(rawValue: errno)
            try? listener.close()
            throw fail("cannot listen there: \(error)\(error == .noSuchFileOrDirectory ? " (its folder does not exist)" : "")")
        }
        // Before listen: nobody outside the group may connect in between. A Unix socket refuses
        // a connection outright once its backlog is full, so the backlog outlasts a burst of
        // clients while the loop is busy; how many may stay connected is decided after accept.
        if chmod(making, mode) != 0 || (groupID.map { chown(making, uid_t.max, $0) != 0 } ?? false) || listen(fd, 128) != 0
            || rename(making, path) != 0 {
            let error = Errno(rawValue: errno)
            try? listener.close()
            unlink(making)
            throw fail("cannot set its mode and group, listen or put it in place: \(error)")
        }
    }

    /// The name the socket is made under: the path with its last character changed, so that it
    /// is as long as the path and in the same folder.
    static func makingName(_ path: String) -> String {
        String(path.dropLast()) + (path.hasSuffix("~") ? "#" : "~")
    }

    /// A socket file at `file` (the path, or the name the socket is made under) left by a
    /// signpad that ended without removing it is replaced; one that answers belongs to a signpad
    /// still running, and anything else is not signpad's to remove.
    private static func clearStale(_ file: String, for path: String) throws(VarlinkServerError) {
        var status = stat()
        guard lstat(file, &status) == 0 else { return }
        let there = file == path ? "there" : "at \(file), where signpad makes the socket before putting it in place"
        guard status.st_mode & S_IFMT == S_IFSOCK else {
            throw VarlinkServerError(path: path, reason: "a file that is not a socket is \(there); remove it or set control.socket elsewhere")
        }
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let answered = UnixSocketAddress(file)!.withSockaddr { connect(probe, $0, $1) } == 0
        close(probe)
        if answered { throw VarlinkServerError(path: path, reason: "another program (a signpad still running?) listens \(there)") }
        unlink(file)
    }

    deinit {
        for connection in connections.values { try? connection.fd.close() }
        try? listener.close()
        unlink(path)
    }

    public var connectionCount: Int { connections.count }

    /// The descriptors to poll, each with its events; pass back what poll returned to `handle`.
    public func descriptors(into list: inout [pollfd]) {
        list.append(pollfd(fd: listener.rawValue, events: Int16(POLLIN), revents: 0))
        for key in connections.keys.sorted() {
            let connection = connections[key]!
            // Calls already waiting are taken before more are read, so a client that pipelines holds little.
            var events = connection.busy || connection.sentAll || connection.framer.hasMessage ? 0 : Int16(POLLIN)
            if !connection.unread.isEmpty { events |= Int16(POLLOUT) }
            list.append(pollfd(fd: connection.fd.rawValue, events: events, revents: 0))
        }
    }

    /// The next time `handle` has something to do without any descriptor being ready.
    public func nextDeadline(now: Double) -> Double {
        var deadline = Double.infinity
        for connection in connections.values {
            if !connection.busy && connection.framer.hasMessage { deadline = min(deadline, now) }
            if let since = connection.unreadSince { deadline = min(deadline, since + limits.unreadSeconds) }
            if !connection.busy { deadline = min(deadline, connection.lastActivity + limits.idleSeconds) }
        }
        return deadline
    }

    /// Accepts, reads, writes and times out; returns what the daemon must answer or log.
    public func handle(_ polled: ArraySlice<pollfd>, now: Double) -> [VarlinkEvent] {
        // The loop's turns for ink come here too: with nothing to do, nothing is allocated.
        guard polled.contains(where: { $0.revents != 0 }) || nextDeadline(now: now) <= now else { return [] }
        var events: [VarlinkEvent] = []
        let ready = Dictionary(polled.map { ($0.fd, $0.revents) }) { a, _ in a }
        // A connection accepted now may have the number of one closed to make room for it: what
        // the poll saw on that number was the other's.
        let firstAccepted = nextConnection
        if let revents = ready[listener.rawValue], revents != 0 { accept(now: now, events: &events) }
        for key in connections.keys.sorted() {
            guard let connection = connections[key] else { continue }
            let revents = key < firstAccepted ? ready[connection.fd.rawValue] ?? 0 : 0
            if revents & Int16(POLLOUT) != 0 { flush(connection, now: now) }
            if revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                // A client waiting for its answer is not read (its next call waits), but its hanging up is seen;
                // one that hung up after its calls is read to the end, so that each is taken.
                let hungUp = revents & Int16(POLLHUP | POLLERR) != 0
                if !connection.busy && (!connection.framer.hasMessage || hungUp) {
                    read(connection, key: key, now: now, events: &events)
                } else if hungUp && connection.closing == nil {
                    connection.closing = ""
                }
            }
            if connection.closing == nil && !connection.busy { process(connection, key: key, now: now, events: &events) }
            if connection.closing == nil && connection.sentAll && !connection.busy && !connection.framer.hasMessage {
                connection.closing = ""
            }
            if connection.closing == nil {
                if let since = connection.unreadSince, now - since >= limits.unreadSeconds {
                    connection.closing = "left its replies unread for \(Int(limits.unreadSeconds)) s"
                } else if !connection.busy && now - connection.lastActivity >= limits.idleSeconds {
                    connection.closing = connection.framer.partialBytes > 0
                        ? "sent \(connection.framer.partialBytes) bytes of a message without its closing NUL and nothing more for \(Int(limits.idleSeconds)) s"
                        : "sent nothing for \(Int(limits.idleSeconds)) s"
                }
            }
            if let reason = connection.closing {
                if let call = connection.awaiting { events.append(.hungUp(VarlinkCallID(connection: key, call: call), connection.caller)) }
                if !reason.isEmpty {
                    events.append(.dropped(connection.caller, reason: reason))
                    Self.discardUnread(connection.fd)
                }
                try? connection.fd.close()
                connections[key] = nil
            }
        }
        return events
    }

    /// Reads and drops what a client sent that will never be taken (at most a socket buffer's
    /// worth, without waiting): a Unix socket closed with unread input resets its peer, which
    /// would lose the replies sent before the drop instead of reading them and then the end.
    static func discardUnread(_ fd: FileDescriptor) {
        // A drop is rare, and never on the ink's path: the buffer is made for it.
        var scratch = [UInt8](repeating: 0, count: 64 << 10)
        for _ in 0..<64 {
            let got = scratch.withUnsafeMutableBytes { Glibc.recv(fd.rawValue, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if got <= 0 { return }
        }
    }

    /// Answers call `id`: with `continues` more replies follow, else the call is done.
    public func reply(_ id: VarlinkCallID, _ parameters: [String: JSONValue], continues: Bool = false) {
        send(VarlinkReply.parameters(parameters, continues: continues), to: id, final: !continues)
    }

    /// Answers call `id` with the error `name`.
    public func fail(_ id: VarlinkCallID, _ name: String, _ parameters: [String: JSONValue] = [:]) {
        send(VarlinkReply.error(name, parameters: parameters), to: id, final: true)
    }

    /// Whether the client of call `id` is still connected.
    public func isConnected(_ id: VarlinkCallID) -> Bool { connections[id.connection].map { $0.closing == nil } ?? false }

    private func send(_ message: [UInt8], to id: VarlinkCallID, final: Bool) {
        guard let connection = connections[id.connection], connection.closing == nil, connection.awaiting == id.call else { return }
        if final {
            connection.awaiting = nil
            connection.lastActivity = uptime()
        }
        connection.unread += message
        guard connection.unread.count <= limits.unreadBytes else {
            connection.closing = "left more than \(limits.unreadBytes) bytes of replies unread"
            return
        }
        flush(connection, now: uptime())
    }

    private func accept(now: Double, events: inout [VarlinkEvent]) {
        // A few at a time, so a flood of connections cannot keep the loop here.
        for _ in 0..<16 {
            let fd = Glibc.accept(listener.rawValue, nil, nil)
            guard fd >= 0 else { return }
            // Set before the loop could exec anything; the page renderer, started from another
            // thread meanwhile, closes every descriptor but its pipes.
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            // struct ucred (pid, uid, gid), which Glibc's module leaves out without _GNU_SOURCE.
            var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
            var length = socklen_t(MemoryLayout.size(ofValue: credentials))
            getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length)
            let caller = VarlinkCaller(pid: credentials.pid, uid: credentials.uid, gid: credentials.gid)
            let held = connections.values.count { $0.caller.uid == caller.uid }
            if connections.count >= limits.connections, held < limits.connectionsPerUser {
                makeRoom(for: caller, holding: held, events: &events)
            }
            guard connections.count < limits.connections, held < limits.connectionsPerUser else {
                close(fd)
                events.append(.refused(caller, reason: held >= limits.connectionsPerUser
                    ? "too many connections from this user (uid \(caller.uid)), whose share is \(limits.connectionsPerUser)"
                    : "too many connections, \(limits.connections) in all"))
                continue
            }
            connections[nextConnection] = Connection(fd: FileDescriptor(rawValue: fd), caller: caller, limit: limits.messageBytes, now: now)
            nextConnection += 1
        }
    }

    /// Every connection is taken, and `caller`'s user holds `held` of them: two users at their
    /// share would lock out a third. The user holding the most, if more than one past `held`,
    /// loses its quietest connection with no call under way and nothing unread (closed as an idle
    /// one is), so that users share the connections about evenly.
    private func makeRoom(for caller: VarlinkCaller, holding held: Int, events: inout [VarlinkEvent]) {
        var holdings: [UInt32: Int] = [:]
        for connection in connections.values { holdings[connection.caller.uid, default: 0] += 1 }
        guard let (biggest, count) = holdings.max(by: { $0.value < $1.value }), count > held + 1 else { return }
        let quiet = connections.filter { $0.value.caller.uid == biggest && !$0.value.busy && $0.value.closing == nil }
        guard let (key, connection) = quiet.min(by: { $0.value.lastActivity < $1.value.lastActivity }) else { return }
        Self.discardUnread(connection.fd)
        try? connection.fd.close()
        connections[key] = nil
        events.append(.dropped(connection.caller, reason: "made room for uid \(caller.uid): every connection was taken and uid \(biggest) held the most (\(count)); this one was the quietest"))
    }

    private func read(_ connection: Connection, key: Int, now: Double, events: inout [VarlinkEvent]) {
        var chunk = [UInt8](repeating: 0, count: 16_384)
        // Bounded, so one client streaming bytes cannot keep the loop here.
        for _ in 0..<8 {
            let count: Int
            do {
                count = try chunk.withUnsafeMutableBytes { try connection.fd.read(into: $0, retryOnInterrupt: true) }
            } catch .wouldBlock {
                return
            } catch {
                connection.closing = "reading failed: \(error)"
                return
            }
            if count == 0 {
                // The client has sent all it will: what came whole is answered, a message cut short is not.
                let unfinished = connection.framer.unfinishedBytes
                if unfinished > 0 {
                    connection.closing = "\(VarlinkProtocolError.unfinished(bytes: unfinished))"
                } else {
                    connection.sentAll = true
                }
                return
            }
            connection.framer.append(chunk[..<count])
            // Checked as it comes, so a client cannot make signpad hold more than the limit; whole
            // messages waiting (a client that pipelines) are not counted, they are taken.
            if connection.framer.unfinishedTooLarge {
                connection.closing = "\(VarlinkProtocolError.tooLarge(limit: limits.messageBytes))"
                return
            }
        }
    }

    /// Takes the next whole messages, while no call of the connection is under way, a few a turn.
    private func process(_ connection: Connection, key: Int, now: Double, events: inout [VarlinkEvent]) {
        for _ in 0..<limits.callsPerTurn {
            guard !connection.busy && connection.closing == nil else { return }
            let message: [UInt8]
            do {
                guard let next = try connection.framer.next() else { return }
                message = next
            } catch {
                connection.closing = "\(error)"
                return
            }
            connection.lastActivity = now
            let id = VarlinkCallID(connection: key, call: connection.calls)
            connection.calls += 1
            let call: VarlinkCall
            do { call = try VarlinkCall(message: message) } catch {
                if case .parameterTooDeep(let name, _, let oneway) = error {
                    if !oneway {
                        connection.awaiting = id.call
                        fail(id, "org.varlink.service.InvalidParameter", ["parameter": .string(name)])
                    }
                    continue
                }
                connection.closing = "\(error)"
                return
            }
            // A oneway call is never awaited, so nothing is sent for it, whoever answers.
            if !call.oneway { connection.awaiting = id.call }
            if call.interface == "org.varlink.service" {
                answerService(call, id: id)
            } else if let interface = interfaces[call.interface] {
                if interface.methods.contains(call.methodName) {
                    events.append(.call(id, call, connection.caller))
                } else {
                    fail(id, "org.varlink.service.MethodNotFound", ["method": .string(call.method)])
                }
            } else {
                fail(id, "org.varlink.service.InterfaceNotFound", ["interface": .string(call.interface)])
            }
        }
    }

    private func answerService(_ call: VarlinkCall, id: VarlinkCallID) {
        switch call.methodName {
        case "GetInfo":
            reply(id, info)
        case "GetInterfaceDescription":
            guard case .string(let name)? = call.parameters["interface"] else {
                fail(id, "org.varlink.service.InvalidParameter", ["parameter": "interface"])
                return
            }
            if name == "org.varlink.service" {
                reply(id, ["description": .string(Self.serviceDescription)])
            } else if let interface = interfaces[name] {
                reply(id, ["description": .string(interface.description)])
            } else {
                fail(id, "org.varlink.service.InterfaceNotFound", ["interface": .string(name)])
            }
        default:
            fail(id, "org.varlink.service.MethodNotFound", ["method": .string(call.method)])
        }
    }

    private func flush(_ connection: Connection, now: Double) {
        guard !connection.unread.isEmpty else { return }
        let sent = connection.unread.withUnsafeBytes { Glibc.send(connection.fd.rawValue, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if sent < 0 {
            let error = Errno(rawValue: errno)
            if error != .wouldBlock && error != .interrupted { connection.closing = "writing failed: \(error)" }
        } else {
            connection.unread.removeFirst(sent)
        }
        connection.unreadSince = connection.unread.isEmpty ? nil : (connection.unreadSince ?? now)
    }

    /// org.varlink.service as varlink.org defines it.
    static let serviceDescription = """
        # The Varlink Service Interface is provided by every varlink service. It
        # describes the service and the interfaces it implements.
        interface org.varlink.service

        # Get a list of all the interfaces a service provides and information
        # about the implementation.
        method GetInfo() -> (
          vendor: string,
          product: string,
          version: string,
          url: string,
          interfaces: []string
        )

        # Get the description of an interface that is implemented by this service.
        method GetInterfaceDescription(interface: string) -> (description: string)

        # The requested interface was not found.
        error InterfaceNotFound (interface: string)

        # The requested method was not found
        error MethodNotFound (method: string)

        # The interface defines the requested method, but the service does not
        # implement it.
        error MethodNotImplemented (method: string)

        # One of the passed parameters is invalid.
        error InvalidParameter (parameter: string)

        # Client is denied access
        error PermissionDenied ()

        # Method is expected to be called with 'more' set to true, but wasn't
        error ExpectedMore ()

        """
}
