import ArgumentParser
import FoundationEssentials
import Logging
import SignpadConfig
import SignpadDaemon
import SignpadDRM
import SignpadEvdev
import SignpadInput
import SignpadSession
import SignpadVocabulary

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the kiosk on the screen and touch panel (the systemd service).",
        discussion: "Exit status: 0 stopped by SIGTERM or SIGINT, 78 (EX_CONFIG) a configuration or a system that cannot serve (named in the journal; the unit does not restart it), 1 any other failure.")
    @OptionGroup var options: ConfigOptions
    @Option(name: .long, help: ArgumentHelp("Run on a screen in memory of this size (WIDTHxHEIGHT) instead of the panel, reading --input-recording instead of touch devices: the whole daemon, for tests and demos.", valueName: "WxH"))
    var offscreen: String?
    @Option(name: .long, help: ArgumentHelp("With --offscreen: the evemu recording played each time a request shows (in walk-up mode, once at start).", valueName: "FILE"), completion: .file())
    var inputRecording: String?
    @Flag(name: .long, help: "With --offscreen: press Done at the end of the recording.")
    var confirmAtEnd = false

    func validate() throws {
        if offscreen != nil && inputRecording == nil { throw ValidationError("--offscreen needs --input-recording FILE: the input of a daemon without devices") }
        if offscreen == nil && (inputRecording != nil || confirmAtEnd) { throw ValidationError("--input-recording and --confirm-at-end go with --offscreen WxH") }
    }

    func run() throws {
        let config = try options.load(defaultToSystemFile: offscreen == nil)
        let logger = makeLogger(level: config.logLevel)
        var without: Daemon.Offscreen?
        if let offscreen, let inputRecording {
            let (width, height) = try parseScreen(offscreen, option: "--offscreen")
            without = Daemon.Offscreen(width: width, height: height, recording: try loadRecording(inputRecording), confirmAtEnd: confirmAtEnd)
        }
        do {
            let daemon = Daemon(config: config, logger: logger, offscreen: without) { try options.read(defaultToSystemFile: offscreen == nil) }
            if try daemon.run() == .reload { throw Daemon.startAgain() }
        } catch {
            logger.critical("signpad stopped on an error", metadata: ["error": "\(error)"])
            throw ExitCode(Daemon.isMisconfiguration(error) ? Config.unusableExitStatus : 1)
        }
    }
}
