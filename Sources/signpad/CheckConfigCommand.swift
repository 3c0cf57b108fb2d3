import ArgumentParser
import Foundation
import Logging
import SignpadConfig
import SignpadDaemon
import SignpadDRM
import SignpadEvdev
import SignpadInput
import SignpadOutbox
import SignpadSession
import SignpadText
import SignpadVocabulary

struct CheckConfig: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "check-config", abstract: "Validate a configuration file and print the effective configuration.")
    @Argument(help: "The TOML file.", completion: .file(extensions: ["toml"])) var file: String
    @Option(name: .customLong("set"), help: "Override one key as `signpad run` would.") var overrides: [String] = []

    func run() throws {
        let config = try ConfigOptions.parse(["--config", file] + overrides.flatMap { ["--set", $0] }).load(defaultToSystemFile: false)
        // What `run` refuses at start is refused here, with the same status: a background image
        // that does not load would stop the kiosk.
        if let path = config.backgroundImage {
            do { _ = try ChromePainter.loadPNG(path) } catch {
                FileHandle.standardError.write(Data("Error: \(file): kiosk.background_image: \(error)\n".utf8))
                throw ExitCode(Config.unusableExitStatus)
            }
        }
        // A certificate that will not do (expired, not RSA or EC, not for encryption) stops `run` too.
        do { _ = try config.recipient() } catch {
            FileHandle.standardError.write(Data("Error: \(file): export.recipient_certificate: \(error)\n".utf8))
            throw ExitCode(Config.unusableExitStatus)
        }
        do { _ = try Daemon.controlGroupID(config) } catch {
            FileHandle.standardError.write(Data("Error: \(file): \(error)\n".utf8))
            throw ExitCode(Config.unusableExitStatus)
        }
        print(config.effectiveTOML, terminator: "")
        for problem in config.fontProblems { FileHandle.standardError.write(Data("warning: \(problem)\n".utf8)) }
        // The unit runs signpad as this user; a drop-in's SupplementaryGroups= may add the group, which /etc/group does not show.
        if let group = config.export.group {
            do { try ExportGroupError.check(group, user: "signpad") } catch {
                FileHandle.standardError.write(Data("warning: \(error) (unless the unit gives signpad the group already)\n".utf8))
            }
        }
    }
}
