import SignpadKiosk

/// The line `systemctl status signpad` shows (sd_notify's STATUS=), kept current while signpad
/// runs: what it shows on, which devices it reads, and whether signatures are being written. A
/// monitoring system, or staff at a shell, can tell a kiosk's health from it at a glance.
struct ServiceStatus: Equatable {
    /// Connector and mode, e.g. "HDMI-A-1 1920x1080".
    var display: String
    /// Each device read, as its path and name.
    var inputs: [String]
    /// Why the export folder is not being written, while it is not (the message staff see).
    var exportProblem: String?
    /// Signatures confirmed and not yet written.
    var unwritten: Int

    init(display: String, inputs: [String], message: KioskMessage, unwritten: Int) {
        self.display = display
        self.inputs = inputs
        if case .saveFailed(let reason) = message { exportProblem = reason }
        self.unwritten = unwritten
    }

    var line: String {
        let reading = inputs.isEmpty ? "waiting for a touch device" : "input " + inputs.joined(separator: ", ")
        let running = "showing \(display); \(reading)"
        // First, so that it is what a truncated `systemctl status` line still shows.
        guard let exportProblem else { return running }
        return "NOT SAVING: \(exportProblem); \(unwritten) signature(s) kept and retried; \(running)"
    }
}
