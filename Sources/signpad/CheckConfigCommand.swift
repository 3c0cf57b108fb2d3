import ArgumentParser
import FoundationEssentials
import Glibc
import SignpadConfig
import SignpadSystemCheck

struct CheckConfig: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "check-config", abstract: "Validate a configuration file and print the effective configuration.",
                                                     discussion: "Exit status: 0 it loads and this machine has what it needs, 78 (EX_CONFIG) otherwise, each problem named by its key, as `run` and a reload would refuse it.")
    @Argument(help: "The TOML file.", completion: .file(extensions: ["toml"])) var file: String
    @Option(name: .customLong("set"), help: "Override one key as `signpad run` would.") var overrides: [String] = []

    func run() throws {
        let config = try ConfigOptions.parse(["--config", file] + overrides.flatMap { ["--set", $0] }).load(defaultToSystemFile: false)
        // The checks `run` and a reload make, with the same status: what they refuse is refused here.
        // The unit runs signpad as this user, who may have groups that whoever checks has not.
        let check = SystemCheck(config, runner: .serviceUser("signpad"))
        let problems = check.problems
        for problem in problems { StandardStream.error.write(Data("Error: \(file): \(problem)\n".utf8)) }
        if !problems.isEmpty { throw ExitCode(Config.unusableExitStatus) }
        print(config.effectiveTOML, terminator: "")
        for warning in check.warnings { StandardStream.error.write(Data("warning: \(warning)\n".utf8)) }
    }
}
