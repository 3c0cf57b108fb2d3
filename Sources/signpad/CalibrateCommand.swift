import ArgumentParser
import FoundationEssentials
import Logging
import SignpadConfig
import SignpadDaemon
import SignpadDRM
import SignpadEvdev
import SignpadInput
import SignpadSession
import SignpadSystemCheck
import SignpadVocabulary

struct Calibrate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show a cross at five places on the panel, one touch each, and print the input.calibration that fits.",
        discussion: "With --write the matrix also goes into the configuration file (--config, else \(Config.defaultPath)); nothing else in it changes.")
    @OptionGroup var options: ConfigOptions
    // Optional, with the default in the help's words: the manual page drops ArgumentParser's "(default: …)".
    @Option(name: .long, help: "Seconds to wait for each touch (default 60).") var timeout: Double?
    private var seconds: Double { timeout ?? 60 }
    @Flag(name: .long, help: "Put the matrix into the configuration file as well as printing it.") var write = false

    func validate() throws {
        // nan would never time out and -inf failed the clock arithmetic; a day is more than anyone waits.
        guard seconds.isFinite, seconds > 0, seconds <= 86_400 else {
            throw ValidationError("--timeout: expected seconds from more than 0 to 86400, got \(seconds)")
        }
    }

    func run() throws {
        let config = try options.load(defaultToSystemFile: true)
        let logger = makeLogger(level: config.logLevel)
        do {
            let result = try CalibrationRun(config: config, logger: logger).run(timeout: seconds)
            let matrix = TOMLValue.array(result.matrix.rounded.values.map { .float($0) })
            print("""
            \(Calibrator.targets.count) touches on "\(result.device)"; with this matrix the farthest is \(String(printf: "%.1f", result.worstErrorPixels)) px from its cross.
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
                let line = try ConfigFileWriter.set("input.calibration", to: matrix, inFile: path)
                print("\nWritten to \(path):\(line); restart signpad to use it: systemctl restart signpad")
            }
        } catch {
            logger.critical("calibration: \(error)")
            throw ExitCode(1)
        }
    }
}
