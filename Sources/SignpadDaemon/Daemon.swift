import FoundationEssentials
import Glibc
import Logging
import SignpadConfig
import SignpadControl
import SignpadDRM
import SignpadExport
import SignpadInput
import SignpadKiosk
import SignpadOutbox
import SignpadPageRender
import SignpadSession
import SignpadSystemCheck
import SignpadSystemd
import SignpadTimestamp
import SignpadText
import SignpadVarlink
import SignpadVocabulary
import SystemPackage

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
    /// Where every time the daemon, its session, exporter and control service read comes from.
    let time: TimeSource
    var reloadRequested = false
    /// The reload's evidence was handed to the exporter for what it holds in memory only.
    var resealedForReload = false
    /// The devices read, in the order they were opened.
    var inputs: [TouchInput] = []
    var latencies = LatencyHistogram()
    /// The loop's longest turn since start (`GetStatus`, the exit's report).
    var longestTurn = LongestTurn()
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
    /// The exporter of this start, and the kiosk on a display with its name and whether a recording
    /// plays into it: what the control service is told of (see `ControlHost`).
    var exporter: Exporter?
    var presented: (name: String, session: Session, playsRecording: Bool)?
    /// The key and certificate the exports are sealed with, once loaded at start.
    var evidence: Evidence?
    /// The export folder's failure at start, until a signature is written (`GetStatus`).
    let folderProbe = ExportFolderProbe()
    /// When the recipient certificate ends, for the journal's warnings ahead of it.
    var certificateExpiry: CertificateExpiry?
    /// The kiosk's document certificate's end, warned of as the recipient's is.
    var documentCertificateExpiry: CertificateExpiry?
    /// Asks `export.timestamp_url` for each written signature's token; nil without one.
    var timeStamper: TimeStamper?
    /// Draws the pages of a request's document, off the loop.
    var pages: PageRenderQueue?

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

    public init(config: Config, logger: Logger, offscreen: Offscreen? = nil, time: TimeSource = .system, loadConfig: @escaping () throws -> Config) {
        self.time = time
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
        case is PainterError, is ScreenSizeError, is ExportGroupError, is ControlSocketError, is EvidenceError, is SystemCheckError: return true
        default: return false
        }
    }

    public func run() throws -> Exit {
        // Logged before anything can wait (the display may not come for minutes at boot).
        logger.info("signpad starting", metadata: ["version": "\(SignpadVersion.current)", "configuration": "\(config.source)"])
        let service = ServiceManager()
        // A start after a reload runs on the old start's watchdog clock, and the checks below (a
        // font scan among them) can take seconds on a slow machine.
        if service.watchdogInterval != nil { service.watchdog() }
        // What check-config and a reload check: refused here before anything is made or taken.
        let check = SystemCheck(config)
        for warning in check.warnings { logger.warning("a configuration warning", metadata: ["detail": "\(warning)"]) }
        try check.requireUsable()
        let signals = try SignalWatcher([SIGTERM, SIGINT, SIGHUP])
        let (evidence, createdKey) = try config.evidence.load()
        logger.notice(createdKey ? "signing key made" : "signing key",
                      metadata: ["path": "\(config.evidence.signingKey)", "sha256": "\(evidence.signingKey.publicKey.fingerprint)"])
        if let recipient = evidence.recipient {
            logger.notice("biometric data sealed to certificate",
                          metadata: ["subject": "\(recipient.subject)", "sha256": "\(recipient.fingerprint)", "expires": "\(ISO8601.string(recipient.notAfter))"])
            certificateExpiry = CertificateExpiry(recipient)
        }
        if let certificate = evidence.documentCertificate {
            documentCertificateExpiry = CertificateExpiry(subject: certificate.subject, notAfter: certificate.notAfter)
        }
        warnOfCertificateExpiry(now: time.wall())
        self.evidence = evidence
        let kioskKeys = [evidence.signingKey.publicKey] + config.evidence.retiredKeys.map(\.key)
        let retention = config.outbox.retentionDays == 0 ? nil : Retention(days: config.outbox.retentionDays, keys: kioskKeys) { [logger] event in
            switch event {
            case .deleted(let id, let from): logger.notice("signature deleted: retention", metadata: ["id": "\(id)", "folder": "\(from)"])
            case .failed(let reason): logger.error("retention: cannot delete", metadata: ["reason": "\(reason)"])
            }
        }
        let wakes = try LoopWakes()
        let timeStamper = config.outbox.timestampURL.map { makeTimeStamper(url: $0) }
        defer { timeStamper?.stop() }
        self.timeStamper = timeStamper
        let exporter = Exporter(directory: config.outbox.directory, options: config.export, evidence: evidence, retrySeconds: config.outbox.retrySeconds,
                                spool: config.outbox.spoolDirectory.map(SignatureSpool.init), retention: retention, timeStamper: timeStamper,
                                clock: time, resultsWaiting: wakes.exports.wake)
        defer { exporter.stop() }
        // Not here: a share that does not answer would keep the kiosk dark.
        exporter.prepareBeforeWriting { [logger, folderProbe] error in
            logger.error("the export folder fails; signatures are kept and retried", metadata: ["reason": "\(error)"])
            folderProbe.failed("\(error)")
        }
        // Before the screen: what the spool holds is written even while there is none.
        let spooled = recoverSpool(exporter)
        control = try makeControl(bookWritten: wakes.book.wake)
        let pages = PageRenderQueue(executable: config.documents.renderer ?? PageRenderer.executable, wake: wakes.pages.wake)
        // No renderer left running, nor unreaped, across a stop or the start a reload makes.
        defer { pages.stop() }
        self.pages = pages
        // Requests confirmed before a crash: their signatures are in the spool, or written.
        control?.settleUnsettled(spooled: spooled, exporter: exporter)
        defer { control?.detach(because: "signpad stopped") }
        self.exporter = exporter
        let initial: DaemonStage
        if let offscreen {
            // A display in memory is never lost: the loop ends only on a signal. It keeps no
            // picture of its own (nobody looks at it): the session's canvas is the one frame, as
            // on a panel, whose scanout buffer is the device's memory.
            let display = HeadlessDisplay(width: offscreen.width, height: offscreen.height, rotation: config.display.rotation)
            initial = .showing(try show(display, exporter: exporter, service: service))
        } else {
            initial = .waiting(DisplayWait(afterLoss: false, now: time.uptime(), exportDirectory: config.outbox.directory, retrySeconds: config.outbox.retrySeconds))
        }
        return try loop(from: initial, exporter: exporter, service: service, signals: signals, wakes: wakes)
    }

    /// The one loop: each turn it looks at its clocks (the watchdog, the display's retry, device
    /// scans, the session's deadlines), waits on the signals, the exporter, the control socket
    /// and the devices, and handles what became ready, until a signal ends it.
    func loop(from initial: DaemonStage, exporter: Exporter, service: ServiceManager, signals: SignalWatcher, wakes: LoopWakes) throws -> Exit {
        var stage = initial
        var nextWatchdog = time.uptime()
        var polled = PollSet()
        var exit = Exit.stopped

        // The panel is handed back however the loop ends; a display closes once.
        defer { if case .showing(let shown) = stage { shown.display.close() } }
        // The first turn is the loop's first pass over its clocks.
        longestTurn.begin(now: time.uptime(), handling: .clocks)
        turns: while true {
            let now = time.uptime()
            if let interval = service.watchdogInterval, now >= nextWatchdog {
                service.watchdog()
                nextWatchdog = now + interval
            }
            warnOfCertificateExpiry(now: time.wall())
            var deadline = now + 1
            switch stage {
            case .waiting(var wait):
                if now >= wait.retryAt {
                    if let display = try openDisplay(&wait, service: service, exporter: exporter, now: now) {
                        stage = .showing(try show(display, exporter: exporter, service: service))
                        continue turns
                    }
                    stage = .waiting(wait)
                }
                deadline = min(deadline, wait.retryAt)
            case .showing(let shown):
                if shown.playback == nil {
                    if inputs.isEmpty && now >= nextRescan { openInputs(session: shown.session, now: now) }
                    if config.input.device == nil && !inputs.isEmpty && now >= nextDeviceCheck { lookForMoreInputs(session: shown.session, now: now) }
                    if inputs.isEmpty { deadline = min(deadline, nextRescan) }
                }
                deadline = min(deadline, shown.session.nextDeadline)
                if let playback = shown.playback { deadline = min(deadline, playback.nextDeadline) }
            }
            if service.watchdogInterval != nil { deadline = min(deadline, nextWatchdog) }
            if let server = control?.server { deadline = min(deadline, server.nextDeadline(now: now)) }

            polled.clear()
            polled.add(signals.fd, as: .signals)
            polled.add(wakes.exports.readEnd, as: .exports)
            if let control {
                polled.add(control.server)
                polled.add(wakes.book.readEnd, as: .results)
            }
            polled.add(wakes.pages.readEnd, as: .pages)
            if case .showing = stage {
                for (index, input) in inputs.enumerated() { if let fd = input.device.fd { polled.add(fd, as: .input(index)) } }
            }
            longestTurn.end(now: time.uptime()) { time.wall() }
            try polled.wait(seconds: deadline - now)
            longestTurn.begin(now: time.uptime(), handling: polled.woken)
            // Emptied before the news is taken: news that comes meanwhile wakes the next turn.
            if polled.isReady(.exports) { wakes.exports.drain() }
            if polled.isReady(.results) { wakes.book.drain() }
            if polled.isReady(.pages) { wakes.pages.drain() }

            if polled.isReady(.signals), let signal = signals.take() {
                if signal != SIGHUP {
                    logger.notice("received signal \(signal): stopping")
                    break turns
                }
                switch stage {
                case .showing(let shown):
                    requestReload(session: shown.session, display: shown.display, exporter: exporter)
                case .waiting:
                    // Nobody can be at a pad that shows nothing: a configuration that loads applies at once.
                    if configurationLoads(then: "received SIGHUP: the configuration loads; reloading now, as there is no display yet") {
                        exit = .reload
                        break turns
                    }
                }
            }
            switch stage {
            case .waiting(var wait):
                if let control { control.handle(control.server.handle(polled.control, now: time.uptime()), now: time.uptime(), host: self) }
                if polled.isReady(.results) {
                    control?.bookWritten()
                    control?.documentsTaken(now: time.uptime(), host: self)
                }
                if polled.isReady(.exports) {
                    for result in exporter.results() {
                        control?.consume(.exportResult(result))
                        if result.lookedUp { continue }
                        if result.error == nil { folderProbe.wrote() }
                        for notice in wait.journal.notices(for: result, now: time.uptime()) { logger.tell(notice) }
                    }
                    tellStatus(&wait, service: service, exporter: exporter)
                }
                stage = .waiting(wait)
            case .showing(let shown):
                if let reason = serve(shown, polled: polled, exporter: exporter, service: service) {
                    switch reason {
                    case .displayLost:
                        stage = .waiting(DisplayWait(afterLoss: true, now: time.uptime(), exportDirectory: config.outbox.directory, retrySeconds: config.outbox.retrySeconds))
                    case .reload:
                        exit = .reload
                        break turns
                    }
                }
            }
        }

        if exit == .reload {
            // Every pending signature is in the spool, which the new start writes.
            service.reloading()
        } else {
            service.stopping()
        }
        switch stage {
        case .waiting:
            if exit == .stopped { finishExports(exporter, lastFailure: nil) }
            reportLongestTurn()
        case .showing(let shown):
            if exit == .stopped { finishExports(exporter, lastFailure: shown.session.lastFailure) }
            // The results of the exports just finished answer their requests; what is left then is told as such.
            shown.session.tick(now: time.uptime())
            dispatch(shown.session)
            control?.detach(because: exit == .reload ? "signpad reloaded its configuration" : "signpad stopped")
            shown.session.blank()
            hide(shown)
        }
        return exit
    }

    /// Puts the kiosk on `display`: its session, its devices (or the recording), the control
    /// socket's requests, and systemd told it is ready.
    func show(_ display: any DaemonDisplay, exporter: Exporter, service: ServiceManager) throws -> ShownKiosk {
        let session: Session
        let playback: RecordingPlayback?
        do {
            session = try Session(SessionOptions(config), display: display, exporter: exporter, painter: config.kiosk.screenPainter, time: time, pages: pages)
            playback = try offscreen.map { try RecordingPlayback($0.recording, session: session, confirmAtEnd: $0.confirmAtEnd) }
        } catch {
            display.close()
            throw error
        }
        let now = time.uptime()
        if playback == nil { openInputs(session: session, now: now) }
        if config.kiosk.rules.mode == .walkUp { playback?.start(now: now) }
        let shownName = display.shownName
        control?.attach(session)
        presented = (shownName, session, playback != nil)
        let shown = ShownKiosk(display: display, session: session, playback: playback,
                               status: serviceStatus(shownName, session: session, exporter: exporter), now: now)
        service.ready(status: shown.status.line)
        logger.info("ready: the kiosk is shown",
                    metadata: ["version": "\(SignpadVersion.current)", "kiosk": "\(config.kioskName)", "folder": "\(config.outbox.directory)"])
        return shown
    }

    /// Why the kiosk stops being shown.
    enum ShowEnd {
        /// The display went away: the loop waits for one again; the exporter and its spool go on meanwhile.
        case displayLost
        /// A reload asked for by SIGHUP, now that nobody is at the pad.
        case reload
    }

    /// One turn of the kiosk: the devices that are ready, the control socket, the recording,
    /// the session's clocks, the display's presence, and a reload that waited for its moment.
    func serve(_ shown: ShownKiosk, polled: PollSet, exporter: Exporter, service: ServiceManager) -> ShowEnd? {
        let session = shown.session, display = shown.display
        // The devices polled, by their index then: one closed while reading leaves the others as they were.
        let opened = inputs
        for (index, input) in opened.enumerated() {
            let events = polled.events(of: .input(index))
            if events != 0 { readInput(input, session: session, hangup: events & Int16(POLLHUP | POLLERR) != 0) }
        }
        // Each step's events before the next step: a Done pressed is the request's before a cancel is read.
        dispatch(session)
        if let control { control.handle(control.server.handle(polled.control, now: time.uptime()), now: time.uptime(), host: self) }
        if polled.isReady(.results) {
            control?.bookWritten()
            control?.documentsTaken(now: time.uptime(), host: self)
        }
        if let playback = shown.playback {
            if let id = session.kiosk.request?.id, id != shown.playedFor { playback.start(now: time.uptime()) }
            shown.playedFor = session.kiosk.request?.id
            playback.play(until: time.uptime(), into: session) { latencies.record(seconds: time.uptime() - $0) }
            dispatch(session)
        }
        session.tick(now: time.uptime())
        dispatch(session)
        if time.uptime() >= shown.nextPresenceCheck {
            display.checkPresence()
            shown.nextPresenceCheck = time.uptime() + 1
            let current = serviceStatus(display.shownName, session: session, exporter: exporter)
            if current.line != shown.status.line {
                shown.status = current
                service.status(current.line)
            }
        }
        if let loss = display.lossReason {
            logger.error("the display is lost; an unconfirmed signature on it is dropped", metadata: ["reason": "\(loss)"])
            control?.detach(because: "the display was lost (\(loss))")
            // Their decoders map touches to this display's size.
            closeInputs(session: session)
            hide(shown)
            return .displayLost
        }
        // A walk-up customer's signature that could be neither sealed nor written is not taken.
        if session.kiosk.outOfService == nil, session.kiosk.isBetweenCustomers, let ended = certificateEnded(now: time.wall()) {
            session.takeOutOfService(ended.outOfServiceReason, now: time.uptime())
            dispatch(session)
            logger.error("out of service: the recipient certificate has expired",
                         metadata: ["subject": "\(ended.subject)", "expired": "\(ISO8601.string(ended.notAfter))"])
        }
        if reloadRequested && session.kiosk.isBetweenCustomers {
            if exporter.pendingOutsideSpool == 0 {
                reloadRequested = false
                // Read once more: the file may have changed since the signal.
                if configurationLoads(then: "reloading: handing back the screen and starting again", shown: display) { return .reload }
            } else if !resealedForReload {
                resealedForReload = true
                resealHeld(exporter)
            }
        }
        return nil
    }

    /// Hands what the session told to the point of sale's API, and a write's success to the probe
    /// of the folder's health.
    func dispatch(_ session: Session) {
        for event in session.takeEvents() {
            switch event {
            case .notice(let notice):
                logger.tell(notice)
            case .exportResult(let result):
                if result.error == nil && !result.lookedUp { folderProbe.wrote() }
                control?.consume(event)
            case .request:
                control?.consume(event)
            }
        }
    }

    /// The kiosk leaves its display: the control socket's requests are answered NotReady meanwhile,
    /// its status says what is awaited, and the journal gets the display's latency report.
    func hide(_ shown: ShownKiosk) {
        control?.attach(nil)
        presented = nil
        report(session: shown.session, display: shown.display)
        shown.display.close()
    }

    func serviceStatus(_ shown: String, session: Session, exporter: Exporter) -> ServiceStatus {
        ServiceStatus(display: shown, inputs: inputs.map { "\($0.path) \"\($0.name)\"" }, message: session.kiosk.message, unwritten: exporter.pending)
    }

    /// Tries to open the display. While there is none to take yet (see `DisplayError.mayPassByItself`)
    /// it is tried again every two seconds, and systemd is told READY with the reason as the
    /// status: the service is up and waiting, as it waits for a touch device. A start that failed
    /// instead would be retried only a few times before systemd gave up, and a kiosk whose panel
    /// was off at boot would never show.
    func openDisplay(_ wait: inout DisplayWait, service: ServiceManager, exporter: Exporter, now: Double) throws -> DRMDisplay? {
        switch openDisplay() {
        case .success(let display):
            if wait.reported != nil { logger.notice("the display is there after waiting for it") }
            return display
        case .failure(let error) where !error.mayPassByItself(afterLoss: wait.afterLoss):
            throw error
        case .failure(let error):
            if error.description != wait.reported {
                logger.warning("waiting for a display", metadata: ["reason": "\(error)", "retry_seconds": "\(Int(DisplayWait.retrySeconds))"])
                wait.reported = error.description
                tellStatus(&wait, service: service, exporter: exporter)
            }
            wait.retryAt = now + DisplayWait.retrySeconds
            return nil
        }
    }

    func tellStatus(_ wait: inout DisplayWait, service: ServiceManager, exporter: Exporter) {
        let line = wait.statusLine(pending: exporter.pending)
        if line != wait.status { service.ready(status: line) }
        wait.status = line
    }

    /// The control socket and its service, if `control.socket` is set.
    /// `bookWritten` is the results book's call when a write has ended, and the document
    /// intake's when a document is taken.
    func makeControl(bookWritten: @escaping @Sendable () -> Void) throws -> ControlService? {
        guard let path = config.control.socket else { return nil }
        let groupID = try Self.controlGroupID(config)
        let server: VarlinkServer
        do {
            server = try VarlinkServer(path: path, mode: 0o660, groupID: groupID, interfaces: [KioskInterface.varlink], vendor: "signpad",
                                       product: "signpad kiosk signature pad", version: SignpadVersion.current, url: "https://github.com/signpad/signpad",
                                       uptime: time.uptime)
        } catch {
            throw ControlSocketError(description: "\(error)")
        }
        let now = time.wall()
        let results: RequestResults
        do {
            results = try RequestResults(path: config.control.results, now: now, written: bookWritten)
        } catch {
            logger.error("request results not read; starting with none", metadata: ["path": "\(config.control.results)", "reason": "\(error.reason)"])
            results = RequestResults(emptyAt: config.control.results, written: bookWritten)
        }
        logger.info("control socket ready", metadata: ["path": "\(path)", "group": "\(config.control.group ?? "(signpad's own)")"])
        var intake: DocumentIntake?
        if config.evidence.documentCertificate != nil {
            DocumentsFolder.prepare(config.documents.directory, groupID: groupID, logger: logger)
            intake = DocumentIntake(directory: config.documents.directory, maxBytes: config.documents.maxBytes, requireReview: config.documents.requireReview,
                                    certificateEnds: evidence?.documentCertificate?.notAfter, time: time, taken: bookWritten)
        }
        return ControlService(server: server, results: results, exportsPNG: config.export.formats.contains(.png) && !config.evidence.encryptImages, logger: logger,
                              time: time, intake: intake, exportFolder: config.outbox.directory)
    }

    /// The group the control socket is given to (nil: the signpad user's own); `SystemCheck`
    /// has refused one that does not exist, unless it went between the check and here.
    static func controlGroupID(_ config: Config) throws(ControlSocketError) -> gid_t? {
        guard config.control.socket != nil, let group = config.control.group else { return nil }
        guard let entry = getgrnam(group) else {
            throw ControlSocketError(description: "control.group: no group \"\(group)\" on this machine; the package creates it (systemd-sysusers), else create it (groupadd \(group)) and add the point of sale's user, or set control.group = \"\" for the signpad user's own group")
        }
        return entry.pointee.gr_gid
    }

    /// `GetStatus`: what `systemctl status` says, as data.
    func controlStatus(_ shown: String?, session: Session?, exporter: Exporter) -> [String: JSONValue] {
        var status: [String: JSONValue] = [
            "kiosk": .string(config.kioskName), "mode": .string(config.kiosk.rules.mode == .walkUp ? "walkUp" : "requested"),
            "inputs": .array(offscreen.map { [.string("recording \($0.recording.device.name)")] } ?? inputs.map { .string("\($0.path) \"\($0.name)\"") }),
            "exportFolder": .string(config.outbox.directory), "unwritten": .number(Double(exporter.pending)),
        ]
        if let shown { status["display"] = .string(shown) }
        status["longestTurnMs"] = .number(longestTurn.seconds * 1000)
        if let at = longestTurn.endedAt {
            status["longestTurnAt"] = .string(ISO8601.string(at))
            status["longestTurnHandled"] = .array(longestTurn.handled.names.map { .string($0) })
        }
        if let evidence {
            status["signingKey"] = .string(evidence.signingKey.publicKey.fingerprint)
            if let recipient = evidence.recipient {
                status["recipientCertificate"] = .string(recipient.fingerprint)
                status["certificateExpires"] = .string(ISO8601.string(recipient.notAfter))
            }
        }
        if let timeStamper { status["timestampsAwaited"] = .number(Double(timeStamper.awaiting)) }
        if let failure = session?.lastFailure, exporter.pending > 0 {
            status["exportFailing"] = .string(failure)
        } else if let failure = folderProbe.current {
            status["exportFailing"] = .string(failure)
        }
        return status
    }

    /// The time stamper of this start: tokens go beside the manifests, what awaits one waits in
    /// the spool; what it does goes to the journal, a failing authority once an hour.
    func makeTimeStamper(url: String) -> TimeStamper {
        let folder = FolderWriter(directory: config.outbox.directory, group: config.export.group, createsFolder: false, role: "the export folder")
        let queue = config.outbox.spoolDirectory.map { FolderWriter(directory: $0, fileMode: 0o600, role: "the spool") }
        return TimeStamper(authority: TimeStampAuthority(url: url), folder: folder, queueFolder: queue) { [logger] event in
            switch event {
            case .stamped(let id, let time):
                logger.info("time stamp received", metadata: ["signature": "\(id)", "time": "\(ISO8601.string(time))"])
            case .documentStamped(let id, let time):
                logger.info("document time-stamped", metadata: ["signature": "\(id)", "time": "\(ISO8601.string(time))"])
            case .failing(let id, let reason, let awaiting):
                logger.warning("time stamps failing; retried", metadata: ["signature": "\(id)", "reason": "\(reason)", "awaiting": "\(awaiting)"])
            case .resumed(let awaiting):
                logger.notice("time stamps resumed", metadata: ["awaiting": "\(awaiting)"])
            case .unkept(let id, let reason):
                logger.error("time stamp request not kept", metadata: ["signature": "\(id)", "reason": "\(reason)"])
            }
        }
    }

    /// The recipient certificate, once it has ended at `now` (seconds since 1970).
    func certificateEnded(now: Double) -> CertificateExpired? {
        guard let recipient = evidence?.recipient, now >= recipient.notAfter else { return nil }
        return CertificateExpired(subject: recipient.subject, notAfter: recipient.notAfter)
    }

    /// From 30 days before the recipient certificate's end, and after it, once a day (and at each
    /// start): staff need the back office's new one before it, as nothing is sealed to an expired one.
    func warnOfCertificateExpiry(now: Double) {
        if let warning = documentCertificateExpiry?.warning(now: now) {
            let metadata: Logger.Metadata = ["subject": "\(warning.subject)", "expires": "\(warning.expires)", "days": "\(warning.daysLeft)",
                                             "action": "renew it (signpad key certificate, or signpad key csr for the CA), then reload"]
            if warning.expired {
                logger.error("document certificate ended: documents are refused", metadata: metadata)
            } else {
                logger.warning("document certificate ends soon", metadata: metadata)
            }
        }
        guard let warning = certificateExpiry?.warning(now: now) else { return }
        let metadata: Logger.Metadata = ["subject": "\(warning.subject)", "expires": "\(warning.expires)", "days": "\(warning.daysLeft)"]
        if warning.expired {
            logger.error("recipient certificate expired: nothing is sealed or written",
                         metadata: metadata.merging(["action": "set a new one in export.recipient_certificate and reload"]) { $1 })
        } else {
            logger.warning("recipient certificate expires soon",
                           metadata: metadata.merging(["action": "put the back office's new one in export.recipient_certificate and reload"]) { $1 })
        }
    }

    func openDisplay() -> Result<DRMDisplay, DisplayError> {
        Result { () throws(DisplayError) in try DRMDisplay(options: config.display) { [logger] in logger.tell($0) } }
    }

    /// On the way out after SIGTERM: pending exports get up to 20 s; what is still unwritten then
    /// is logged as kept in the spool for the next start, or as lost.
    func finishExports(_ exporter: Exporter, lastFailure: String?) {
        let pending = exporter.pending
        guard pending > 0 else { return }
        logger.notice("finishing pending exports before exit", metadata: ["count": "\(pending)"])
        guard !exporter.waitUntilIdle(timeout: 20) else { return }
        let unwritten = exporter.pending, lost = exporter.pendingOutsideSpool
        var fields: Logger.Metadata = ["folder": "\(config.outbox.directory)"]
        if let lastFailure { fields["reason"] = "\(lastFailure)" }
        if lost > 0 {
            logger.critical("signatures lost at exit: neither written nor kept in a spool", metadata: fields.merging(["count": "\(lost)"]) { $1 })
        }
        if let spool = config.outbox.spoolDirectory, unwritten > lost {
            logger.error("signatures not written before exit; kept in the spool for the next start",
                         metadata: fields.merging(["count": "\(unwritten - lost)", "spool": "\(spool)"]) { $1 })
        }
    }

    /// SIGHUP: reload at once if nobody is at the pad, else once the customer is done. A memory-only
    /// signature (the spool failed too) also holds the reload back until it is written.
    func requestReload(session: Session, display: any DaemonDisplay, exporter: Exporter) {
        let inMemory = exporter.pendingOutsideSpool
        let waitFor = !session.kiosk.isBetweenCustomers ? "; reloading once nobody is at the pad"
            : inMemory > 0 ? "; reloading once the \(inMemory) signature(s) held in memory only are written" : ""
        reloadRequested = configurationLoads(then: "received SIGHUP: the configuration loads\(waitFor)", shown: display)
        resealedForReload = false
    }

    /// Signatures held in memory only hold a reload back; those whose certificate ended before
    /// they were sealed would hold it for ever, as the new certificate comes with the reload. The
    /// reload's evidence seals them now, and the spool keeps them before signpad starts again.
    func resealHeld(_ exporter: Exporter) {
        do {
            let (next, _) = try loadConfig().evidence.load()
            exporter.reseal(with: next)
            logger.notice("sealing held signatures with the reloaded evidence", metadata: [
                "held": "\(exporter.pendingOutsideSpool)", "certificate": "\(next.recipient?.subject ?? "none")"])
        } catch {
            logger.error("held signatures not sealed anew", metadata: ["error": "\(error)"])
        }
    }

    /// Loads the configuration as a start would and logs `message`, or logs why not and that
    /// signpad goes on with the one it runs, as it was.
    func configurationLoads(then message: String, shown display: (any DaemonDisplay)? = nil) -> Bool {
        do {
            try checkReload(try loadConfig(), shown: display)
            logger.notice("\(message)")
            return true
        } catch {
            logger.error("not reloading; still running with the configuration loaded at start", metadata: ["reason": "\(error)"])
            return false
        }
    }

    /// Throws what would fail a start under `next`: the checks every start makes (`SystemCheck`),
    /// and with a display shown, whether the kiosk fits it: a connector or mode the panel does not
    /// have, a mode too small for the kiosk, or a picture that does not fit would leave it dark.
    func checkReload(_ next: Config, shown display: (any DaemonDisplay)?) throws {
        try SystemCheck(next).requireUsable()
        guard let display else { return }
        let size = try display.modeSize(for: next.display) ?? (display.scanout.width, display.scanout.height)
        let turned = Scanout(width: size.width, height: size.height, rotation: next.display.rotation)
        try KioskLayout.requireRoom(width: turned.logicalWidth, height: turned.logicalHeight)
        _ = try ChromePainter(style: next.kiosk.style, backgroundImage: next.kiosk.backgroundImage, width: turned.logicalWidth, height: turned.logicalHeight)
    }

    /// Starts signpad again in this process with the same arguments. The PID stays, so systemd
    /// sees the same service; every descriptor is close-on-exec. Returns only on failure.
    public static func startAgain() -> DaemonError {
        // Ignored stays ignored across exec: a second SIGHUP before the new start installs its
        // handler would otherwise end signpad, and systemd does not restart a service a SIGHUP ended.
        signal(SIGHUP, SIG_IGN)
        // The new start gets a whole watchdog period to come up (the exec and the runtime's loading
        // alone took seconds under emulation).
        let service = ServiceManager()
        if service.watchdogInterval != nil { service.watchdog() }
        var argv = CommandLine.arguments.map { strdup($0) } + [nil]
        execv("/proc/self/exe", &argv)
        return DaemonError(description: "could not start again to reload (execv /proc/self/exe): \(Errno(rawValue: errno))")
    }

    /// Queues what an earlier run left unwritten in the spool; returns their files by id.
    func recoverSpool(_ exporter: Exporter) -> [String: [Exporter.ExportedFile]] {
        guard let spool = config.outbox.spoolDirectory else { return [:] }
        do {
            let (count, files, problems) = try exporter.recoverSpool(olderFilesAs: config.captureSettings)
            for problem in problems { logger.error("a spool file is set aside", metadata: ["spool": "\(spool)", "reason": "\(problem)"]) }
            if count > 0 {
                logger.notice("signatures from before the last exit found; writing them",
                              metadata: ["count": "\(count)", "spool": "\(spool)", "folder": "\(config.outbox.directory)"])
            }
            return files
        } catch {
            logger.error("the spool fails; confirmed signatures are kept in memory only until written", metadata: ["spool": "\(spool)", "reason": "\(error)"])
            return [:]
        }
    }

    func report(session: Session, display: some DaemonDisplay) {
        let frame = Double(display.scanout.width * display.scanout.height * 4)
        let perEvent = Double(session.inkBytes) / Double(max(session.inkEvents, 1))
        if latencies.total == 0 {
            logger.notice("latency: no ink events")
        } else {
            let p50 = Int(latencies.quantile(0.5)), p99 = Int(latencies.quantile(0.99))
            logger.notice("latency event→DirtyFB", metadata: [
                "events": "\(latencies.total)", "p50_us": "\(p50)", "p99_us": "\(p99)", "precision": "±9%",
                "flushed_bytes_per_event": "\(Int(perEvent))", "frame_share": "\(String(printf: "%.4f", 100 * perEvent / frame))%",
                "dirtyfb": "\(display.flushDescription)",
            ])
        }
        reportLongestTurn()
    }

    /// The longest turn since start: how long ink, replies and the watchdog waited at worst.
    func reportLongestTurn() {
        var metadata: Logger.Metadata = ["handled": "\(longestTurn.handled.names.joined(separator: ","))"]
        if let at = longestTurn.endedAt { metadata["at"] = "\(ISO8601.string(at))" }
        logger.notice("longest loop turn \(String(printf: "%.1f", longestTurn.seconds * 1000)) ms", metadata: metadata)
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

extension Daemon: ControlHost {
    /// Until a display shows the kiosk, the status says so (and requests are NotReady: no session).
    public func kioskStatus() -> [String: JSONValue] {
        guard let exporter else { return [:] }
        return controlStatus(presented?.name, session: presented?.session, exporter: exporter)
    }

    public func notReadyReason() -> String? {
        // A customer's signature that could be neither sealed nor written is not asked for.
        if let ended = certificateEnded(now: time.wall()) { return ended.outOfServiceReason }
        guard let presented, !presented.playsRecording, inputs.isEmpty else { return nil }
        return "no touch device\(config.input.device.map { " matching \($0)" } ?? "") (see signpad devices)"
    }
}
