import SignpadSession
import SignpadConfig
import ArgumentParser
import Foundation
import Logging
import SignpadDaemon
import SignpadDRM
import SignpadEvdev
import SignpadInk
import SignpadInput

@main
struct Signpad: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "A Linux kiosk signature pad: evdev in, smooth ink on a DRM screen, signatures to a folder.",
        version: SignpadVersion.current,
        subcommands: [Run.self, Replay.self, Demo.self, Bench.self, Devices.self, Calibrate.self, CheckConfig.self])
}

/// --config and --set, shared by the commands that read a configuration.
struct ConfigOptions: ParsableArguments {
    @Option(name: .long, help: "The TOML configuration file (default \(Config.defaultPath) when it exists).", completion: .file(extensions: ["toml"]))
    var config: String?

    @Option(name: .customLong("set"), help: "Override one key, e.g. --set export.directory=\\\"/srv/sig\\\" or --set display.rotation=90.")
    var overrides: [String] = []

    /// The configuration a command starts with. One that does not load ends the command with
    /// `Config.unusableExitStatus`, which the unit does not restart: a restart would read the same file.
    func load(defaultToSystemFile: Bool) throws -> Config {
        do {
            return try read(defaultToSystemFile: defaultToSystemFile)
        } catch {
            FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
            throw ExitCode(Config.unusableExitStatus)
        }
    }

    /// Reads the configuration, throwing what is wrong with it (file, line, key): a reload refuses
    /// a file with that reason and goes on.
    func read(defaultToSystemFile: Bool) throws -> Config {
        let path = config ?? (defaultToSystemFile && FileManager.default.fileExists(atPath: Config.defaultPath) ? Config.defaultPath : nil)
        var text = ""
        if let path { text = try TextFile.read(path, what: "the configuration file", format: "UTF-8 text (TOML)") }
        return try Config.load(text: text, file: path ?? "(defaults)", overrides: overrides)
    }
}

func makeLogger(level: String) -> Logger {
    LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
    var logger = Logger(label: "signpad")
    logger.logLevel = Logger.Level(rawValue: level) ?? .info
    return logger
}

func parseScreen(_ text: String) throws -> (Int, Int) {
    let parts = text.split(separator: "x", omittingEmptySubsequences: false).map { Int($0) }
    // No display DRM drives is larger; a canvas of 4 bytes a pixel beyond it would only exhaust memory.
    guard parts.count == 2, let width = parts[0], let height = parts[1], (1...16384).contains(width), (1...16384).contains(height) else {
        throw ValidationError("--screen: expected WIDTHxHEIGHT from 1x1 to 16384x16384, such as 1920x1080, got \(text)")
    }
    return (width, height)
}

func loadRecording(_ path: String) throws -> EvemuRecording {
    // A file that cannot be read is not a usage error: its own error, exit status 1, no usage text.
    let text = try TextFile.read(path, what: "the recording", format: "UTF-8 text (an evemu-record file)")
    let recording = try EvemuRecording.parse(text, file: path)
    try recording.requireUsableDevice(file: path)
    return recording
}

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the kiosk on the screen and touch panel (the systemd service).")
    @OptionGroup var options: ConfigOptions

    func run() throws {
        let config = try options.load(defaultToSystemFile: true)
        let logger = makeLogger(level: config.logLevel)
        do {
            let daemon = Daemon(config: config, logger: logger) { try options.read(defaultToSystemFile: true) }
            if try daemon.run() == .reload { throw Daemon.startAgain() }
        } catch {
            logger.critical("\(error)")
            throw ExitCode(Daemon.isMisconfiguration(error) ? Config.unusableExitStatus : 1)
        }
    }
}

struct Calibrate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show a cross at five places on the panel, one touch each, and print the input.calibration that fits.",
        discussion: "With --write the matrix also goes into the configuration file (--config, else \(Config.defaultPath)); nothing else in it changes.")
    @OptionGroup var options: ConfigOptions
    @Option(name: .long, help: "Seconds to wait for each touch.") var timeout = 60.0
    @Flag(name: .long, help: "Put the matrix into the configuration file as well as printing it.") var write = false

    func validate() throws {
        // nan would never time out and -inf failed the clock arithmetic; a day is more than anyone waits.
        guard timeout.isFinite, timeout > 0, timeout <= 86_400 else {
            throw ValidationError("--timeout: expected seconds from more than 0 to 86400, got \(timeout)")
        }
    }

    func run() throws {
        let config = try options.load(defaultToSystemFile: true)
        let logger = makeLogger(level: config.logLevel)
        do {
            let result = try CalibrationRun(config: config, logger: logger).run(timeout: timeout)
            let matrix = TOMLValue.array(result.matrix.rounded.values.map { .float($0) })
            print("""
            \(Calibrator.targets.count) touches on "\(result.device)"; with this matrix the farthest is \(String(format: "%.1f", result.worstErrorPixels)) px from its cross.
            Put it in the configuration (it replaces udev's LIBINPUT_CALIBRATION_MATRIX), then restart signpad:

            [input]
            calibration = \(matrix)

            input.calibration applies to every device signpad reads. For this device alone (a pen and a
            touchscreen that need different matrices), leave it empty and put this line in
            /etc/udev/rules.d/99-signpad-calibration.rules, then run
            `udevadm trigger --subsystem-match=input --action=change` and restart signpad:

            \(result.matrix.udevRule(deviceName: result.device))
            """)
            if write {
                let path = options.config ?? Config.defaultPath
                let line = try ConfigFileEdit.set("input.calibration", to: matrix, inFile: path)
                print("\nWritten to \(path):\(line); restart signpad to use it: systemctl restart signpad")
            }
        } catch {
            logger.critical("calibration: \(error)")
            throw ExitCode(1)
        }
    }
}

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the whole kiosk offscreen on an evemu recording.")
    @Argument(help: "An evemu-record file.", completion: .file()) var recording: String
    @Option(name: .long, help: "Where the exports and screen.png go.", completion: .directory) var outputDir: String
    @Option(name: .long, help: "The screen size, WIDTHxHEIGHT.") var screen = "1280x800"
    @Flag(name: .long, help: "Do not save an unconfirmed signature at the end.") var noConfirmAtEnd = false
    @OptionGroup var options: ConfigOptions

    func run() throws {
        let config = try options.load(defaultToSystemFile: false)
        let (w, h) = try parseScreen(screen)
        try replay(recording: recording, outputDir: outputDir, width: w, height: h, confirm: !noConfirmAtEnd, config: config)
    }
}

func replay(recording path: String, outputDir: String, width: Int, height: Int, confirm: Bool, config: Config) throws {
    let recording = try loadRecording(path)
    var replay = SignpadSession.Replay(config: config, width: width, height: height, painter: config.screenPainter)
    replay.confirmAtEnd = confirm
    let outcome = try replay.run(recording, outputDirectory: outputDir) { FileHandle.standardError.write(Data(("signpad: " + $0 + "\n").utf8)) }
    let screenPath = (outputDir as NSString).appendingPathComponent("screen.png")
    try outcome.screen.writePNG(named: "screen.png", in: outputDir)
    for id in outcome.saved {
        for format in config.export.formats.map(\.rawValue) + ["meta.json"] {
            print((outputDir as NSString).appendingPathComponent("\(id).\(format)"))
        }
    }
    print(screenPath)
    if outcome.saved.isEmpty { FileHandle.standardError.write(Data("signpad: no signature was saved\n".utf8)) }
}

struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Replay the bundled signature and write its exports and a screenshot.")
    @Option(name: .long, help: "Where the exports go.", completion: .directory) var outputDir = "./signatures"
    @OptionGroup var options: ConfigOptions

    func run() throws {
        try replay(recording: try bundledSignature(), outputDir: outputDir, width: 1280, height: 800, confirm: true,
                   config: try options.load(defaultToSystemFile: false))
    }
}

/// The signature recording shipped with signpad, wherever signpad runs from: a clone, a package
/// or an install by hand.
func bundledSignature() throws -> String {
    let here = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    // A build in a clone lives in <clone>/.build/<triple>/release once symlinks are resolved.
    let candidates = ["demo/signature.evemu", here.appendingPathComponent("../../../demo/signature.evemu").standardized.path,
                      here.appendingPathComponent("../share/signpad/demo/signature.evemu").standardized.path, "/usr/share/signpad/demo/signature.evemu"]
    guard let path = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
        throw TextFileError(path: candidates.joined(separator: ", "), what: "the bundled signature",
                            reason: "it is in none of these places", isMissing: true)
    }
    return path
}

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Compare four ways of drawing ink on a recording (one run, one table).")
    @Option(name: .long, help: "An evemu recording (default: the bundled signature).", completion: .file()) var recording: String?
    @Option(name: .long, help: "The canvas size offscreen, WIDTHxHEIGHT (default 1920x1080).") var screen: String?
    @Flag(name: .long, help: ArgumentHelp("Draw on the panel, as `signpad run` would, instead of offscreen.",
                                          discussion: "The display settings come from --config and --set, or /etc/signpad/signpad.toml; the panel's mode sets the size. Stop the service first: only one process can hold the screen. Offscreen, only an explicit --config is read, for its pen (ink.*)."))
    var onScreen = false
    @Flag(name: .long, help: "Print JSON instead of the table.") var json = false
    @Flag(name: .long, help: ArgumentHelp("Only count heap allocations per input event on the whole live path, offscreen.",
                                          discussion: "Needs ordo-one's malloc-interposer beside signpad (swift build -c release --product MallocInterposerSwift) or in /usr/lib/signpad."))
    var allocations = false
    @OptionGroup var options: ConfigOptions

    func validate() throws {
        if onScreen, screen != nil { throw ValidationError("--screen and --on-screen: on the panel, its mode sets the size; give one of them") }
        if onScreen, allocations { throw ValidationError("--allocations and --on-screen: allocations are counted offscreen; give one of them") }
    }

    func run() throws {
        let config = try options.load(defaultToSystemFile: onScreen)
        // Read before the screen is taken, so a bad file leaves the panel alone.
        let recording = try self.recording ?? bundledSignature()
        let strokes = try loadRecording(recording)
        let counter = AllocationCounter.loaded() ?? preloadingTheCounter()
        if allocations {
            guard let counter else {
                throw DaemonError(description: "--allocations: no \(AllocationCounter.libraryName) beside \(CommandLine.arguments[0]) nor in /usr/lib/signpad; build it with swift build -c release --product MallocInterposerSwift")
            }
            let (w, h) = try parseScreen(screen ?? "1920x1080")
            let figures = try LivePathAllocations.measure(strokes, config: config, width: w, height: h, counter: counter)
            let report = BenchReport(recording: recording, screen: "\(w)x\(h) offscreen", strategies: [], allocationsPerEvent: figures.mean, allocations: figures)
            try print(json ? report.json() : LivePathAllocations.line(figures, library: AllocationCounter.libraryName))
            return
        }
        let display: Display, name: String
        var panel: DRMDisplay?
        // On the panel, Ctrl-C or SIGTERM ends the run and hands the screen and console back.
        let signals = onScreen ? try SignalWatcher([SIGTERM, SIGINT, SIGHUP]) : nil
        if onScreen {
            let drm = try DRMDisplay(options: config.display) {
                FileHandle.standardError.write(Data(("signpad: " + $0 + "\n").utf8))
            }
            (panel, display) = (drm, drm)
            name = "\(drm.path) \(drm.connectorName) \(drm.modeName)"
        } else {
            let (w, h) = try parseScreen(screen ?? "1920x1080")
            display = OffscreenDisplay(width: w, height: h)
            name = "\(w)x\(h) offscreen"
        }
        defer { panel?.close() }
        let (w, h) = (display.scanout.logicalWidth, display.scanout.logicalHeight)
        let events = try strokes.strokeEvents(screenWidth: w, screenHeight: h).map(\.event)
        var bench = SignpadDaemon.Bench(events: events, display: display, pen: config.pen)
        if let signals { bench.shouldStop = { signals.received != nil } }
        let rows = bench.run()
        if let signal = signals?.received {
            throw DaemonError(description: "stopped by signal \(signal) before the bench finished; the panel and the console are handed back")
        }
        let counted = try counter.map { try LivePathAllocations.measure(strokes, config: config, width: w, height: h, counter: $0) }
        if json {
            let report = BenchReport(recording: recording, screen: name, strategies: rows, allocationsPerEvent: counted?.mean,
                                     allocations: counted)
            print(try report.json())
        } else {
            print(SignpadDaemon.Bench.table(rows, recording: recording, screen: name), terminator: "")
            print(LivePathAllocations.line(counted, library: AllocationCounter.libraryName))
        }
    }

    /// Starts this bench again with the allocation counter preloaded, if one is installed or built
    /// beside signpad (returning only when there is none, or the exec failed).
    func preloadingTheCounter() -> AllocationCounter? {
        let marker = "SIGNPAD_BENCH_PRELOADED"
        guard getenv(marker) == nil, let library = AllocationCounter.library(besides: CommandLine.arguments[0]) else { return nil }
        setenv(marker, "1", 1)
        setenv("LD_PRELOAD", library, 1)
        var argv = CommandLine.arguments.map { strdup($0) } + [nil]
        execv("/proc/self/exe", &argv)
        return nil
    }
}

struct Devices: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List input devices, how signpad classifies them, and why it skips some.")

    func run() throws {
        let nodes = DeviceScanner.eventNodes()
        guard !nodes.isEmpty else {
            print("No input devices: /dev/input has no event nodes. (In a container or VM without input, use `signpad demo` or `signpad replay`.)")
            return
        }
        let scanned = DeviceScanner.scan(nodes)
        for device in scanned {
            print("Device:      \(device.description?.name ?? "?")")
            print("Kernel:      \(device.path)")
            switch device.classification {
            case .usable(let kind, let multitouch):
                print("Class:       \(kind.rawValue)\(multitouch ? " (multitouch, follows the first contact)" : "")")
            case .skipped(let reason):
                print("Class:       skipped: \(reason)")
            }
            if let d = device.description {
                print("Id:          bus \(hex(d.bus)) vendor \(hex(d.vendor)) product \(hex(d.product))")
                for (code, name) in [(EventCode.ABS_X, "x"), (EventCode.ABS_Y, "y"), (EventCode.ABS_MT_POSITION_X, "mt x"),
                                     (EventCode.ABS_MT_POSITION_Y, "mt y"), (EventCode.ABS_PRESSURE, "pressure"), (EventCode.ABS_MT_PRESSURE, "mt pressure")] {
                    if let info = d.absInfo[code] {
                        let resolution = info.resolution > 0 ? ", \(info.resolution) units/mm" : ""
                        print("Axis \(name):".padding(toLength: 13, withPad: " ", startingAt: 0) + "\(info.minimum)…\(info.maximum)\(resolution)")
                    }
                }
            }
            if let matrix = device.udevCalibration { print("Calibration: \(matrix.values.map { String($0) }.joined(separator: " ")) (udev)") }
            if let problem = device.udevCalibrationProblem { print("Calibration: none: \(problem)") }
            print("")
        }
        let taken = DeviceChoice.automaticSet(scanned) { $0.classification.kind }
        if taken.isEmpty {
            print("No usable touch device: signpad waits for one.")
        } else {
            let names = taken.map { "\($0.path) \"\($0.description?.name ?? "?")\"" }.joined(separator: ", ")
            print("Without input.device, signpad reads \(names): every touchscreen and pen (one stroke at a time, the pen's first), or else the first absolute pointer.")
        }
    }

    func hex(_ v: UInt16) -> String { String(format: "%04x", v) }
}

struct CheckConfig: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "check-config", abstract: "Validate a configuration file and print the effective configuration.")
    @Argument(help: "The TOML file.", completion: .file(extensions: ["toml"])) var file: String
    @Option(name: .customLong("set"), help: "Override one key as `signpad run` would.") var overrides: [String] = []

    func run() throws {
        let config = try ConfigOptions.parse(["--config", file] + overrides.flatMap { ["--set", $0] }).load(defaultToSystemFile: false)
        print(config.effectiveTOML, terminator: "")
        for problem in config.fontProblems { FileHandle.standardError.write(Data("warning: \(problem)\n".utf8)) }
    }
}
