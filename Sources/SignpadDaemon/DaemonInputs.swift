import Foundation
import SignpadEvdev
import SignpadInput

/// The daemon's touch devices: opening them, adding those that appear, reading them through the
/// arbiter into the session, letting go of a contact the kiosk gave up, closing them.
extension Daemon {
    /// Opens what `TouchDeviceOpener.openMore` takes while no device is open.
    func openInputs(session: Session, now: Double) {
        nextRescan = now + 1
        // Listed before the scan, so a device that appears during it is looked at next time.
        let nodes = DeviceScanner.eventNodes()
        let (opened, failed) = opener.openMore(besides: [], decoder: decoderMaker(session))
        guard !opened.isEmpty else {
            if !missingLogged {
                logger.warning("no usable touch device\(config.inputDevice.map { " matching \($0)" } ?? ""); looking again every second (see `signpad devices`)")
                missingLogged = true
            }
            return
        }
        missingLogged = false
        inputs = opened
        nodesLookedAt = nodes
        retryFailedAt = failed.isEmpty ? .infinity : now + 30
        nextDeviceCheck = now + 2
        session.deviceName = opened[0].name
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
        for pointer in pointers {
            logger.notice("input: took \(opened.map { "\"\($0.name)\"" }.joined(separator: ", ")) in place of the absolute pointer \"\(pointer.name)\"")
            close(pointer, session: session, now: now)
        }
    }

    var opener: TouchDeviceOpener { TouchDeviceOpener(config: config, logger: logger) }

    /// Decoders mapping each device to the session's screen, with the calibration in force.
    func decoderMaker(_ session: Session) -> TouchDeviceOpener.MakeDecoder {
        let scanout = session.display.scanout, config = self.config, logger = self.logger
        return { scanned, device in
            let configured = config.calibration.flatMap { CalibrationMatrix(values: $0) }
            if configured == nil, let problem = scanned.udevCalibrationProblem { logger.warning("\(device.path): \(problem)") }
            let calibration = configured ?? scanned.udevCalibration ?? .identity
            // Which matrix is in force is the first question when touches land in the wrong place.
            let source = configured != nil ? "input.calibration" : scanned.udevCalibration != nil ? "udev's LIBINPUT_CALIBRATION_MATRIX" : "none set"
            logger.info("input calibration of \(device.path): \(calibration.values.map { String($0) }.joined(separator: " ")) (\(source))")
            return try TouchDecoder(device: device.description, screenWidth: scanout.logicalWidth, screenHeight: scanout.logicalHeight,
                                    calibration: calibration, rotation: scanout.rotation, flipX: config.flipX, flipY: config.flipY)
        }
    }

    func readInput(_ input: TouchInput, session: Session, hangup: Bool) {
        let device = input.device, path = input.path, kind = input.kind
        var decoder = input.decoder
        let status = device.read { event in
            if event.type == EventCode.EV_SYN && event.code == EventCode.SYN_DROPPED {
                if let line = input.droppedEvents.line(for: "\(path): the kernel dropped events (SYN_DROPPED); the stroke ends at its last good sample", now: Self.monotonic()) {
                    logger.warning("\(line)")
                }
            }
            decoder.feed(event) { stroke in
                let now = Self.monotonic()
                switch arbiter.route(stroke, from: path, kind: kind, now: now) {
                case .drop:
                    return
                case .withdrawOwnerThenPass:
                    logger.info("input: the pen on \(path) landed during a touch: the touch (a resting hand) is taken back")
                    session.handle(.withdraw, now: now)
                case .pass:
                    switch stroke {
                    case .down: notePutDownPen(touchOn: path, kind: kind)
                    case .withdraw:
                        logger.info("input: a touch on \(path) is taken back, its ink no part of the signature: it lay still while another finger wrote (a hand resting, or water on the glass), or the panel called it a palm before it wrote")
                    case .move, .up, .cancel: break
                    }
                }
                if case .down = stroke { session.deviceName = input.name }
                session.handle(stroke, now: now)
                if case .move = stroke { latencies.record(seconds: Self.monotonic() - event.seconds) }
            }
        }
        input.decoder = decoder
        if let pen = decoder.penNearAt { session.penHovers(at: pen, now: Self.monotonic()) }
        if kind == .pen && arbiter.pen(path, near: decoder.penInProximity, at: decoder.penPosition, now: Self.monotonic()) {
            logger.info("input: the pen on \(path) came near during a touch: the touch (a resting hand) is taken back")
            session.handle(.withdraw, now: Self.monotonic())
        }
        if status == .gone || hangup {
            logger.warning("\(path) went away; ending its stroke and waiting for it to come back")
            close(input, session: session, now: Self.monotonic())
            nextRescan = Self.monotonic() + 0.5
        }
    }

    /// Logs, once until the pen is used or gone, that touches draw beside a pen put down.
    func notePutDownPen(touchOn path: String, kind: DeviceKind) {
        guard kind != .pen && arbiter.penNear else {
            putDownPenLogged = false
            return
        }
        guard !putDownPenLogged else { return }
        putDownPenLogged = true
        logger.info("input: a touch on \(path) draws though a pen is near: the pen has lain still for \(Int(InputArbiter.restingSeconds)) s, put down")
    }

    /// The kiosk gave up the touch down now: its device stops following that contact, and the
    /// paper is free for the next one to land.
    func letGoOfTouch() {
        guard let owner = arbiter.letGo(), let input = inputs.first(where: { $0.path == owner }) else { return }
        input.decoder.letGoOfContacts()
        logger.notice("input: a touch on \(owner) is down and still at the idle timeout (\(config.rules.idleTimeout) s; a customer gone, or water or dirt on the glass): it is let go of, and the next finger to land is followed")
    }

    /// Closes one device; a stroke of its in progress ends at its last sample.
    func close(_ input: TouchInput, session: Session, now: Double) {
        if arbiter.remove(input.path, now: now) { session.handle(.cancel, now: now) }
        input.device.close()
        inputs.removeAll { $0 === input }
    }

    /// Closes every device, with the display they map to gone: nothing is drawn.
    func closeInputs() {
        for input in inputs { input.device.close() }
        inputs = []
        arbiter = InputArbiter()
    }
}
