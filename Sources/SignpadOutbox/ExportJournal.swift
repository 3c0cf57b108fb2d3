import SignpadVocabulary

/// What the journal hears of finished exports, wherever the daemon is (a kiosk on screen, or
/// waiting for a display while the spool is written): each failure when it changes and then at
/// most every ten minutes with how often it came, the end of a run of failures, each write, and
/// the spool's own problems.
public struct ExportJournal {
    public let directory: String
    public let retrySeconds: Double
    /// The last export failure seen; nil once a write works again.
    public private(set) var failing: String?
    private var failures = RepeatedMessage(interval: 600)
    private var spoolProblems = RepeatedMessage(interval: 600)

    public init(directory: String, retrySeconds: Double) {
        self.directory = directory
        self.retrySeconds = retrySeconds
    }

    /// The notices for one result.
    public mutating func notices(for result: Exporter.Result, now: Double) -> [Notice] {
        var told: [Notice] = []
        if let error = result.error {
            // The signature is a field of the one told, not of the failure held back; the reason
            // itself often names the signature's file, so each signature's failure is told once.
            let failure = Notice(.error, "export failed, kept and retried", ["reason": error, "retry_seconds": "\(retrySeconds)"])
            if var notice = failures.notice(failure, now: now) {
                notice.fields["signature"] = result.recordID
                told.append(notice)
            }
            failing = error
        } else {
            var fields = ["signature": result.recordID, "folder": directory]
            if result.exportID == nil { fields["from"] = "the spool" }
            if let lasted = failures.end(now: now) {
                told.append(Notice(.notice, "signature saved; writes work again after \(lasted) of failures", fields))
            } else {
                told.append(Notice(.info, "signature saved", fields))
            }
            failing = nil
        }
        if let spoolError = result.spoolError,
           var notice = spoolProblems.notice(Notice(.warning, "the spool failed for a signature", ["reason": spoolError]), now: now) {
            notice.fields["signature"] = result.recordID
            told.append(notice)
        }
        return told
    }
}
