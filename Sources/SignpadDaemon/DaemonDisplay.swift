import SignpadDRM
import SignpadVocabulary

/// A screen the daemon serves the kiosk on: the panel through DRM, or one in memory for a
/// daemon without devices (`signpad run --offscreen`).
protocol DaemonDisplay: Display {
    /// What the journal and the status call it: connector and mode.
    var shownName: String { get }
    /// Why it went away, once it has.
    var lossReason: String? { get }
    func checkPresence()
    func close()
    /// The size a configuration's mode would have on it; nil: the one shown.
    func modeSize(for options: DisplayOptions) throws -> (width: Int, height: Int)?
    /// How the screen is told what changed, for the latency report.
    var flushDescription: String { get }
}

extension DRMDisplay: DaemonDisplay {
    var shownName: String { "\(connectorName) \(modeName)" }
    var lossReason: String? { loss.map { "\($0)" } }
    var flushDescription: String { dirtyFB.rawValue }
}

extension HeadlessDisplay: DaemonDisplay {
    var shownName: String { "offscreen \(scanout.width)x\(scanout.height)" }
    var lossReason: String? { nil }
    func checkPresence() {}
    func close() {}
    func modeSize(for options: DisplayOptions) throws -> (width: Int, height: Int)? { nil }
    var flushDescription: String { "none (offscreen)" }
}
