import Foundation
@testable import SignpadDaemon
import SignpadTestSupport
import Testing

/// The loop's longest turn: what a turn counts (the work after the poll, not the wait), and, through
/// PyPI's varlink client (Tests/api/turn_test.py), that `GetStatus` and the exit's report tell it.
@Suite struct LoopTurnTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func theLongestTurnCountsTheWorkNotTheWait() {
        var turns = LongestTurn()
        var clockReads = 0
        let wallClock = { clockReads += 1; return 1_800_000_000.0 + Double(clockReads) }
        turns.end(now: 5, wallClock: wallClock)
        #expect(turns.seconds == 0 && turns.endedAt == nil, "no turn has begun")
        turns.begin(now: 10, handling: .control)
        turns.end(now: 10.25, wallClock: wallClock)
        // 100 s waiting in poll between the turns is no turn's.
        turns.begin(now: 110.25, handling: [.input, .exports])
        turns.end(now: 110.26, wallClock: wallClock)
        #expect(turns.seconds == 0.25)
        #expect(turns.handled == .control && turns.handled.names == ["control"])
        #expect(turns.endedAt == 1_800_000_001, "the wall clock is read for a new longest only")
        turns.begin(now: 200, handling: [.input, .exports])
        turns.end(now: 201, wallClock: wallClock)
        #expect(turns.seconds == 1 && turns.handled.names == ["exports", "input"] && clockReads == 2)
    }

    @Test func getStatusAndTheExitReportTellTheLongestTurn() throws {
        try requirePeer(.pythonModule("varlink"))
        let result = try run("env", ["SIGNPAD=" + Self.root.appendingPathComponent(".build/debug/signpad").path,
                                     "python3", Self.root.appendingPathComponent("Tests/api/turn_test.py").path])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("OK"), "\(result.output)")
    }
}
