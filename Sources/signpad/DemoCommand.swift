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

struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Replay the bundled signature and write its exports and a screenshot.")
    @Option(name: .long, help: "Where the exports go (default ./signatures).", completion: .directory) var outputDir: String?
    @OptionGroup var options: ConfigOptions

    func run() throws {
        try replay(recording: try bundledSignature(), outputDir: outputDir ?? "./signatures", width: 1280, height: 800, confirm: true,
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
