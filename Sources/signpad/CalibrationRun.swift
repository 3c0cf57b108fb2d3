import FoundationEssentials
import Glibc
import Logging
import SignpadConfig
import SignpadDaemon
import SignpadDRM
import SignpadEvdev
import SignpadInput
import SignpadKiosk
import SignpadText
import SignpadVocabulary

/// `signpad calibrate`: a cross on the panel for each of `Calibrator.targets`, one touch each, and
/// the `input.calibration` matrix that puts the touches on them. The touches are read with no
/// calibration at all (neither the configured one nor udev's), so the result replaces both.
final class CalibrationRun {
    struct Result {
        var matrix: CalibrationMatrix
        var worstErrorPixels: Double
        var device: String
    }

    let config: Config
    let logger: Logger

    init(config: Config, logger: Logger) {
        self.config = config
        self.logger = logger
    }

    /// Runs until every target is touched; throws when no device opens, a target waits longer
    /// than `timeout` seconds, a signal arrives, or the touches do not fit.
    func run(timeout: Double = 60) throws -> Result {
        let signals = try SignalWatcher([SIGTERM, SIGINT, SIGHUP])
        let display = try DRMDisplay(options: config.display) { [logger] in logger.tell($0) }
        defer { display.close() }
        let scanout = display.scanout
        let width = scanout.logicalWidth, height = scanout.logicalHeight
        guard let opened = TouchDeviceOpener(options: config.input, logger: logger).openFirst(decoder: { _, device in
            try InputDeviceSetup.raw(screenWidth: width, screenHeight: height).decoder(for: device.description)
        }) else {
            throw DaemonError(description: "no usable touch device\(config.input.device.map { " matching \($0)" } ?? "") (see `signpad devices`)")
        }
        defer { opened.device.close() }
        var decoder = opened.takeDecoder()
        var calibrator = Calibrator(screenWidth: width, screenHeight: height,
                                    placement: ScreenPlacement(rotation: scanout.rotation, flipX: config.input.flipX, flipY: config.input.flipY))
        let painter = try ChromePainter(style: config.kiosk.style, backgroundImage: nil, width: width, height: height)
        var canvas = Canvas(width: width, height: height)
        defer {
            // Nothing of the calibration stays on the panel.
            painter.paint([], into: &canvas)
            display.presentAll(canvas)
        }

        var shown: Calibrator.Step?
        var deadline = TimeSource.system.uptime() + timeout
        var polled = PollSet()
        while true {
            if calibrator.step != shown {
                shown = calibrator.step
                deadline = TimeSource.system.uptime() + timeout
                switch calibrator.step {
                case .target(let index, let retry):
                    painter.paint(Self.screen(calibrator, index: index, retry: retry, style: config.kiosk.style), into: &canvas)
                    display.presentAll(canvas)
                    logger.info("calibration: target \(index + 1) of \(Calibrator.targets.count) shown\(retry ? " again: the touch moved" : "")")
                case .finished(let matrix, let worst):
                    return Result(matrix: matrix, worstErrorPixels: worst, device: opened.name)
                case .failed(let error):
                    throw error
                }
            }
            let now = TimeSource.system.uptime()
            if case .target(let index, _) = calibrator.step, now >= deadline {
                throw CalibrationError(description: "no touch on target \(index + 1) of \(Calibrator.targets.count) within \(Int(timeout)) s")
            }
            polled.clear()
            polled.add(signals.fd, as: .signals)
            if let fd = opened.device.fd { polled.add(fd, as: .input(0)) }
            try polled.wait(seconds: deadline - now)
            if polled.isReady(.signals), let signal = signals.take() {
                throw CalibrationError(description: "stopped by signal \(signal) before every target was touched")
            }
            let events = polled.events(of: .input(0))
            if events != 0 {
                let status = opened.device.read { event in decoder.feed(event) { calibrator.handle($0) } }
                if status == .gone || events & Int16(POLLHUP | POLLERR) != 0 {
                    throw DaemonError(description: "\(opened.device.path) went away during the calibration")
                }
            }
        }
    }

    /// A plus sign on the target and what to do, above or below it so the finger does not hide it.
    static func screen(_ calibrator: Calibrator, index: Int, retry: Bool, style: KioskStyle) -> [ChromeItem] {
        let target = calibrator.currentTarget ?? Point(0, 0)
        let arm = Double(min(calibrator.screenWidth, calibrator.screenHeight)) / 25
        let bounds = PixelRect(x: 0, y: 0, width: calibrator.screenWidth, height: calibrator.screenHeight)
        let line = calibrator.screenHeight / 16
        let textTop = target.y < Double(calibrator.screenHeight) / 2 ? calibrator.screenHeight / 2 : calibrator.screenHeight / 2 - 2 * line
        let text = retry ? "Hold still on the cross, then lift (\(index + 1) of \(Calibrator.targets.count))"
                         : "Touch the centre of the cross, then lift (\(index + 1) of \(Calibrator.targets.count))"
        return [
            ChromeItem(bounds, .line(from: Point(target.x - arm, target.y), to: Point(target.x + arm, target.y), color: style.text, width: 2)),
            ChromeItem(bounds, .line(from: Point(target.x, target.y - arm), to: Point(target.x, target.y + arm), color: style.text, width: 2)),
            ChromeItem(PixelRect(x: 0, y: textTop, width: calibrator.screenWidth, height: line),
                       .text(text, size: Double(line) * 0.45, color: retry ? style.message : style.text)),
        ]
    }
}
