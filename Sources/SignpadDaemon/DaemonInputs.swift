import FoundationEssentials
import SignpadEvdev
import SignpadInput
import SignpadSession

/// The daemon's touch devices: opening them, adding those that appear, reading them into the
/// session's input pipeline, closing them.
extension Daemon {
    /// Opens what `TouchDeviceOpener.openMore` takes while no device is open.
    func openInputs(session: Session, now: Double) {
        nextRescan = now + 1
        // Listed before the scan, so a device that appears during it is looked at next time.
        let nodes = DeviceScanner.eventNodes()
        let (opened, failed) = opener.openMore(besides: [], decoder: decoderMaker(session))
        guard !opened.isEmpty else {
            if !missingLogged {
                logger.warning("no usable touch device; looking again every second (see `signpad devices`)",
                               metadata: config.input.device.map { ["matching": "\($0)"] } ?? [:])
                missingLogged = true
            }
            return
        }
        missingLogged = false
        inputs = opened
        for input in opened { session.addInput(path: input.path, name: input.name, kind: input.kind, decoder: input.takeDecoder()) }
        nodesLookedAt = nodes
        retryFailedAt = failed.isEmpty ? .infinity : now + 30
        nextDeviceCheck = now + 2
    }

    /// Without `input.device`: a touchscreen or pen that appears (plugged in, or probed late at
    /// boot) is read too; one that appears after signpad settled for an absolute pointer is taken
    /// in its place, but only between customers, never mid-signature.
    func lookForMoreInputs(session: Session, now: Double) {
        nextDeviceCheck = now + 2
        let nodes = DeviceScanner.eventNodes()
        guard nodes != nodesLookedAt || now >= retryFailedAt else { return }
        let pointers = inputs.filter { $0.kind == .absolutePointer }
        // Left for later (nodesLookedAt not updated) while a customer signs with the pointer.
        if !pointers.isEmpty && !session.kiosk.isBetweenCustomers { return }
        nodesLookedAt = nodes
        let open = Set(inputs.map(\.path))
        let (opened, failed) = opener.openMore(besides: open, preferredOnly: true, decoder: decoderMaker(session))
        // A device that would not open (its error is logged) is tried again less often.
        retryFailedAt = failed.isEmpty ? .infinity : now + 30
        guard !opened.isEmpty else { return }
        inputs += opened
        for input in opened { session.addInput(path: input.path, name: input.name, kind: input.kind, decoder: input.takeDecoder()) }
        for pointer in pointers {
            logger.notice("input devices taken in place of the absolute pointer",
                          metadata: ["taken": "\(opened.map(\.name).joined(separator: ", "))", "pointer": "\(pointer.name)"])
            close(pointer, session: session, now: now)
        }
    }

    var opener: TouchDeviceOpener { TouchDeviceOpener(options: config.input, logger: logger) }

    /// Decoders mapping each device to the session's screen, with the calibration in force.
    func decoderMaker(_ session: Session) -> TouchDeviceOpener.MakeDecoder {
        let setup = session.inputSetup, logger = self.logger
        return { scanned, device in
            if setup.configuredCalibration == nil, let problem = scanned.udevCalibrationProblem {
                logger.warning("the device's udev calibration is not used", metadata: ["device": "\(device.path)", "reason": "\(problem)"])
            }
            // Which matrix is in force is the first question when touches land in the wrong place.
            let (calibration, source) = setup.calibration(udev: scanned.udevCalibration)
            logger.info("input calibration", metadata: [
                "device": "\(device.path)", "matrix": "\(calibration.values.map { String($0) }.joined(separator: " "))", "source": "\(source.rawValue)",
            ])
            return try setup.decoder(for: device.description, udevCalibration: scanned.udevCalibration)
        }
    }

    func readInput(_ input: TouchInput, session: Session, hangup: Bool) {
        guard let index = session.input.index(of: input.path) else { return }
        let status = input.device.read { event in
            let drawn = session.movesDrawn
            session.feed(event, from: index, now: time.uptime())
            if session.movesDrawn != drawn { latencies.record(seconds: time.uptime() - event.seconds) }
        }
        if status == .gone || hangup {
            logger.warning("an input device went away; its stroke ends, and it is looked for again", metadata: ["device": "\(input.path)"])
            close(input, session: session, now: time.uptime())
            nextRescan = time.uptime() + 0.5
        }
    }

    /// Closes one device; a stroke of its in progress ends at its last sample.
    func close(_ input: TouchInput, session: Session, now: Double) {
        session.removeInput(input.path, now: now)
        input.device.close()
        inputs.removeAll { $0 === input }
    }

    /// Closes every device, with the display they map to gone: nothing is drawn.
    func closeInputs(session: Session) {
        for input in inputs { input.device.close() }
        inputs = []
        session.removeAllInputs()
    }
}
