@testable import SignpadOutbox
import Testing

@Suite struct RepeatedMessageTests {
    @Test func theSameMessageIsHeldBackForItsIntervalThenSaidWithItsCount() {
        var message = RepeatedMessage(interval: 600)
        var said: [String] = []
        for second in stride(from: 0.0, through: 1800, by: 5) {
            if let line = message.line(for: "disk full", now: second) { said.append(line) }
        }
        #expect(said == ["disk full",
                         "disk full (the same 119 more times over the last 10 min)",
                         "disk full (the same 119 more times over the last 10 min)",
                         "disk full (the same 119 more times over the last 10 min)"])
    }

    @Test func aNewMessageIsSaidAtOnceAndTheEndSaysHowLongItLasted() {
        var message = RepeatedMessage(interval: 600)
        #expect(message.end(now: 1) == nil, "nothing came")
        #expect(message.line(for: "disk full", now: 10) == "disk full")
        #expect(message.line(for: "disk full", now: 15) == nil)
        #expect(message.line(for: "not writable", now: 20) == "not writable")
        #expect(message.end(now: 10 + 3 * 3600 + 300) == "3 h 5 min")
        #expect(message.line(for: "not writable", now: 11000) == "not writable", "after the end, new again")
    }

    @Test func durationsReadAsPeopleSayThem() {
        #expect(RepeatedMessage.duration(40) == "40 s")
        #expect(RepeatedMessage.duration(719) == "11 min")
        #expect(RepeatedMessage.duration(7200) == "2 h 0 min")
    }
}
