import SignpadOutbox
import SignpadSession

/// What the daemon's loop serves: a kiosk on a display, or, while there is none, the wait for one.
/// One loop runs both, so signals, the exporter and the control socket are read the same way in each.
enum DaemonStage {
    case waiting(DisplayWait)
    case showing(ShownKiosk)
}

/// No display yet, or it was lost: the loop tries to open one every two seconds, while the spool
/// is written and its failures told as a running kiosk tells them.
struct DisplayWait {
    /// A display lost after it had shown (a cable pulled) may take longer to come back than one
    /// at boot; see `DisplayError.mayPassByItself`.
    var afterLoss: Bool
    var retryAt: Double
    /// Why the last try failed, as logged.
    var reported: String?
    var journal: ExportJournal
    /// The status line systemd was last given.
    var status = ""

    static let retrySeconds = 2.0

    init(afterLoss: Bool, now: Double, exportDirectory: String, retrySeconds: Double) {
        self.afterLoss = afterLoss
        retryAt = now
        journal = ExportJournal(directory: exportDirectory, retrySeconds: retrySeconds)
    }

    /// The status for systemd: what is awaited, and first, as a kiosk's does, exports failing.
    func statusLine(pending: Int) -> String {
        let waiting = "waiting for a display: \(reported ?? "")"
        return journal.failing.map { "NOT SAVING: \($0); \(pending) signature(s) kept and retried; \(waiting)" } ?? waiting
    }
}

/// The kiosk on a display.
final class ShownKiosk {
    let display: any DaemonDisplay
    let session: Session
    /// `run --offscreen`'s recording, played into the session.
    let playback: RecordingPlayback?
    /// The request the recording was last started for: each request shown gets it from its start.
    var playedFor: String?
    var status: ServiceStatus
    var nextPresenceCheck: Double

    init(display: any DaemonDisplay, session: Session, playback: RecordingPlayback?, status: ServiceStatus, now: Double) {
        self.display = display
        self.session = session
        self.playback = playback
        self.status = status
        playedFor = session.kiosk.request?.id
        nextPresenceCheck = now + 1
    }
}
