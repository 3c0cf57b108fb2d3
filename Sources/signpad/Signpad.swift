import ArgumentParser
import FoundationEssentials
import Glibc
import Logging
import SignpadConfig
import SignpadExport
import SignpadDaemon
import SignpadDRM
import SignpadEvdev
import SignpadInput
import SignpadSession
import SignpadSystemCheck
import SignpadVocabulary

@main
struct Signpad: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "A Linux kiosk signature pad: evdev in, smooth ink on a DRM screen, signatures to a folder.",
        version: SignpadVersion.current,
        subcommands: [Run.self, Request.self, Replay.self, Demo.self, Verify.self, Key.self, ISO.self, Bench.self, Devices.self, Calibrate.self, CheckConfig.self, Layout.self])

    static func main() {
        // The TPM's software stack writes warnings of its own to standard error, the journal
        // under systemd, where signpad says what failed itself. Set before any thread starts.
        setenv("TSS2_LOG", "all+none", 0)
        main(Array(CommandLine.arguments.dropFirst()))
    }
}

/// --config and --set, shared by the commands that read a configuration.
struct ConfigOptions: ParsableArguments {
    @Option(name: .long, help: "The TOML configuration file. Without it, run (but not --offscreen), calibrate, key and bench --on-screen read \(Config.defaultPath) when it exists; the other commands start from signpad's defaults.", completion: .file(extensions: ["toml"]))
    var config: String?

    @Option(name: .customLong("set"), help: "Override one key, e.g. --set export.directory=\\\"/srv/sig\\\" or --set display.rotation=90.")
    var overrides: [String] = []

    /// The configuration a command starts with. One that does not load ends the command with
    /// `Config.unusableExitStatus`, which the unit does not restart: a restart would read the same file.
    func load(defaultToSystemFile: Bool) throws -> Config {
        do {
            return try read(defaultToSystemFile: defaultToSystemFile)
        } catch {
            StandardStream.error.write(Data("Error: \(error)\n".utf8))
            throw ExitCode(Config.unusableExitStatus)
        }
    }

    /// Reads the configuration, throwing what is wrong with it (file, line, key): a reload refuses
    /// a file with that reason and goes on.
    func read(defaultToSystemFile: Bool) throws -> Config {
        let path = config ?? (defaultToSystemFile && FileManager.default.fileExists(atPath: Config.defaultPath) ? Config.defaultPath : nil)
        var text = ""
        if let path { text = try TextFile.read(path, what: "the configuration file", format: "UTF-8 text (TOML)", limit: BoundedFile.configurationBytes) }
        var loaded = try Config.load(text: text, file: path ?? "(defaults)", overrides: overrides)
        if loaded.kioskName.isEmpty { loaded.kioskName = HostName.ofThisMachine() }
        return loaded
    }
}

func makeLogger(level: String) -> Logger {
    // Under systemd each line goes to the journal with its level as the entry's priority.
    let journal = JournalLogHandler.standardErrorIsTheJournal
    LoggingSystem.bootstrap { journal ? JournalLogHandler() as any LogHandler : StreamLogHandler.standardError(label: $0) }
    var logger = Logger(label: "signpad")
    logger.logLevel = Logger.Level(rawValue: level) ?? .info
    return logger
}

func parseScreen(_ text: String, option: String = "--screen") throws -> (Int, Int) {
    let parts = text.split(separator: "x", omittingEmptySubsequences: false).map { Int($0) }
    // No display DRM drives is larger; a canvas of 4 bytes a pixel beyond it would only exhaust memory.
    guard parts.count == 2, let width = parts[0], let height = parts[1], (1...16384).contains(width), (1...16384).contains(height) else {
        throw ValidationError("\(option): expected WIDTHxHEIGHT from 1x1 to 16384x16384, such as 1920x1080, got \(text)")
    }
    return (width, height)
}

func loadRecording(_ path: String) throws -> EvemuRecording {
    // A file that cannot be read is not a usage error: its own error, exit status 1, no usage text.
    let text = try TextFile.read(path, what: "the recording", format: "UTF-8 text (an evemu-record file)", limit: BoundedFile.recordingBytes)
    let recording = try EvemuRecording.parse(text, file: path)
    try recording.requireUsableDevice(file: path)
    return recording
}
