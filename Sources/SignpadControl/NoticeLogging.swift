import Logging
import SignpadVocabulary

extension Logger {
    /// The core's notice in the journal at its level, its fields as metadata: for the daemon, and for
    /// the control service, which takes the session's events after its own calls.
    public func tell(_ notice: Notice, file: String = #fileID, function: String = #function, line: UInt = #line) {
        let level: Logger.Level = switch notice.level {
        case .info: .info
        case .notice: .notice
        case .warning: .warning
        case .error: .error
        }
        log(level: level, "\(notice.message)", metadata: notice.fields.mapValues { .string($0) }, file: file, function: function, line: line)
    }
}
