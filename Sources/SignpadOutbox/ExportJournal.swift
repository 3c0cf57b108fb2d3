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

    /// The lines to log for one result.
    public mutating func lines(for result: Exporter.Result, now: Double) -> [String] {
        var lines: [String] = []
        if let error = result.error {
            let message = "export of \(result.recordID) failed, kept and retried every \(retrySeconds) s: \(error)"
            if let line = failures.line(for: message, now: now) { lines.append(line) }
            failing = error
        } else {
            let mended = failures.end(now: now).map { " (writes work again after \($0) of failures)" } ?? ""
            lines.append("saved \(result.recordID)\(result.exportID == nil ? " (from the spool)" : "") to \(directory)\(mended)")
            failing = nil
        }
        if let spoolError = result.spoolError, let line = spoolProblems.line(for: "signature \(result.recordID): \(spoolError)", now: now) {
            lines.append(line)
        }
        return lines
    }
}
