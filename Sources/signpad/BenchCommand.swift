import ArgumentParser
import FoundationEssentials
import Glibc
import Logging
import SignpadBench
import SignpadConfig
import SignpadDaemon
import SignpadDRM
import SignpadEvdev
import SignpadInput
import SignpadSession
import SignpadText
import SignpadVocabulary

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Compare five ways of drawing ink on a recording, signpad's and cairo's among them (one run, one table).")
    @Option(name: .long, help: "An evemu recording (by default the bundled signature).", completion: .file()) var recording: String?
    @Option(name: .long, help: "The canvas size offscreen, WIDTHxHEIGHT (default 1920x1080).") var screen: String?
    @Flag(name: .long, help: ArgumentHelp("Draw on the panel, as `signpad run` would, instead of offscreen.",
                                          discussion: "The display settings come from --config and --set, or /etc/signpad/signpad.toml; the panel's mode sets the size. Stop the service first: only one process can hold the screen. Offscreen, only an explicit --config is read, for its pen (ink.*)."))
    var onScreen = false
    @Flag(name: .long, help: "Print JSON instead of the table.") var json = false
    @Flag(name: .long, help: ArgumentHelp("Only count heap allocations per input event on the whole live path, offscreen.",
                                          discussion: "Needs ordo-one's malloc-interposer beside signpad (scripts/build-interposer puts it there) or in /usr/lib/signpad."))
    var allocations = false
    @Option(name: .long, help: ArgumentHelp("Only the predicted ink's figures, over every evemu recording in this folder (repeatable), offscreen.",
                                            discussion: "For the shared recordings and SVC2004's forty: ../shared/data/recordings and its svc2004-train. SVC2004's writers u1-u20 are the set to tune on, u21-u40 held out."),
            completion: .directory) var survey: [String] = []
    @Option(name: .customLong("replay-once"), help: ArgumentHelp("live, peer or moments: the recording once through that path, untimed, printing its events (for scripts/count-instructions).",
                                                                 visibility: .hidden)) var replayOnce: String?
    @OptionGroup var options: ConfigOptions

    func validate() throws {
        if onScreen, screen != nil { throw ValidationError("--screen and --on-screen: on the panel, its mode sets the size; give one of them") }
        if onScreen, allocations { throw ValidationError("--allocations and --on-screen: allocations are counted offscreen; give one of them") }
        if !survey.isEmpty, onScreen || allocations || recording != nil {
            throw ValidationError("--survey measures predicted ink alone, offscreen, over its folders: give it without --on-screen, --allocations and --recording")
        }
    }

    func run() throws {
        let config = try options.load(defaultToSystemFile: onScreen)
        if let replayOnce {
            let (w, h) = try parseScreen(screen ?? "1920x1080")
            let strokes = try loadRecording(try self.recording ?? bundledSignature())
            switch replayOnce {
            case "live":
                print("events \(try LivePath.replayOnce(strokes, config: config, width: w, height: h, painter: config.kiosk.screenPainter))")
            case "moments":
                let bench = try SignpadBench.Bench(recording: strokes, input: config.input, display: OffscreenDisplay(width: w, height: h, rotation: config.display.rotation),
                                                   pen: config.ink.pen)
                try ScreenMoments.replayOnce(bench.events, config: config, width: w, height: h, painter: config.kiosk.screenPainter)
                print("events 1")
            case "peer":
                let bench = try SignpadBench.Bench(recording: strokes, input: config.input, display: OffscreenDisplay(width: w, height: h, rotation: config.display.rotation),
                                                   pen: config.ink.pen)
                print("events \(bench.replayPeerOnce())")
            default:
                throw ValidationError("--replay-once \(replayOnce): expected live, peer or moments")
            }
            return
        }
        if !survey.isEmpty {
            let (w, h) = try parseScreen(screen ?? "1920x1080")
            var paths: [String] = []
            for folder in survey {
                guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
                    throw ValidationError("--survey \(folder): cannot list it; expected a folder of evemu recordings")
                }
                paths += names.filter { $0.hasSuffix(".evemu") }.sorted().map { PathText.join(folder, $0) }
            }
            guard !paths.isEmpty else { throw ValidationError("--survey: no .evemu recording in \(survey.joined(separator: ", "))") }
            let figures = try PredictionSurvey.measure(paths, width: w, height: h, horizon: config.ink.predictMilliseconds / 1000)
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                print(String(decoding: try encoder.encode(figures), as: UTF8.self))
            } else {
                print(figures.table, terminator: "")
            }
            return
        }
        // Read before the screen is taken, so a bad file leaves the panel alone.
        let recording = try self.recording ?? bundledSignature()
        let strokes = try loadRecording(recording)
        let counter = AllocationCounter.loaded() ?? preloadingTheCounter()
        if allocations {
            guard let counter else {
                throw DaemonError(description: "--allocations: no \(AllocationCounter.libraryName) beside \(CommandLine.arguments[0]) nor in /usr/lib/signpad; build it with scripts/build-interposer")
            }
            let (w, h) = try parseScreen(screen ?? "1920x1080")
            let figures = try LivePathAllocations.measure(strokes, config: config, width: w, height: h, painter: config.kiosk.screenPainter, counter: counter)
            var report = BenchReport(recording: recording, screen: "\(w)x\(h) offscreen", strategies: [], allocations: figures)
            report.buttonPressAllocations = try ScreenMoments.buttonPressAllocations(config: config, width: w, height: h, painter: config.kiosk.screenPainter,
                                                                                     counter: counter)
            try print(json ? report.json() : LivePathAllocations.line(figures, library: AllocationCounter.libraryName)
                + "\nallocations per button pressed and let go: max \(report.buttonPressAllocations ?? 0) [≤ 10]")
            return
        }
        // First, while the bench is small: a child started now counts at least what the bench holds.
        let size = onScreen ? nil : try parseScreen(screen ?? "1920x1080")
        let kiosk = try size.map { size in
            try KioskMemory.peakResidentBytes(executable: "/proc/self/exe", recording: recording, width: size.0, height: size.1,
                                              configuration: options.config, overrides: options.overrides)
        }
        // The daemon's may fail (a recording with too little ink saves nothing): said, not fatal.
        let playing = (strokes.events.last?.seconds ?? 0) - (strokes.events.first?.seconds ?? 0)
        let daemon = size.map { size in
            Result { () throws(KioskMemory.Failure) in
                try KioskMemory.daemonPeakResidentBytes(executable: "/proc/self/exe", recording: recording, seconds: playing,
                                                        width: size.0, height: size.1,
                                                        configuration: options.config, overrides: options.overrides)
            }
        }
        let display: Display, name: String
        var panel: DRMDisplay?
        // On the panel, Ctrl-C or SIGTERM ends the run and hands the screen and console back.
        let signals = onScreen ? try SignalWatcher([SIGTERM, SIGINT, SIGHUP]) : nil
        if onScreen {
            let drm = try DRMDisplay(options: config.display) {
                StandardStream.error.write(Data(("signpad: " + $0.line + "\n").utf8))
            }
            (panel, display) = (drm, drm)
            name = "\(drm.path) \(drm.connectorName) \(drm.modeName)"
        } else {
            let (w, h) = try parseScreen(screen ?? "1920x1080")
            display = OffscreenDisplay(width: w, height: h, rotation: config.display.rotation)
            name = "\(w)x\(h) offscreen"
        }
        defer { panel?.close() }
        // The panel's own size: the measures below turn it as the display is turned.
        let (w, h) = (display.scanout.width, display.scanout.height)
        var bench = try SignpadBench.Bench(recording: strokes, input: config.input, display: display, pen: config.ink.pen)
        let events = bench.events
        if let signals { bench.shouldStop = { signals.received != nil } }
        let rows = bench.run()
        if let signal = signals?.received {
            throw DaemonError(description: "stopped by signal \(signal) before the bench finished; the panel and the console are handed back")
        }
        let counted = try counter.map { try LivePathAllocations.measure(strokes, config: config, width: w, height: h, painter: config.kiosk.screenPainter, counter: $0) }
        // Offscreen only: the panel is the bench's while it runs, and a Session draws on a display of its own.
        let live = onScreen ? nil : try LivePath.time(strokes, config: config, width: w, height: h, painter: config.kiosk.screenPainter, strokeEvents: events.count)
        let peerMean = rows.first { $0.strategy == SignpadBench.Bench.Strategy.cairo.rawValue }?.meanMicroseconds
        let prediction = PredictionAccuracy.measure(events, horizon: config.ink.predictMilliseconds / 1000)
        let moments = onScreen ? nil : try ScreenMoments.measure(events, config: config, width: w, height: h, painter: config.kiosk.screenPainter, counter: counter)
        if json {
            var report = BenchReport(recording: recording, screen: name, strategies: rows,
                                     allocations: counted)
            report.prediction = prediction
            report.livePath = live
            report.buttonPressAllocations = moments?.buttonPress.allocations
            report.worstEventPerFullRedraw = moments.flatMap { $0.worstEventShare(of: rows) }
            report.screenMoments = moments
            report.peakRSSBytes = PeakMemory.residentBytes
            report.kioskPeakRSSBytes = kiosk?.measuredBytes
            report.daemonPeakRSSBytes = try? daemon?.get().measuredBytes
            print(try report.json())
        } else {
            print(SignpadBench.Bench.table(rows, recording: recording, screen: name), terminator: "")
            print(PredictionAccuracy.line(prediction))
            if let live { print(live.line(peerMeanMicroseconds: peerMean)) }
            if let moments {
                print(moments.lines)
                if let share = moments.worstEventShare(of: rows) {
                    print(String(printf: "(d)'s costliest event: %.1f %% of a full redraw [≤ 5 %%]", 100 * share))
                }
            }
            print(LivePathAllocations.line(counted, library: AllocationCounter.libraryName))
            print(PeakMemory.line)
            if let kiosk { print(KioskMemory.line(kiosk, width: w, height: h)) }
            switch daemon {
            case .success(let peak): print(KioskMemory.daemonLine(peak, width: w, height: h))
            case .failure(let failure): print("daemon peak resident memory: not measured: \(failure)")
            case nil: break
            }
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
