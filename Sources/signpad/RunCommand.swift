import Foundation
import ArgumentParser
import Logging
import SignpadConfig
import SignpadDaemon
import SignpadDRM
import SignpadEvdev
import SignpadInk
import SignpadInput
import SignpadSession

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
