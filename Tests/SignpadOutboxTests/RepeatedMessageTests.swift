@testable import SignpadOutbox
import SignpadVocabulary
import Testing

@Suite struct RepeatedMessageTests {
    static let diskFull = Notice(.error, "disk full", ["folder": "/srv/sig"])

    @Test func theSameNoticeIsHeldBackForItsIntervalThenToldWithItsCount() {
        var message = RepeatedMessage(interval: 600)
        var told: [String] = []
        for second in stride(from: 0.0, through: 1800, by: 5) {
            if let notice = message.notice(Self.diskFull, now: second) { told.append(notice.line) }
        }
        let again = "disk full (folder=/srv/sig, repeated=119 more times over the last 10 min)"
        #expect(told == ["disk full (folder=/srv/sig)", again, again, again])
    }

    @Test func aNewNoticeIsToldAtOnceAndTheEndSaysHowLongItLasted() {
        var message = RepeatedMessage(interval: 600)
        let notWritable = Notice(.error, "disk full", ["folder": "/srv/other"])
        #expect(message.end(now: 1) == nil, "nothing came")
        #expect(message.notice(Self.diskFull, now: 10) == Self.diskFull)
        #expect(message.notice(Self.diskFull, now: 15) == nil)
        #expect(message.notice(notWritable, now: 20) == notWritable, "another field is another notice")
        #expect(message.end(now: 10 + 3 * 3600 + 300) == "3 h 5 min")
        #expect(message.notice(notWritable, now: 11000) == notWritable, "after the end, new again")
    }

    @Test func durationsReadAsPeopleSayThem() {
        #expect(RepeatedMessage.duration(40) == "40 s")
        #expect(RepeatedMessage.duration(719) == "11 min")
        #expect(RepeatedMessage.duration(7200) == "2 h 0 min")
    }
}
