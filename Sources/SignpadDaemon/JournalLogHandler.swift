import Foundation
import Logging

/// Log lines for systemd's journal when standard error is its stream: each line starts with the
/// syslog priority of its level (`<4>` for a warning), which journald keeps as the entry's
/// PRIORITY, so `journalctl -p warning -u signpad` shows the warnings and worse. The journal
/// stamps the time, the unit and the pid itself; the line is the message, then its metadata.
public struct JournalLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    private let write: @Sendable (String) -> Void

    /// Writing to standard error; `write` for the tests.
    public init(write: @escaping @Sendable (String) -> Void = JournalLogHandler.writeToStandardError) {
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
        write(Self.line(level: event.level, message: "\(event.message)", fields: fields))
    }

    /// `<priority>message key=value…`, one line: a newline in the message would start an entry of
    /// its own, at the default priority.
    public static func line(level: Logger.Level, message: String, fields: Logger.Metadata) -> String {
        let text = message.replacingOccurrences(of: "\n", with: " ")
        let pairs = fields.sorted { $0.key < $1.key }.map { " \($0.key)=\("\($0.value)".replacingOccurrences(of: "\n", with: " "))" }.joined()
        return "<\(priority(level))>\(text)\(pairs)\n"
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
