import Foundation
import Logging
import SignpadConfig
import SignpadControl
import SignpadDRM
import SignpadExport
import SignpadInput
import SignpadKiosk
import SignpadOutbox
import SignpadSession
import SignpadSystemd
import SignpadText
import SignpadVarlink
import SignpadVocabulary

/// `signpad run`: one poll loop over the touch devices, signals, export results and timers.
public final class Daemon {
    /// How `run` ended. Either way the screen, the console and the touch device were handed back.
    public enum Exit: Equatable, Sendable {
        /// SIGTERM or SIGINT.
        case stopped
        /// SIGHUP, with a configuration that loads: the caller starts signpad again in this
        /// process (`startAgain`), which reads the configuration as any start does.
        case reload
    }

    let config: Config
    /// Reads the configuration again from where this one came from (file and `--set`).
    let loadConfig: () throws -> Config
    let logger: Logger
    var reloadRequested = false
    /// The devices read, in the order they were opened.
    var inputs: [TouchInput] = []
    var latencies = LatencyHistogram()
    /// While no device is open, when to look again.
    var nextRescan = 0.0
    var missingLogged = false
    /// Without `input.device`, when to look for touchscreens and pens to add (or to take in place
    /// of an absolute pointer). A look opens devices only when /dev/input changed since
    /// `nodesLookedAt`, or when a device that would not open is due another try at `retryFailedAt`.
    var nextDeviceCheck = 0.0
    var nodesLookedAt: [String] = []
    var retryFailedAt = Double.infinity
    /// Instead of the panel and its devices: a screen in memory, and a recording for input.
    let offscreen: Offscreen?
    /// The point of sale's API; nil without `control.socket`.
    var control: ControlService?
    /// The key and certificate the exports are sealed with, once loaded at start.
    var evidence: Evidence?

    /// A daemon without devices, for tests and demos: the recording is played each time a request
    /// shows (in walk-up mode, once at start), and with `confirmAtEnd` Done is pressed at its end.
    public struct Offscreen {
        public var width: Int
        public var height: Int
        public var recording: EvemuRecording
        public var confirmAtEnd: Bool

        public init(width: Int, height: Int, recording: EvemuRecording, confirmAtEnd: Bool) {
            self.width = width
            self.height = height
            self.recording = recording
            self.confirmAtEnd = confirmAtEnd
        }
    }

    public init(config: Config, logger: Logger, offscreen: Offscreen? = nil, loadConfig: @escaping () throws -> Config) {
        self.config = config
        self.loadConfig = loadConfig
        self.logger = logger
        self.offscreen = offscreen
    }

    /// Whether an error that ended the daemon is its configuration not fitting this kiosk: a
    /// connector or mode the panel does not have, a background image that does not load, a screen
    /// too small for the kiosk. Like a file that does not load, a restart would meet it again, so
    /// it ends signpad with `Config.unusableExitStatus`, which the unit does not restart.
    public static func isMisconfiguration(_ error: Error) -> Bool {
        switch error {
        case let display as DisplayError:
            switch display {
            case .connectorNotFound, .modeNotFound: return true
            default: return false
            }
        case is PainterError, is ScreenSizeError, is ExportGroupError, is ControlSocketError, is EvidenceError: return true
        default: return false
        }
    }

    public static func monotonic() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    public func run() throws -> Exit {
        // Logged before anything can wait (the display may not come for minutes at boot).
        logger.info("signpad \(SignpadVersion.current) starting: configuration \(config.source)")
        for problem in config.fontProblems { logger.warning("\(problem)") }
        if let group = config.export.group { try ExportGroupError.check(group) }
        let service = ServiceManager()
        let signals = try SignalWatcher([SIGTERM, SIGINT, SIGHUP])
        let (evidence, createdKey) = try config.evidence()
        logger.notice(createdKey ? "signing key made" : "signing key",
                      metadata: ["path": "\(config.signingKey)", "sha256": "\(evidence.signingKey.publicKey.fingerprint)"])
        if let recipient = evidence.recipient {
            logger.notice("biometric data sealed to certificate", metadata: ["subject": "\(recipient.subject)", "sha256": "\(recipient.fingerprint)"])
        }
        self.evidence = evidence
        let retention = config.retentionDays == 0 ? nil : Retention(days: config.retentionDays) { [logger] event in
            switch event {
            case .deleted(let id, let from): logger.notice("signature deleted: retention", metadata: ["id": "\(id)", "folder": "\(from)"])
            case .failed(let reason): logger.error("retention: cannot delete", metadata: ["reason": "\(reason)"])
            }
        }
        let exporter = Exporter(directory: config.exportDirectory, options: config.export, evidence: evidence, retrySeconds: config.retrySeconds,
                                spool: config.spoolDirectory.map(SignatureSpool.init), retention: retention)
        defer { exporter.stop() }
        // Not here: a share that does not answer would keep the kiosk dark.
        exporter.prepareBeforeWriting { [logger] error in logger.error("export folder: \(error); signatures are kept and retried") }
        // Before the screen: what the spool holds is written even while there is none.
        recoverSpool(exporter)
        control = try makeControl()
        defer { control?.detach(because: "signpad stopped") }
        if let offscreen {
            // A display in memory is never lost: serve returns only on a signal, having finished the exports.
            let display = OffscreenDisplay(width: offscreen.width, height: offscreen.height, rotation: config.display.rotation)
            return try serve(display, exporter: exporter, service: service, signals: signals) ?? .stopped
        }
        var lost = false
        while true {
            let display: DRMDisplay
            switch try waitForDisplay(service: service, signals: signals, exporter: exporter, afterLoss: lost) {
            case .opened(let opened):
                display = opened
            case .ended(let exit):
                if exit == .stopped { finishExports(exporter, lastFailure: nil) }
                return exit
            }
            if let exit = try serve(display, exporter: exporter, service: service, signals: signals) { return exit }
            lost = true
        }
    }

    /// The kiosk on one display, until a signal ends it (its `Exit`) or the display goes away (nil:
    /// the caller waits for one again; the exporter and its spool go on meanwhile).
    func serve(_ display: some DaemonDisplay, exporter: Exporter, service: ServiceManager, signals: SignalWatcher) throws -> Exit? {
        defer { display.close() }
        let session = try Session(config: config, display: display, exporter: exporter, painter: config.screenPainter) { [logger] in logger.info("\($0)") }
        let playback = try offscreen.map { try RecordingPlayback($0.recording, session: session, confirmAtEnd: $0.confirmAtEnd) }
        if playback == nil { openInputs(session: session, now: Self.monotonic()) }
        if config.rules.mode == .walkUp { playback?.start(now: Self.monotonic()) }
        var playedFor = session.request?.id
        let shown = display.shownName
        control?.attach(session)
        control?.status = { [unowned self] in controlStatus(shown, session: session, exporter: exporter) }
        control?.notReady = { [unowned self] in
            playback == nil && inputs.isEmpty ? "no touch device\(config.inputDevice.map { " matching \($0)" } ?? "") (see signpad devices)" : nil
        }
        defer { control?.attach(nil) }
        var status = serviceStatus(shown, session: session, exporter: exporter)
        service.ready(status: status.line)
        logger.info("ready: signpad \(SignpadVersion.current), kiosk \"\(config.kioskName)\", export folder \(config.exportDirectory)")
        var nextWatchdog = Self.monotonic(), nextPresenceCheck = Self.monotonic() + 1
        var exit = Exit.stopped
        var polled = PollSet()

        loop: while true {
            let now = Self.monotonic()
            if let interval = service.watchdogInterval, now >= nextWatchdog {
                service.watchdog()
                nextWatchdog = now + interval
            }
            if playback == nil {
                if inputs.isEmpty && now >= nextRescan { openInputs(session: session, now: now) }
                if config.inputDevice == nil && !inputs.isEmpty && now >= nextDeviceCheck { lookForMoreInputs(session: session, now: now) }
            }
            var deadline = min(session.nextDeadline, now + 1)
            if service.watchdogInterval != nil { deadline = min(deadline, nextWatchdog) }
            if playback == nil && inputs.isEmpty { deadline = min(deadline, nextRescan) }
            if let playback { deadline = min(deadline, playback.nextDeadline) }
            if let server = control?.server { deadline = min(deadline, server.nextDeadline(now: now)) }
            polled.clear()
            polled.add(signals.fd, as: .signals)
            polled.add(exporter.wakeFD, as: .exports)
            if let server = control?.server { polled.add(server) }
            for (index, input) in inputs.enumerated() { polled.add(input.device.fd, as: .input(index)) }
            try polled.wait(seconds: deadline - now)
            if polled.isReady(.signals), let signal = signals.take() {
                if signal == SIGHUP {
                    requestReload(session: session, display: display, exporter: exporter)
                } else {
                    logger.notice("received signal \(signal): stopping")
                    break loop
                }
            }
            // The devices polled, by their index then: one closed while reading leaves the others as they were.
            let opened = inputs
            for (index, input) in opened.enumerated() {
                let events = polled.events(of: .input(index))
                if events != 0 { readInput(input, session: session, hangup: events & Int16(POLLHUP | POLLERR) != 0) }
            }
            if let control { control.handle(control.server.handle(polled.control, now: Self.monotonic()), now: Self.monotonic()) }
            if let playback {
                // Each request shown gets the recording from its start.
                if let id = session.request?.id, id != playedFor { playback.start(now: Self.monotonic()) }
                playedFor = session.request?.id
                playback.play(until: Self.monotonic(), into: session) { latencies.record(seconds: Self.monotonic() - $0) }
            }
            session.tick(now: Self.monotonic())
            if Self.monotonic() >= nextPresenceCheck {
                display.checkPresence()
                nextPresenceCheck = Self.monotonic() + 1
                let current = serviceStatus(shown, session: session, exporter: exporter)
                if current.line != status.line {
                    status = current
                    service.status(status.line)
                }
            }
            if let loss = display.lossReason {
                logger.error("the display is lost: \(loss); any unconfirmed signature on it is dropped; waiting for a display again")
                control?.detach(because: "the display was lost (\(loss))")
                // Their decoders map touches to this display's size.
                closeInputs(session: session)
                report(session: session, display: display)
                return nil
            }
            if reloadRequested && session.kiosk.isBetweenCustomers && exporter.pendingOutsideSpool == 0 {
                reloadRequested = false
                // Read once more: the file may have changed since the signal.
                if configurationLoads(then: "reloading: handing back the screen and starting again", shown: display) {
                    exit = .reload
                    break loop
                }
            }
        }

        if exit == .reload {
            // Every pending signature is in the spool, which the new start writes.
            service.reloading()
        } else {
            service.stopping()
        }
        if exit == .stopped { finishExports(exporter, lastFailure: session.lastFailure) }
        // The results of the exports just finished answer their requests; what is left then is told as such.
        session.tick(now: Self.monotonic())
        control?.detach(because: exit == .reload ? "signpad reloaded its configuration" : "signpad stopped")
        session.blank()
        report(session: session, display: display)
        return exit
    }

    func serviceStatus(_ shown: String, session: Session, exporter: Exporter) -> ServiceStatus {
        ServiceStatus(display: shown, inputs: inputs.map { "\($0.path) \"\($0.name)\"" }, message: session.kiosk.message, unwritten: exporter.pending)
    }

    /// How `waitForDisplay` ended.
    enum DisplayWait {
        case opened(DRMDisplay)
        /// A signal ended the wait: SIGTERM or SIGINT, or SIGHUP with a configuration that loads.
        case ended(Exit)
    }

    static let displayRetrySeconds = 2.0

    /// Opens the display, and while there is none to take yet (see `DisplayError.mayPassByItself`)
    /// tries again every two seconds, feeding the watchdog and obeying signals. systemd is told
    /// READY with the reason as the status: the service is up and waiting, as it waits for a
    /// touch device. A start that failed instead would be retried only a few times before
    /// systemd gave up, and a kiosk whose panel was off at boot would never show.
    func waitForDisplay(service: ServiceManager, signals: SignalWatcher, exporter: Exporter, afterLoss: Bool) throws -> DisplayWait {
        var reported: String?
        var nextWatchdog = Self.monotonic()
        // The spool is written meanwhile; its failures are told as a running kiosk tells them.
        var journal = ExportJournal(directory: config.exportDirectory, retrySeconds: config.retrySeconds)
        var status = ""
        var polled = PollSet()
        func showStatus() {
            let waiting = "waiting for a display: \(reported ?? "")"
            let line = journal.failing.map { "NOT SAVING: \($0); \(exporter.pending) signature(s) kept and retried; \(waiting)" } ?? waiting
            if line != status { service.ready(status: line) }
            status = line
        }
        while true {
            switch openDisplay() {
            case .success(let display):
                if reported != nil { logger.notice("the display is there after waiting for it") }
                return .opened(display)
            case .failure(let error) where !error.mayPassByItself(afterLoss: afterLoss):
                throw error
            case .failure(let error):
                if error.description != reported {
                    logger.warning("waiting for a display: \(error); trying again every \(Int(Self.displayRetrySeconds)) s")
                    reported = error.description
                    showStatus()
                }
            }
            let retry = Self.monotonic() + Self.displayRetrySeconds
            var now = Self.monotonic()
            while now < retry {
                if let interval = service.watchdogInterval, now >= nextWatchdog {
                    service.watchdog()
                    nextWatchdog = now + interval
                }
                let deadline = service.watchdogInterval == nil ? retry : min(retry, nextWatchdog)
                polled.clear()
                polled.add(signals.fd, as: .signals)
                polled.add(exporter.wakeFD, as: .exports)
                if let server = control?.server { polled.add(server) }
                try polled.wait(seconds: min(deadline, control?.server.nextDeadline(now: now) ?? .infinity) - now)
                // Answered meanwhile: a request is NotReady, the status says what is awaited.
                control?.status = { [unowned self] in controlStatus(nil, session: nil, exporter: exporter) }
                if let control { control.handle(control.server.handle(polled.control, now: Self.monotonic()), now: Self.monotonic()) }
                if polled.isReady(.exports) {
                    for result in exporter.results() {
                        for line in journal.lines(for: result, now: Self.monotonic()) {
                            result.error == nil ? logger.info("\(line)") : logger.error("\(line)")
                        }
                    }
                    showStatus()
                }
                if polled.isReady(.signals), let signal = signals.take() {
                    if signal != SIGHUP {
                        logger.notice("received signal \(signal): stopping")
                        service.stopping()
                        return .ended(.stopped)
                    }
                    // Nobody can be at a pad that shows nothing: a configuration that loads applies at once.
                    if configurationLoads(then: "received SIGHUP: the configuration loads; reloading now, as there is no display yet") {
                        service.reloading()
                        return .ended(.reload)
                    }
                }
                now = Self.monotonic()
            }
        }
    }

    /// The control socket and its service, if `control.socket` is set.
    func makeControl() throws -> ControlService? {
        guard let path = config.controlSocket else { return nil }
        let groupID = try Self.controlGroupID(config)
        let server: VarlinkServer
        do {
            server = try VarlinkServer(path: path, mode: 0o660, groupID: groupID, interfaces: [KioskInterface.varlink], vendor: "signpad",
                                       product: "signpad kiosk signature pad", version: SignpadVersion.current, url: "https://github.com/signpad/signpad")
        } catch {
            throw ControlSocketError(description: "\(error)")
        }
        let now = Date().timeIntervalSince1970
        let results: RequestResults
        do {
            results = try RequestResults(path: config.requestResults, now: now)
        } catch {
            logger.error("request results not read; starting with none", metadata: ["path": "\(config.requestResults)", "reason": "\(error.reason)"])
            results = RequestResults(emptyAt: config.requestResults)
        }
        logger.info("control socket ready", metadata: ["path": "\(path)", "group": "\(config.controlGroup ?? "(signpad's own)")"])
        return ControlService(server: server, results: results, exportsPNG: config.export.formats.contains(.png), logger: logger)
    }

    /// The group the control socket is given to (nil: the signpad user's own); one that does not
    /// exist stops signpad at start, and check-config says so too.
    public static func controlGroupID(_ config: Config) throws(ControlSocketError) -> gid_t? {
        guard config.controlSocket != nil, let group = config.controlGroup else { return nil }
        guard let entry = getgrnam(group) else {
            throw ControlSocketError(description: "control.group: no group \"\(group)\" on this machine; the package creates it (systemd-sysusers), else create it (groupadd \(group)) and add the point of sale's user, or set control.group = \"\" for the signpad user's own group")
        }
        return entry.pointee.gr_gid
    }

    /// `GetStatus`: what `systemctl status` says, as data.
    func controlStatus(_ shown: String?, session: Session?, exporter: Exporter) -> [String: JSONValue] {
        var status: [String: JSONValue] = [
            "kiosk": .string(config.kioskName), "mode": .string(config.rules.mode == .walkUp ? "walkUp" : "requested"),
            "inputs": .array(offscreen.map { [.string("recording \($0.recording.device.name)")] } ?? inputs.map { .string("\($0.path) \"\($0.name)\"") }),
            "exportFolder": .string(config.exportDirectory), "unwritten": .number(Double(exporter.pending)),
        ]
        if let shown { status["display"] = .string(shown) }
        if let evidence {
            status["signingKey"] = .string(evidence.signingKey.publicKey.fingerprint)
            if let recipient = evidence.recipient { status["recipientCertificate"] = .string(recipient.fingerprint) }
        }
        if let failure = session?.lastFailure, exporter.pending > 0 { status["exportFailing"] = .string(failure) }
        return status
    }

    func openDisplay() -> Result<DRMDisplay, DisplayError> {
        Result { () throws(DisplayError) in try DRMDisplay(options: config.display) { [logger] in logger.info("\($0)") } }
    }

    /// On the way out after SIGTERM: pending exports get up to 20 s; what is still unwritten then
    /// is logged as kept in the spool for the next start, or as lost.
    func finishExports(_ exporter: Exporter, lastFailure: String?) {
        let pending = exporter.pending
        guard pending > 0 else { return }
        logger.notice("finishing \(pending) pending export(s) before exit")
        guard !exporter.waitUntilIdle(timeout: 20) else { return }
        let unwritten = exporter.pending, lost = exporter.pendingOutsideSpool
        let reason = lastFailure.map { ": \($0)" } ?? ""
        if lost > 0 {
            logger.critical("\(lost) signature(s) could not be written to \(config.exportDirectory) nor kept in a spool before exit and are lost\(reason)")
        }
        if let spool = config.spoolDirectory, unwritten > lost {
            logger.error("\(unwritten - lost) signature(s) could not be written to \(config.exportDirectory) before exit; they are kept in \(spool) and written at the next start\(reason)")
        }
    }

    /// SIGHUP: reload at once if nobody is at the pad, else once the customer is done. A memory-only
    /// signature (the spool failed too) also holds the reload back until it is written.
    func requestReload(session: Session, display: any DaemonDisplay, exporter: Exporter) {
        let inMemory = exporter.pendingOutsideSpool
        let waitFor = !session.kiosk.isBetweenCustomers ? "; reloading once nobody is at the pad"
            : inMemory > 0 ? "; reloading once the \(inMemory) signature(s) held in memory only are written" : ""
        reloadRequested = configurationLoads(then: "received SIGHUP: the configuration loads\(waitFor)", shown: display)
    }

    /// Loads the configuration as a start would and logs `message`, or logs why not and that
    /// signpad goes on with the one it runs. With a display shown, the new configuration must
    /// also be able to start on it: a connector or mode the panel does not have, a mode too
    /// small for the kiosk, or a background image that does not load would fail the new start
    /// and leave the kiosk dark.
    func configurationLoads(then message: String, shown display: (any DaemonDisplay)? = nil) -> Bool {
        do {
            let next = try loadConfig()
            if let display {
                let size = try display.modeSize(for: next.display) ?? (display.scanout.width, display.scanout.height)
                let turned = Scanout(width: size.width, height: size.height, rotation: next.display.rotation)
                try KioskLayout.requireRoom(width: turned.logicalWidth, height: turned.logicalHeight)
                _ = try ChromePainter(style: next.style, backgroundImage: next.backgroundImage, width: turned.logicalWidth, height: turned.logicalHeight)
            }
            logger.notice("\(message)")
            return true
        } catch {
            logger.error("not reloading: \(error); still running with the configuration loaded at start")
            return false
        }
    }

    /// Starts signpad again in this process with the same arguments. The PID stays, so systemd
    /// sees the same service; every descriptor is close-on-exec. Returns only on failure.
    public static func startAgain() -> DaemonError {
        // Ignored stays ignored across exec: a second SIGHUP before the new start installs its
        // handler would otherwise end signpad, and systemd does not restart a service a SIGHUP ended.
        signal(SIGHUP, SIG_IGN)
        var argv = CommandLine.arguments.map { strdup($0) } + [nil]
        execv("/proc/self/exe", &argv)
        return DaemonError(description: "could not start again to reload (execv /proc/self/exe): \(String(cString: strerror(errno)))")
    }

    /// Queues what an earlier run left unwritten in the spool.
    func recoverSpool(_ exporter: Exporter) {
        guard let spool = config.spoolDirectory else { return }
        do {
            let (count, problems) = try exporter.recoverSpool(olderFilesAs: config.captureSettings)
            for problem in problems { logger.error("spool: \(problem)") }
            if count > 0 { logger.notice("\(count) signature(s) from before the last exit found in \(spool); writing them to \(config.exportDirectory)") }
        } catch {
            logger.error("spool \(spool): \(error); confirmed signatures are kept in memory only until written")
        }
    }

    func report(session: Session, display: some DaemonDisplay) {
        let frame = Double(display.scanout.width * display.scanout.height * 4)
        let perEvent = Double(session.inkBytes) / Double(max(session.inkEvents, 1))
        if latencies.total == 0 {
            logger.notice("latency: no ink events")
        } else {
            let p50 = Int(latencies.quantile(0.5)), p99 = Int(latencies.quantile(0.99))
            logger.notice("latency event→DirtyFB: n=\(latencies.total) p50=\(p50) µs p99=\(p99) µs (±9%); flushed \(Int(perEvent)) bytes/event = \(String(format: "%.4f", 100 * perEvent / frame))% of a frame; DirtyFB \(display.flushDescription)")
        }
    }
}

/// The control socket cannot be made as configured: a misconfiguration, which a restart would meet again.
public struct ControlSocketError: Error, CustomStringConvertible {
    public var description: String
}

public struct DaemonError: Error, CustomStringConvertible {
    public var description: String

    public init(description: String) { self.description = description }
}
