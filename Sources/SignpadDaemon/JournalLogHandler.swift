import FoundationEssentials
import Glibc
import Logging
import SignpadSystemd

/// signpad's log in systemd's journal, when standard error is its stream. Each entry goes through
/// the journal's own protocol: MESSAGE is the short line a person reads (`journalctl -u signpad`),
/// PRIORITY its level (`journalctl -p warning`), and each detail of the metadata a field of its
/// own, `SIGNPAD_` and its key in capitals (`journalctl -u signpad SIGNPAD_REQUEST=…`, or
/// `-o verbose` to see them), with CODE_FILE, CODE_LINE and CODE_FUNC for where it was said.
/// An entry the journal does not take is written to standard error as a line instead: its
/// priority (`<4>` for a warning), the message, then its metadata.
public struct JournalLogHandler: LogHandler {
    public typealias Field = (name: String, value: String)
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    private let send: @Sendable ([Field]) -> Bool
    private let write: @Sendable (String) -> Void

    /// Through the journal's socket, else standard error; `send` and `write` for the tests.
    public init(send: @escaping @Sendable ([Field]) -> Bool = Journal.send,
                write: @escaping @Sendable (String) -> Void = JournalLogHandler.writeToStandardError) {
        self.send = send
        self.write = write
    }

    /// One write(2) per line, so lines from several threads do not mix; an error is ignored, as
    /// swift-log's own handler does (FileHandle's write would trap on EPIPE).
    @Sendable public static func writeToStandardError(_ line: String) {
        var line = line
        line.withUTF8 { bytes in
            var done = 0
            while done < bytes.count {
                let wrote = Glibc.write(STDERR_FILENO, bytes.baseAddress! + done, bytes.count - done)
                if wrote > 0 { done += wrote } else if wrote < 0 && errno == EINTR { continue } else { return }
            }
        }
    }

    /// Whether standard error is the journal's stream: systemd sets JOURNAL_STREAM to its device and
    /// inode (a service whose stderr was redirected elsewhere still inherits the variable).
    public static var standardErrorIsTheJournal: Bool {
        guard let stream = ProcessInfo.processInfo.environment["JOURNAL_STREAM"] else { return false }
        var status = stat()
        guard fstat(STDERR_FILENO, &status) == 0 else { return false }
        return stream == "\(status.st_dev):\(status.st_ino)"
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let fields = (event.metadata ?? [:]).merging(metadata) { own, _ in own }
        let message = "\(event.message)"
        if !send(Self.entry(level: event.level, message: message, fields: fields, file: event.file, function: event.function, line: event.line)) {
            write(Self.line(level: event.level, message: message, fields: fields))
        }
    }

    /// The journal entry's fields: the message, its priority, signpad's name, the details in key
    /// order and where it was said. A newline would split the line `journalctl` shows, and make
    /// the journal keep the field as binary.
    public static func entry(level: Logger.Level, message: String, fields: Logger.Metadata,
                             file: String, function: String, line: UInt) -> [Field] {
        var entry: [Field] = [("MESSAGE", oneLine(message)), ("PRIORITY", "\(priority(level))"), ("SYSLOG_IDENTIFIER", "signpad")]
        entry += fields.sorted { $0.key < $1.key }.map { (Journal.fieldName($0.key, prefix: "SIGNPAD_"), oneLine("\($0.value)")) }
        entry += [("CODE_FILE", file), ("CODE_LINE", "\(line)"), ("CODE_FUNC", function)]
        return entry
    }

    /// `<priority>message key=value…`, one line: a newline in the message would start an entry of
    /// its own, at the default priority.
    public static func line(level: Logger.Level, message: String, fields: Logger.Metadata) -> String {
        let pairs = fields.sorted { $0.key < $1.key }.map { " \($0.key)=\(oneLine("\($0.value)"))" }.joined()
        return "<\(priority(level))>\(oneLine(message))\(pairs)\n"
    }

    /// Each carriage return and line feed a space, by scalar: "\r\n" is one Character, which a
    /// replacement of "\n" would not match.
    private static func oneLine(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { out.append(scalar == "\n" || scalar == "\r" ? " " : scalar) }
        return String(out)
    }

    /// syslog's priorities (sd-daemon.h's SD_ERR and the rest).
    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }
}
