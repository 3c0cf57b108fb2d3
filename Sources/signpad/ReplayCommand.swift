import ArgumentParser
import FoundationEssentials
import Glibc
import Logging
import SignpadConfig
import SignpadDaemon
import SignpadDRM
import SignpadEvdev
import SignpadInput
import SignpadSession
import SignpadText
import SignpadVocabulary

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the whole kiosk offscreen on an evemu recording.",
        discussion: "Exit status: 0 done, 78 a configuration, key or certificate it cannot use, 1 any other failure.")
    @Argument(help: "An evemu-record file.", completion: .file()) var recording: String
    @Option(name: .long, help: "Where the exports and screen.png go.", completion: .directory) var outputDir: String
    @Option(name: .long, help: "The screen size, WIDTHxHEIGHT (default 1280x800).") var screen: String?
    @Flag(name: .long, help: "Do not save an unconfirmed signature at the end.") var noConfirmAtEnd = false
    @OptionGroup var options: ConfigOptions

    func run() throws {
        let config = try options.load(defaultToSystemFile: false)
        let (w, h) = try parseScreen(screen ?? "1280x800")
        try replay(recording: recording, outputDir: outputDir, width: w, height: h, confirm: !noConfirmAtEnd, config: config)
    }
}

func replay(recording path: String, outputDir: String, width: Int, height: Int, confirm: Bool, config: Config) throws {
    let recording = try loadRecording(path)
    var replay = SignpadSession.Replay(ReplayOptions(config), width: width, height: height, painter: config.kiosk.screenPainter)
    replay.confirmAtEnd = confirm
    let outcome: SignpadSession.Replay.Outcome
    do {
        outcome = try replay.run(recording, outputDirectory: outputDir) { StandardStream.error.write(Data(("signpad: " + $0.line + "\n").utf8)) }
    } catch where Daemon.isMisconfiguration(error) {
        // A key or certificate it cannot use, as `run` meets them: the configuration's fault, 78.
        StandardStream.error.write(Data("Error: \(error)\n".utf8))
        throw ExitCode(Config.unusableExitStatus)
    }
    let screenPath = PathText.join(outputDir, "screen.png")
    try outcome.screen.writePNG(named: "screen.png", in: outputDir)
    for name in outcome.files { print(PathText.join(outputDir, name)) }
    print(screenPath)
    if outcome.saved.isEmpty { StandardStream.error.write(Data("signpad: no signature was saved\n".utf8)) }
}
