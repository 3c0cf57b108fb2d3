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
