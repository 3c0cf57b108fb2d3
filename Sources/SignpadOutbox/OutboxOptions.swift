/// What the outbox takes from the configuration (`[export]`'s folders and clocks): where
/// signatures go, where they wait, how often a failed write is tried again, how long they stay.
public struct OutboxOptions: Equatable, Sendable {
    /// The export folder (`export.directory`).
    public var directory = "/var/lib/signpad/signatures"
    /// Seconds between tries of a write that failed (`export.retry_seconds`).
    public var retrySeconds = 5.0
    /// Where each confirmed signature is kept until its exports are written; nil: nowhere but memory.
    public var spoolDirectory: String? = "/var/lib/signpad/spool"
    /// Signatures older than this are deleted from the export folder; 0: kept for ever.
    public var retentionDays = 0
    /// The RFC 3161 time-stamp authority asked for a token over each written signature
    /// (`export.timestamp_url`); nil: none.
    public var timestampURL: String?

    public init() {}
}
