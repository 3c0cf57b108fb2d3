import Foundation
import Logging
import SignpadConfig
@testable import SignpadDaemon
import SignpadDRM
import SignpadExport
import SignpadKiosk
import SignpadOutbox
import SignpadTestSupport
import SignpadText
import SignpadVarlink
import Testing

// The daemon installs signal handlers for the whole process, so these run one at a time.
@Suite(.serialized) struct DaemonStartTests {
    /// A GPU driver that loads after the service starts (or a panel switched off at boot) must not
    /// make the start fail: systemd retries a failed start only a few times, then the kiosk never
    /// shows. Meanwhile a signature left in the spool by the last run is written.
    @Test func aDisplayNotThereYetIsWaitedForWhileTheSpoolIsWritten() throws {
        let dir = scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let spool = SignatureSpool(directory: dir + "/spool")
        try FileManager.default.createDirectory(atPath: spool.directory, withIntermediateDirectories: true)
        try spool.keep(sealed(record("left-by-a-power-cut")))
        let card = dir + "/dri/card0"
        let config = try quietConfig(["display.device=\"\(card)\"", "display.vt=\"\"", "export.directory=\"\(dir)/out\"",
                                      "export.spool_directory=\"\(spool.directory)\""])
        let written = dir + "/out/20261121T170502Z-left-by-a-power-cut.meta.json"
        let (log, outcome) = runWaitingForADisplay(config) { log in FileManager.default.fileExists(atPath: written) && log.text.contains("waiting for a display") }

        #expect(FileManager.default.fileExists(atPath: written), "the spooled signature was not written while waiting")
        #expect(names(spool.directory).isEmpty, "the spool still holds \(names(spool.directory))")
        let waiting = log.text.components(separatedBy: "\n").filter { $0.contains("waiting for a display") }
        #expect(waiting.count == 1, "\(log.text)")
        #expect(waiting.first?.contains(card) == true && waiting.first?.contains("is a KMS driver loaded?") == true, "\(waiting)")
        guard case .success(let exit)? = outcome.value else {
            Issue.record("run() did not return after SIGTERM: \(String(describing: outcome.value))")
            return
        }
        #expect(exit == .stopped)
    }

    /// Export failures while the kiosk waits for a display are told as when it shows: the spool's
    /// signatures are retried meanwhile, and a folder that refuses them is no silent matter.
    @Test func exportFailuresWhileWaitingForADisplayAreLogged() throws {
        let dir = scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let spool = SignatureSpool(directory: dir + "/spool")
        try FileManager.default.createDirectory(atPath: spool.directory, withIntermediateDirectories: true)
        try spool.keep(sealed(record("kept-while-dark")))
        // A folder inside a regular file: no one, root included, can make it.
        #expect(FileManager.default.createFile(atPath: dir + "/not-a-folder", contents: Data()))
        let config = try quietConfig(["display.device=\"\(dir)/dri/card0\"", "display.vt=\"\"", "export.directory=\"\(dir)/not-a-folder/out\"",
                                      "export.spool_directory=\"\(spool.directory)\"", "export.retry_seconds=0.2"])
        // The stop gives the unwritable folder its 20 s before the signature is left in the spool.
        let (log, outcome) = runWaitingForADisplay(config, stopWithin: 25) { $0.text.contains("signature=20261121T170502Z-kept-while-dark") }
        #expect(log.text.contains("error: export failed, kept and retried reason="), "\(log.text)")
        #expect(log.text.contains(" retry_seconds=0.2 signature=20261121T170502Z-kept-while-dark"), "\(log.text)")
        #expect(names(spool.directory) == ["20261121T170502Z-kept-while-dark.spool.json"], "kept in the spool")
        guard case .success(.stopped)? = outcome.value else {
            Issue.record("run() did not stop after SIGTERM: \(String(describing: outcome.value))")
            return
        }
    }

    /// What waiting cannot mend (a file that is no DRM card: a configuration error) fails the start at once.
    @Test func aCardThatIsNoDisplayFailsTheStartAtOnce() throws {
        let dir = scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // The spool is made in it: a start refuses a spool it cannot make.
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let config = try quietConfig(["display.device=\"/dev/null\"", "display.vt=\"\"", "export.directory=\"\(dir)/out\"",
                                      "export.spool_directory=\"\(dir)/spool\""])
        let daemon = Daemon(config: config, logger: CollectedLog().logger()) { config }
        #expect(throws: DisplayError.noDumbBuffers(path: "/dev/null")) { try daemon.run() }
        restoreDefaultSignals()
    }

    /// A SIGHUP with a configuration whose start would fail (here a signing key that is no key)
    /// is refused, with the reason in the journal: the kiosk goes on as it was, its screen shown
    /// and its socket answering, where it used to hand back the screen to a start that exited 78.
    @Test func aReloadThatWouldNotStartIsRefusedAndTheKioskGoesOn() throws {
        let dir = scratch()
        defer { removeScratch(dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: dir + "/garbage.key", contents: Data("not a key".utf8)))
        // Requested mode: nobody is at the pad until a request comes, so a reload is not put off.
        let running = try controlledConfig(dir, ["kiosk.mode=\"requested\""])
        let broken = try controlledConfig(dir, ["kiosk.mode=\"requested\"", "export.signing_key=\"\(dir)/garbage.key\""])
        var answered: VarlinkClientReply?
        let (log, outcome) = runOffscreen(running, loadConfig: { broken }) { log in
            kill(getpid(), SIGHUP)
            waitFor { log.text.contains("reload") }
            answered = try? call(dir + "/control.sock", "org.signpad.Kiosk.GetStatus")
        }
        #expect(log.text.contains("error: not reloading; still running with the configuration loaded at start reason=export.signing_key: \(dir)/garbage.key"),
                "\(log.text)")
        #expect(!log.text.contains("the configuration loads"), "\(log.text)")
        guard case .parameters(let status, _)? = answered else {
            Issue.record("the socket did not answer after the refused reload: \(String(describing: answered))")
            return
        }
        #expect(status["display"] == .string("offscreen 640x400"), "the kiosk is still shown: \(status)")
        guard case .success(.stopped)? = outcome.value else {
            Issue.record("run() did not go on until SIGTERM: \(String(describing: outcome.value))")
            return
        }
    }

    /// An export folder that fails from the start (here under a regular file, which no one can
    /// make it in) shows in GetStatus's exportFailing at once, not only after a customer's
    /// signature has failed to be written there.
    @Test func aFolderThatFailsFromTheStartShowsInTheStatus() throws {
        let dir = scratch()
        defer { removeScratch(dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: dir + "/a-file", contents: Data()))
        let config = try controlledConfig(dir, ["kiosk.mode=\"requested\"", "export.directory=\"\(dir)/a-file/out\""])
        var failing: JSONValue?
        _ = runOffscreen(config, loadConfig: { config }) { _ in
            waitFor(seconds: 3) {
                guard case .parameters(let status, _)? = try? call(dir + "/control.sock", "org.signpad.Kiosk.GetStatus") else { return false }
                failing = status["exportFailing"]
                return failing != nil
            }
        }
        guard case .string(let reason)? = failing else {
            Issue.record("GetStatus has no exportFailing for a folder that cannot be made: \(String(describing: failing))")
            return
        }
        #expect(reason.contains("\(dir)/a-file/out"), "\(reason)")
    }

    /// A panel without the configured mode fails the start (a mistake in the file, most likely),
    /// but after the display was lost it is waited out: the panel that has the mode may come back.
    @Test func aMissingModeIsWaitedOutOnlyAfterALoss() {
        let missing = DisplayError.modeNotFound(path: "/dev/dri/card0", connector: "HDMI-A-1", mode: "1000x700", available: ["1024x768"])
        #expect(!missing.mayPassByItself(afterLoss: false))
        #expect(missing.mayPassByItself(afterLoss: true))
        // What no panel swap mends still fails, after a loss too.
        #expect(!DisplayError.noDumbBuffers(path: "/dev/null").mayPassByItself(afterLoss: true))
        #expect(DisplayError.notConnected(path: "/dev/dri/card0", connector: "HDMI-A-1").mayPassByItself(afterLoss: false))
        // A connector behind a DisplayPort hub goes with its panel and comes back with it; at
        // start, a name no connector has is a mistake in the file.
        let gone = DisplayError.connectorNotFound(path: "/dev/dri/card0", name: "DP-3", connectors: ["DP-1", "HDMI-A-1"])
        #expect(!gone.mayPassByItself(afterLoss: false))
        #expect(gone.mayPassByItself(afterLoss: true))
    }
}

final class Outcome: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<Daemon.Exit, any Error>?
    var value: Result<Daemon.Exit, any Error>? { lock.withLock { result } }
    func set(_ value: Result<Daemon.Exit, any Error>) { lock.withLock { result = value } }
}

/// Runs the daemon on a thread of its own until `done` says so (or 20 s pass), then a little
/// longer for one more display try, then stops it with SIGTERM as systemd would.
private func runWaitingForADisplay(_ config: Config, stopWithin stopSeconds: Double = 10,
                                   until done: (CollectedLog) -> Bool) -> (CollectedLog, Outcome) {
    let log = CollectedLog()
    let outcome = Outcome()
    // The daemon lives on its thread alone; this one only watches the folders, the log and the outcome.
    let thread = Thread { [log] in
        let daemon = Daemon(config: config, logger: log.logger()) { config }
        outcome.set(Result { try daemon.run() })
    }
    thread.start()
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline && !done(log) { Thread.sleep(forTimeInterval: 0.05) }
    // Long enough for at least one more try, which must not log the same reason again.
    Thread.sleep(forTimeInterval: DisplayWait.retrySeconds + 0.5)
    #expect(outcome.value == nil, "run() ended while it should wait: \(String(describing: outcome.value))")
    // Only a running daemon has its handler in place; without it SIGTERM would end the tests.
    if outcome.value == nil { kill(getpid(), SIGTERM) }
    let stopBy = Date().addingTimeInterval(stopSeconds)
    while outcome.value == nil && Date() < stopBy { Thread.sleep(forTimeInterval: 0.05) }
    restoreDefaultSignals()
    return (log, outcome)
}

/// A configuration with its own folders and control socket in `dir`.
func controlledConfig(_ dir: String, _ overrides: [String] = []) throws -> Config {
    try Config.load(text: "", file: "(test)", overrides: [
        "export.directory=\"\(dir)/out\"", "export.spool_directory=\"\(dir)/spool\"", "export.signing_key=\"\(dir)/signing.key\"",
        "control.socket=\"\(dir)/control.sock\"", "control.group=\"\"", "control.results=\"\(dir)/requests.json\"",
    ] + overrides)
}

/// Waits up to `seconds` for `condition`.
func waitFor(seconds: Double = 10, _ condition: () -> Bool) {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline && !condition() { Thread.sleep(forTimeInterval: 0.02) }
}

/// One call on the control socket, and its reply.
func call(_ socket: String, _ method: String, _ parameters: [String: JSONValue] = [:]) throws -> VarlinkClientReply {
    let client = try VarlinkClient(path: socket)
    try client.send(method, parameters, more: false)
    return try client.next()
}

/// Runs the daemon on a screen in memory (640x400, the demo recording) on a thread of its own;
/// once it is ready, `whileRunning` acts on it, then SIGTERM stops it as systemd would.
func runOffscreen(_ config: Config, loadConfig: @escaping @Sendable () throws -> Config,
                  whileRunning: (CollectedLog) -> Void) -> (CollectedLog, Outcome) {
    let log = CollectedLog()
    let outcome = Outcome()
    guard let recording = try? demoRecording() else {
        Issue.record("the demo recording does not load")
        return (log, outcome)
    }
    let thread = Thread { [log] in
        let daemon = Daemon(config: config, logger: log.logger(),
                            offscreen: Daemon.Offscreen(width: 640, height: 400, recording: recording, confirmAtEnd: false), loadConfig: loadConfig)
        outcome.set(Result { try daemon.run() })
    }
    thread.start()
    waitFor { log.text.contains("ready: ") || outcome.value != nil }
    if outcome.value == nil { whileRunning(log) }
    // Only a running daemon has its handler in place; without it SIGTERM would end the tests.
    if outcome.value == nil { kill(getpid(), SIGTERM) }
    waitFor { outcome.value != nil }
    restoreDefaultSignals()
    return (log, outcome)
}

func restoreDefaultSignals() {
    for s in [SIGTERM, SIGINT, SIGHUP] { signal(s, SIG_DFL) }
}

/// What `systemctl status signpad` shows.
@Suite struct ServiceStatusTests {
    @Test func theStatusSaysWhatIsShownAndRead() {
        let idle = ServiceStatus(display: "HDMI-A-1 1920x1080", inputs: [], message: .none, unwritten: 0)
        #expect(idle.line == "showing HDMI-A-1 1920x1080; waiting for a touch device")
        let reading = ServiceStatus(display: "HDMI-A-1 1920x1080", inputs: ["/dev/input/event4 \"panel touch\"", "/dev/input/event5 \"panel pen\""],
                                    message: .saving, unwritten: 1)
        #expect(reading.line == "showing HDMI-A-1 1920x1080; input /dev/input/event4 \"panel touch\", /dev/input/event5 \"panel pen\"")
    }

    @Test func aFailingExportComesFirst() {
        let failing = ServiceStatus(display: "Virtual-1 1024x768", inputs: ["/dev/input/event2 \"t\""], message: .saveFailed("/srv/sig: disk full"), unwritten: 2)
        #expect(failing.line.hasPrefix("NOT SAVING: /srv/sig: disk full; 2 signature(s) kept and retried; showing Virtual-1 1024x768"))
        let saved = ServiceStatus(display: "Virtual-1 1024x768", inputs: ["/dev/input/event2 \"t\""], message: .saved, unwritten: 0)
        #expect(saved != failing && !saved.line.contains("NOT SAVING"))
    }
}

/// What ends the daemon with EX_CONFIG, which the unit does not restart: what the configuration
/// names and this kiosk lacks. What may pass, or needs the system mended, ends it with 1.
@Suite struct MisconfigurationTests {
    @Test func whatTheConfigurationNamesAndTheKioskLacksIsAMisconfiguration() throws {
        let fitsNot: [Error] = [
            DisplayError.connectorNotFound(path: "/dev/dri/card0", name: "HDMI-A-9", connectors: ["HDMI-A-1"]),
            DisplayError.modeNotFound(path: "/dev/dri/card0", connector: "HDMI-A-1", mode: "1234x567", available: ["1920x1080"]),
        ]
        for error in fitsNot { #expect(Daemon.isMisconfiguration(error), "\(error)") }
        #expect(throws: ScreenSizeError.self) { try KioskLayout.requireRoom(width: 160, height: 120) }
        do {
            try KioskLayout.requireRoom(width: 160, height: 120)
        } catch {
            #expect(Daemon.isMisconfiguration(error), "\(error)")
        }
        do {
            _ = try ChromePainter(style: KioskStyle(), backgroundImage: "/nonexistent/brand.png", width: 10, height: 10)
            Issue.record("expected the image not to load")
        } catch {
            #expect(Daemon.isMisconfiguration(error), "\(error)")
        }
        let mayPass: [Error] = [
            DisplayError.permissionDenied(path: "/dev/dri/card0"), DisplayError.masterHeld(path: "/dev/dri/card0"),
            DisplayError.call(path: "/dev/dri/card0", operation: "drmModeSetCrtc", errno: .ioError),
            DaemonError(description: "poll failed: Interrupted system call"),
        ]
        for error in mayPass { #expect(!Daemon.isMisconfiguration(error), "\(error)") }
    }
}
