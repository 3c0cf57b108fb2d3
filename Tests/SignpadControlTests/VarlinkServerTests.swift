import Foundation
import Glibc
import SignpadTestSupport
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
                                       vendor: "test", product: "test", version: "0", url: "")
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
        let call = Array(#"{"method":"org.varlink.service.GetInfo"}"#.utf8) + [0]
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
