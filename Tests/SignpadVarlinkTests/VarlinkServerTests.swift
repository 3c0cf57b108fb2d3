import Foundation
import Glibc
import SignpadTestSupport
import Synchronization
@testable import SignpadVarlink
import Testing

/// The server on its own, with limits short enough to see them act, driven as the daemon's loop
/// drives it: poll its descriptors, hand it what poll said.
@Suite struct VarlinkServerTests {
    final class Running {
        let dir = scratch()
        let server: VarlinkServer
        var events: [VarlinkEvent] = []

        init(limits: VarlinkLimits) throws {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            server = try VarlinkServer(path: dir + "/c.sock", mode: 0o600, groupID: nil, limits: limits, interfaces: [],
                                       vendor: "test", product: "test", version: "0", url: "", uptime: { Running.now() })
        }

        deinit { removeScratch(dir) }

        static func now() -> Double {
            var ts = timespec()
            clock_gettime(CLOCK_MONOTONIC, &ts)
            return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
        }

        /// Turns of the loop for `seconds`.
        func turn(for seconds: Double) {
            let end = Self.now() + seconds
            while Self.now() < end {
                var fds: [pollfd] = []
                server.descriptors(into: &fds)
                _ = poll(&fds, nfds_t(fds.count), 20)
                events += server.handle(fds[...], now: Self.now())
            }
        }

        func connect() -> Int32 {
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            _ = UnixSocketAddress(dir + "/c.sock")!.withSockaddr { Glibc.connect(fd, $0, $1) }
            return fd
        }

        var dropReasons: [String] { events.compactMap { if case .dropped(_, let reason) = $0 { reason } else { nil } } }

        /// Sends `bytes` from a non-blocking client while the server turns, and reads the replies
        /// until `expected` have come, or nothing has moved for `quiet` seconds.
        func exchange(_ client: Int32, _ bytes: [UInt8], expected: Int, quiet: Double = 0.3) -> [JSONValue?] {
            _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
            var sent = 0, received: [UInt8] = [], replies = 0, lastNews = Self.now()
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while (replies < expected || sent < bytes.count) && Self.now() - lastNews < quiet {
                if sent < bytes.count {
                    let count = bytes[sent...].withUnsafeBytes { Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    if count > 0 { sent += count; lastNews = Self.now() }
                }
                turn(for: 0.005)
                while true {
                    let count = recv(client, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                    guard count > 0 else { break }
                    received += buffer[..<count]
                    replies += buffer[..<count].count { $0 == 0 }
                    lastNews = Self.now()
                }
            }
            guard received.last == 0 else { return received.isEmpty ? [] : [nil] }
            return received.dropLast().split(separator: 0, omittingEmptySubsequences: false).map { JSONValue(parsing: $0) }
        }
    }

    /// A point of sale may connect the moment the socket appears (a test waiting for the daemon
    /// does): the path must not exist before the socket listens, or the connection is refused.
    @Test func theSocketListensBeforeItsPathAppears() throws {
        let dir = scratch()
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { removeScratch(dir) }
        let path = dir + "/c.sock"
        final class Refusals: Sendable { let count = Atomic<Int>(0) }
        let refusals = Refusals()
        for _ in 0..<2000 {
            let ready = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
            Thread {
                ready.signal()
                let deadline = Running.now() + 2
                while access(path, F_OK) != 0 && Running.now() < deadline {}
                let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
                let connected = UnixSocketAddress(path)!.withSockaddr { Glibc.connect(fd, $0, $1) }
                if connected != 0 && errno == ECONNREFUSED { refusals.count.add(1, ordering: .relaxed) }
                close(fd)
                done.signal()
            }.start()
            // The watcher is looking before the socket is made.
            ready.wait()
            let server = try VarlinkServer(path: path, mode: 0o600, groupID: getgid(), limits: VarlinkLimits(), interfaces: [],
                                           vendor: "test", product: "test", version: "0", url: "", uptime: { Running.now() })
            done.wait()
            withExtendedLifetime(server) {}
        }
        let refused = refusals.count.load(ordering: .relaxed)
        #expect(refused == 0, "\(refused) of 2000 connections made as the path appeared were refused")
    }

    /// The socket is made beside the path: one left there by a signpad stopped while making it
    /// is replaced, and a file of someone else's is left alone, said by name.
    @Test func whatLiesWhereTheSocketIsMadeIsClearedOnlyIfItIsASocket() throws {
        let dir = scratch()
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { removeScratch(dir) }
        let path = dir + "/c.sock", making = VarlinkServer.makingName(path)
        #expect(making == dir + "/c.soc~" && making.utf8.count == path.utf8.count)
        func server() throws(VarlinkServerError) -> VarlinkServer {
            try VarlinkServer(path: path, mode: 0o600, groupID: nil, limits: VarlinkLimits(), interfaces: [],
                              vendor: "test", product: "test", version: "0", url: "", uptime: { Running.now() })
        }
        let leftOver = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        _ = UnixSocketAddress(making)!.withSockaddr { bind(leftOver, $0, $1) }
        close(leftOver)
        #expect(access(making, F_OK) == 0)
        withExtendedLifetime(try server()) {
            #expect(access(making, F_OK) != 0 && access(path, F_OK) == 0)
        }
        #expect(FileManager.default.createFile(atPath: making, contents: Data("notes".utf8)))
        #expect {
            _ = try server()
        } throws: { error in
            (error as? VarlinkServerError)?.reason.contains(making) == true && (error as? VarlinkServerError)?.path == path
        }
        #expect(try String(contentsOfFile: making, encoding: .utf8) == "notes")
    }

    @Test func aClientThatSendsNothingIsDroppedAfterTheIdleTime() throws {
        var limits = VarlinkLimits()
        limits.idleSeconds = 0.3
        let running = try Running(limits: limits)
        let silent = running.connect()
        defer { close(silent) }
        running.turn(for: 0.1)
        #expect(running.server.connectionCount == 1)
        running.turn(for: 0.5)
        #expect(running.server.connectionCount == 0)
        #expect(running.dropReasons.count == 1 && running.dropReasons[0].hasPrefix("sent nothing for"), "\(running.dropReasons)")
    }

    /// `echo '{"method":…}' | socat - UNIX-CONNECT:…` sends the call and shuts its side: it still gets its answer.
    @Test func aClientThatShutsItsSideAfterItsCallIsAnswered() throws {
        let running = try Running(limits: VarlinkLimits())
        let client = running.connect()
        defer { close(client) }
        let call = Array(#"{"method":"org.varlink.service.GetInfo"}"#.utf8) + [UInt8(0)]
        #expect(send(client, call, call.count, 0) == call.count)
        shutdown(client, Int32(SHUT_WR))
        running.turn(for: 0.2)
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(client, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        #expect(count > 0 && JSONValue(parsing: buffer[..<(count - 1)])?["parameters"]?["product"] == "test")
        #expect(running.server.connectionCount == 0, "then the connection is closed")
        #expect(running.dropReasons.isEmpty, "as a client that is done, not one dropped")
    }

    @Test func aCallWaitsForItsAnswerAndTheNextCallWaitsForIt() throws {
        let running = try Running(limits: VarlinkLimits())
        let client = running.connect()
        defer { close(client) }
        // Two calls at once: the second is taken only once the first is answered.
        let calls = #"{"method":"org.varlink.service.GetInfo"}"# + "\0" + #"{"method":"org.varlink.service.GetInfo","parameters":{}}"# + "\0"
        let bytes = Array(calls.utf8)
        #expect(send(client, bytes, bytes.count, 0) == bytes.count)
        running.turn(for: 0.2)
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(client, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        let replies = buffer[..<max(count, 0)].split(separator: 0)
        #expect(replies.count == 2, "both answered, in order")
        #expect(replies.allSatisfy { JSONValue(parsing: $0)?["parameters"]?["product"] == "test" })
    }

    /// Thousands of calls in one write, as a client that pipelines sends them: every one is
    /// answered, in order (a client matches replies to calls by their order).
    @Test func pipelinedCallsAreAllAnsweredInOrder() throws {
        let running = try Running(limits: VarlinkLimits())
        let client = running.connect()
        defer { close(client) }
        let count = 3000
        // The interface asked for is named in the answer (InterfaceNotFound), so the order shows.
        let calls: [UInt8] = (0..<count).flatMap {
            Array(#"{"method":"org.varlink.service.GetInterfaceDescription","parameters":{"interface":"call.n\#($0)"}}"#.utf8) + [UInt8(0)]
        }
        let replies = running.exchange(client, calls, expected: count)
        #expect(replies.count == count)
        let named = replies.map { reply -> String in
            guard case .string(let name)? = reply?["parameters"]?["interface"] else { return "?" }
            return name
        }
        let misplaced = named.enumerated().first { $0.element != "call.n\($0.offset)" }
        #expect(misplaced == nil, "first reply out of place: \(String(describing: misplaced))")
        #expect(running.dropReasons.isEmpty, "\(running.dropReasons)")
    }

    /// A client that sends calls and never reads their replies: once the replies fill its socket,
    /// signpad takes none of its calls until it reads (its sends block, as a full socket's do),
    /// and when it is dropped it reads the replies sent and then the end, not a reset.
    @Test func aClientThatLeavesItsRepliesUnreadIsTakenNoMoreCallsFrom() throws {
        var limits = VarlinkLimits()
        limits.unreadSeconds = 2
        let running = try Running(limits: limits)
        let client = running.connect()
        defer { close(client) }
        _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
        let call = Array(#"{"method":"org.varlink.service.GetInfo"}"#.utf8) + [UInt8(0)]
        var sent = 0, blockedSince: Double?
        while sent < 20_000, Running.now() - (blockedSince ?? Running.now()) < 0.3 {
            if send(client, call, call.count, Int32(MSG_NOSIGNAL)) == call.count {
                sent += 1
                blockedSince = nil
            } else {
                blockedSince = blockedSince ?? Running.now()
            }
            running.turn(for: sent % 64 == 0 || blockedSince != nil ? 0.002 : 0)
        }
        #expect(sent < 20_000, "its sends block: signpad stopped reading it")
        #expect(running.dropReasons.isEmpty, "not yet dropped")
        running.turn(for: 2.5)
        #expect(running.dropReasons.count == 1 && running.dropReasons[0].hasPrefix("left its replies unread"), "\(running.dropReasons)")
        var buffer = [UInt8](repeating: 0, count: 65_536), replies = 0, end = -1
        while true {
            let count = recv(client, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            guard count > 0 else { end = count == 0 ? 0 : Int(errno); break }
            replies += buffer[..<count].count { $0 == 0 }
        }
        #expect(end == 0, "the end of the stream, not errno \(end)")
        #expect(replies > 0 && replies < sent, "the replies sent before the drop, \(replies) of \(sent) calls")
    }

    /// varlink.org: a call with "oneway" gets no reply, whether it succeeds or fails.
    @Test func aOnewayCallGetsNoReply() throws {
        let running = try Running(limits: VarlinkLimits())
        let client = running.connect()
        defer { close(client) }
        let calls: [UInt8] = [
            #"{"method":"org.varlink.service.GetInfo","oneway":true}"#,
            #"{"method":"org.varlink.service.GetInterfaceDescription","parameters":{"interface":"no.such"},"oneway":true}"#,
            #"{"method":"org.varlink.service.Nope","oneway":true}"#,
            #"{"method":"com.example.Other.Do","oneway":true}"#,
            #"{"method":"org.varlink.service.GetInterfaceDescription","parameters":{"interface":"org.varlink.service"}}"#,
        ].flatMap { Array($0.utf8) + [UInt8(0)] }
        let replies = running.exchange(client, calls, expected: 2)
        #expect(replies.count == 1, "only the last call is answered: \(replies)")
        #expect(replies.first??["parameters"]?["description"] != nil)
    }

    /// A call whose parameter nests too deep is answered InvalidParameter and the connection goes on;
    /// a message nested too deep outside its parameters cannot be a call and is dropped.
    @Test func aCallNestedTooDeepGetsInvalidParameter() throws {
        let running = try Running(limits: VarlinkLimits())
        let client = running.connect()
        defer { close(client) }
        // The message is depth 1 and its parameters 2, so 63 arrays in a parameter make 65.
        let nested = JSONParsingTests.nested
        let calls: [UInt8] = [
            #"{"method":"org.varlink.service.GetInfo","parameters":{"x":"# + nested(63, "1") + "}}",
            #"{"method":"org.varlink.service.GetInfo","parameters":{"x":"# + nested(62, "1") + "}}",
        ].flatMap { Array($0.utf8) + [UInt8(0)] }
        let replies = running.exchange(client, calls, expected: 2)
        #expect(replies.count == 2)
        #expect(replies.first??["error"] == "org.varlink.service.InvalidParameter")
        #expect(replies.first??["parameters"]?["parameter"] == "x")
        #expect(replies.last??["parameters"]?["product"] == "test", "64 deep is read")
        #expect(running.dropReasons.isEmpty, "\(running.dropReasons)")

        let other = running.connect()
        defer { close(other) }
        #expect(running.exchange(other, Array(nested(65, "1").utf8) + [0], expected: 1).isEmpty)
        #expect(running.dropReasons.contains { $0.contains("deeper than 64") }, "\(running.dropReasons)")
    }
}

/// JSON as a client sends it: read in one pass over its bytes, at most `JSONValue.depthLimit` deep.
@Suite struct JSONParsingTests {
    static func nested(_ depth: Int, _ inner: String) -> String {
        String(repeating: "[", count: depth) + inner + String(repeating: "]", count: depth)
    }

    @Test func aValue64DeepIsReadAndOne65DeepIsRefused() {
        #expect(JSONValue(parsing: Array(Self.nested(64, "1").utf8)) != nil)
        #expect(JSONValue(parsing: Array(Self.nested(65, "1").utf8)) == nil)
        // Objects count as arrays do.
        let objects = String(repeating: #"{"a":"#, count: 65) + "1" + String(repeating: "}", count: 65)
        #expect(JSONValue(parsing: Array(objects.utf8)) == nil)
        #expect(JSONValue(parsing: Array(objects.utf8.dropFirst(5).dropLast())) != nil)
    }

    /// What the parser reads agrees with Foundation's JSONSerialization, an independent reader:
    /// escapes, surrogate pairs, numbers, and what RFC 8259 refuses.
    @Test(arguments: [
        #"{"a":[1,-2.5e3,0.25,true,false,null],"b":{"c":"x\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00é"}}"#,
        #"  [ ]  "#, #"{}"#, #""plain""#, #"-0"#, #"1E+2"#, #"[{"k":[{}]}]"#,
        #"[01]"#, #"[1.]"#, #"[.5]"#, #"["\ud800"]"#, #"["\x"]"#, "[\"\u{01}\"]",
        #"[1] 2"#, #"{"a" 1}"#, #"[tru]"#, #"{'a':1}"#, #""#, #"[1e]"#, #"[-]"#, #"["a"#,
    ])
    func readsWhatJSONSerializationReads(text: String) throws {
        let ours = JSONValue(parsing: Array(text.utf8))
        let theirs = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        #expect((ours != nil) == (theirs != nil), "\(text): ours \(String(describing: ours)), Foundation's \(String(describing: theirs))")
        if let ours, let theirs { #expect(ours == Self.value(theirs), "\(text)") }
    }

    /// Foundation's reader takes a trailing comma; RFC 8259 does not, nor does signpad.
    @Test func aTrailingCommaIsNotJSON() {
        #expect(JSONValue(parsing: Array(#"[1,]"#.utf8)) == nil)
        #expect(JSONValue(parsing: Array(#"{"a":1,}"#.utf8)) == nil)
    }

    static func value(_ object: Any) -> JSONValue {
        switch object {
        case is NSNull: .null
        case let number as NSNumber where String(cString: number.objCType) == "c": .bool(number.boolValue)
        case let number as NSNumber: .number(number.doubleValue)
        case let string as String: .string(string)
        case let array as [Any]: .array(array.map(value))
        case let object as [String: Any]: .object(object.mapValues(value))
        default: .null
        }
    }

    /// The kinds of message that froze the loop for minutes come back at once (this test did not
    /// end under the old parser, whose cost grew as depth^2.5).
    @Test func deepNestingIsReadOverInOnePass() {
        #expect(JSONValue(parsing: Array(repeating: UInt8(ascii: "["), count: 100_000)) == nil)
        // 60 KB of arrays 500 deep, as one parameter of a call.
        let deep = (0..<60).map { _ in Self.nested(500, "1") }.joined(separator: ",")
        let message = #"{"method":"org.varlink.service.GetInfo","parameters":{"x":["# + deep + "]}}"
        #expect(message.utf8.count > 60_000)
        #expect(JSONValue(parsing: Array(message.utf8)) == nil)
        #expect(throws: VarlinkProtocolError.parameterTooDeep("x", limit: JSONValue.depthLimit, oneway: false)) {
            try VarlinkCall(message: Array(message.utf8))
        }
    }

    /// A field no call has is ignored, however deep its value: the call is read and answered
    /// (the connection was dropped). Deep where the call is read, it is still refused.
    @Test func aDeepValueInAnUnknownFieldIsIgnoredLikeTheField() throws {
        let message = #"{"method":"org.signpad.Kiosk.GetStatus","trace":"# + Self.nested(100, "1") + "}"
        let call = try VarlinkCall(message: Array(message.utf8))
        #expect(call.method == "org.signpad.Kiosk.GetStatus")
        #expect(call.parameters.isEmpty)
        let deepMethod = #"{"method":"# + Self.nested(100, "1") + "}"
        #expect(throws: VarlinkProtocolError.field("method", expected: "a string")) { try VarlinkCall(message: Array(deepMethod.utf8)) }
        #expect(throws: VarlinkProtocolError.tooDeep(limit: JSONValue.depthLimit)) {
            try VarlinkCall(message: Array(Self.nested(100, "1").utf8))
        }
    }
}

@Suite struct VarlinkFramerTests {
    /// A client that streams without pause, cut at odd places: every message comes back whole,
    /// in order, and `hasMessage` says so without the loop scanning the buffer.
    @Test func aStreamCutAnywhereGivesBackEveryMessage() throws {
        let sent = (0..<1000).map { Array(#"{"method":"org.signpad.Kiosk.GetStatus","n":\#($0)}"#.utf8) }
        let stream: [UInt8] = sent.flatMap { $0 + [UInt8(0)] }
        var framer = VarlinkFramer(limit: 4096)
        var received: [[UInt8]] = []
        var offset = 0
        while offset < stream.count {
            let end = min(offset + 37, stream.count)
            framer.append(stream[offset..<end])
            offset = end
            while framer.hasMessage, let message = try framer.next() { received.append(message) }
            #expect(!framer.hasMessage)
        }
        #expect(received == sent)
        #expect(framer.partialBytes == 0)
    }
}
