import Logging
import SignpadDaemon
import Synchronization
import Testing

@Suite struct JournalLogHandlerTests {
    @Test func eachLevelIsTheJournalsPriorityAndTheFieldsFollowTheMessage() {
        let written = Mutex<[String]>([])
        var logger = Logger(label: "signpad") { _ in JournalLogHandler { line in written.withLock { $0.append(line) } } }
        logger.logLevel = .debug
        logger[metadataKey: "pid"] = "7"
        logger.debug("turn")
        logger.info("ready")
        logger.notice("reloading")
        logger.warning("no usable touch device", metadata: ["device": "/dev/input/event2"])
        logger.error("export failed, kept and retried", metadata: ["signature": "S1", "reason": "disk full"])
        logger.critical("two\nlines")
        #expect(written.withLock { $0 } == [
            "<7>turn pid=7\n", "<6>ready pid=7\n", "<5>reloading pid=7\n", "<4>no usable touch device device=/dev/input/event2 pid=7\n",
            "<3>export failed, kept and retried pid=7 reason=disk full signature=S1\n", "<2>two lines pid=7\n",
        ])
    }

    @Test func aLevelBelowTheLoggersIsNotWritten() {
        let written = Mutex<[String]>([])
        var logger = Logger(label: "signpad") { _ in JournalLogHandler { line in written.withLock { $0.append(line) } } }
        logger.logLevel = .warning
        logger.info("ready")
        logger.warning("stalled")
        #expect(written.withLock { $0 } == ["<4>stalled\n"])
    }
}
