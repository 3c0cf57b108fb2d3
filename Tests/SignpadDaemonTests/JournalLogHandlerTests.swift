import Glibc
import Logging
import SignpadDaemon
import Synchronization
import Testing

@Suite struct JournalLogHandlerTests {
    /// An entry the journal does not take is a line on standard error, with its priority first.
    @Test func eachLevelIsTheJournalsPriorityAndTheFieldsFollowTheMessage() {
        let written = Mutex<[String]>([])
        var logger = Logger(label: "signpad") { _ in JournalLogHandler(send: { _ in false }, write: { line in written.withLock { $0.append(line) } }) }
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

    /// A client's text with CRLF or a bare CR in it cannot start a line of its own (a forged priority).
    @Test func aCarriageReturnNeverStartsALine() {
        let line = JournalLogHandler.line(level: .info, message: "a\r\n<0>forged\rb", fields: ["path": "x\r\n<0>y"])
        #expect(line == "<6>a  <0>forged b path=x  <0>y\n")
        #expect(!line.dropLast().contains { $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
    }

    @Test func aLevelBelowTheLoggersIsNotWritten() {
        let written = Mutex<[String]>([])
        var logger = Logger(label: "signpad") { _ in JournalLogHandler(send: { _ in false }, write: { line in written.withLock { $0.append(line) } }) }
        logger.logLevel = .warning
        logger.info("ready")
        logger.warning("stalled")
        #expect(written.withLock { $0 } == ["<4>stalled\n"])
    }

    /// Through the journal's protocol the line is the message alone, and each detail a field.
    @Test func theJournalGetsTheMessageAloneAndEachDetailAsAField() throws {
        let sent = Mutex<[[JournalLogHandler.Field]]>([])
        let written = Mutex<[String]>([])
        var logger = Logger(label: "signpad") { _ in
            JournalLogHandler(send: { entry in sent.withLock { $0.append(entry) }; return true },
                              write: { line in written.withLock { $0.append(line) } })
        }
        logger[metadataKey: "caller"] = "uid=0 pid=7"
        logger.error("export failed, kept and retried", metadata: ["reason": "disk\nfull", "idle_seconds": "30"])
        let entries = sent.withLock { $0 }
        #expect(written.withLock { $0 }.isEmpty)
        let entry = try #require(entries.first)
        let fields = Dictionary(entry.map { ($0.name, $0.value) }) { first, _ in first }
        #expect(entry.prefix(3).map(\.name) == ["MESSAGE", "PRIORITY", "SYSLOG_IDENTIFIER"])
        #expect(fields["MESSAGE"] == "export failed, kept and retried" && fields["PRIORITY"] == "3" && fields["SYSLOG_IDENTIFIER"] == "signpad")
        #expect(fields["SIGNPAD_REASON"] == "disk full" && fields["SIGNPAD_IDLE_SECONDS"] == "30" && fields["SIGNPAD_CALLER"] == "uid=0 pid=7")
        #expect(fields["CODE_FILE"]?.hasSuffix("JournalLogHandlerTests.swift") == true && fields["CODE_FUNC"] != nil && Int(fields["CODE_LINE"] ?? "") != nil)
        #expect(entry.count == 9)
    }

    /// Under systemd, JOURNAL_STREAM names standard error's device and inode; a variable left
    /// over from a parent whose stderr was the journal, with stderr now elsewhere, does not count.
    @Test func standardErrorIsTheJournalOnlyWhenJournalStreamNamesIt() {
        var status = stat()
        #expect(fstat(STDERR_FILENO, &status) == 0)
        let before = getenv("JOURNAL_STREAM").map { String(cString: $0) }
        defer { if let before { setenv("JOURNAL_STREAM", before, 1) } else { unsetenv("JOURNAL_STREAM") } }
        setenv("JOURNAL_STREAM", "\(status.st_dev):\(status.st_ino)", 1)
        #expect(JournalLogHandler.standardErrorIsTheJournal)
        setenv("JOURNAL_STREAM", "\(status.st_dev):\(status.st_ino + 1)", 1)
        #expect(!JournalLogHandler.standardErrorIsTheJournal)
        unsetenv("JOURNAL_STREAM")
        #expect(!JournalLogHandler.standardErrorIsTheJournal)
    }
}
