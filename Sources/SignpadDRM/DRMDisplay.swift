#if canImport(Glibc)
import Glibc
import SignpadVocabulary
import SystemPackage
#endif
import CDRM

/// What the kernel said about DirtyFB, so the daemon can log it and the VM test can check it.
public enum DirtyFBState: String, Equatable, Sendable {
    case unknown
    /// The driver needs it and takes it (virtio-gpu, cirrus, newer bochs).
    case required
    /// ENOSYS or EINVAL: the driver scans the buffer out directly; no more calls are made.
    case notNeeded = "not-needed"
}


/// The kiosk screen through KMS, one small step per function as in drm-howto, undone in reverse.
public final class DRMDisplay: Display {
    public let path: String
    public let connectorName: String
    public let modeName: String
    public let scanout: Scanout
    // The properties every present touches skip the run-time exclusivity check each access to
    // a class's property otherwise makes: a display is used from one thread.
    @exclusivity(unchecked) public private(set) var dirtyFB = DirtyFBState.unknown
    @exclusivity(unchecked) public private(set) var bytesCopied = 0
    /// What the panel gets of the buffer.
    @exclusivity(unchecked) public private(set) var output = DisplayOutput.on
    /// Set once this display cannot be used as it is; the daemon then waits for a display again.
    public var loss: DisplayLoss? { if case .lost(let loss) = output { loss } else { nil } }

    private let card: FileDescriptor
    /// The card's descriptor, as libdrm takes it.
    private var fd: Int32 { card.rawValue }
    private let connectorID: UInt32
    private let crtcID: UInt32
    private var mode: drmModeModeInfo
    private let buffer: DumbBuffer
    private let savedCRTC: UnsafeMutablePointer<drmModeCrtc>?
    private var console: FileDescriptor?
    /// What the display tells the journal.
    private let tell: (Notice) -> Void
    private var closed = false
    /// Reused per flush so the per-event path does not allocate.
    @exclusivity(unchecked) private var scanoutRects: [PixelRect] = []
    @exclusivity(unchecked) private var clips: [drmModeClip] = []

    public init(options: DisplayOptions, tell: @escaping (Notice) -> Void) throws(DisplayError) {
        self.tell = tell
        let opened = try Self.openCard(options.device)
        card = opened.card
        path = opened.path
        let fd = opened.card.rawValue
        do {
            let output = try Self.pickOutput(fd: fd, path: path, options: options)
            connectorID = output.connector
            connectorName = output.name
            crtcID = output.crtc
            mode = output.mode
            modeName = Self.name(of: output.mode)
            scanout = Scanout(width: Int(mode.hdisplay), height: Int(mode.vdisplay), rotation: options.rotation, millimetres: output.millimetres)
            buffer = try DumbBuffer(fd: fd, path: path, width: UInt32(mode.hdisplay), height: UInt32(mode.vdisplay))
            savedCRTC = drmModeGetCrtc(fd, crtcID)
        } catch {
            try? opened.card.close()
            throw error
        }
        do {
            try setCRTC()
        } catch {
            close()
            throw error
        }
        // Only once the screen is ours: a start refused because another process holds it must
        // not switch that process's console out of graphics mode on the way out.
        if let vt = options.vt { enterGraphics(vt) }
        tell(Notice(.info, "display opened", [
            "card": path, "connector": connectorName, "mode": modeName, "pitch": "\(buffer.pitch)", "rotation": "\(options.rotation.rawValue)",
        ]))
    }

    deinit { close() }

    /// The size of the mode `options` would show on this card, found without touching the
    /// screen; nil when that cannot be told here (another card) or would pass by itself (the
    /// panel off or unplugged). A reload checks this before it hands the screen back.
    public func modeSize(for options: DisplayOptions) throws(DisplayError) -> (width: Int, height: Int)? {
        guard options.device == nil || options.device == path else { return nil }
        do {
            let output = try Self.pickOutput(fd: fd, path: path, options: options)
            return (Int(output.mode.hdisplay), Int(output.mode.vdisplay))
        } catch {
            if error.mayPassByItself(afterLoss: false) { return nil }
            throw error
        }
    }

    public var pitch: Int { Int(buffer.pitch) }

    /// Puts the saved CRTC back, frees the buffer, leaves graphics mode: every exit path calls this.
    public func close() {
        guard !closed else { return }
        closed = true
        if let saved = savedCRTC {
            var connector = connectorID
            var savedMode = saved.pointee.mode
            if saved.pointee.mode_valid != 0 {
                _ = drmModeSetCrtc(fd, saved.pointee.crtc_id, saved.pointee.buffer_id, saved.pointee.x, saved.pointee.y, &connector, 1, &savedMode)
            } else {
                _ = drmModeSetCrtc(fd, saved.pointee.crtc_id, 0, 0, 0, nil, 0, nil)
            }
            drmModeFreeCrtc(saved)
        }
        buffer.destroy()
        leaveGraphics()
        try? card.close()
    }

    public func present(_ canvas: Canvas, dirty: DirtyRegion) {
        switch output {
        case .lost:
            return
        case .masterLost:
            guard regainMaster() else { return }
            presentAll(canvas)
            return
        case .on, .off:
            break
        }
        scanoutRects.removeAll(keepingCapacity: true)
        for rect in dirty.rects {
            scanoutRects.append(scanout.copy(rect, from: canvas, to: buffer.memory, pitch: Int(buffer.pitch)))
            bytesCopied += rect.intersection(canvas.bounds).area * 4
        }
        if output == .on { flush() }
    }

    /// Asks the kernel, once a second, whether the device is still there (a driver that needs
    /// no DirtyFB would otherwise be drawn into after it went, and nothing would fail) and
    /// whether the connector still reports a panel.
    public func checkPresence() {
        guard loss == nil else { return }
        var value: UInt64 = 0
        if drmGetCap(fd, UInt64(DRM_CAP_DUMB_BUFFER), &value) != 0 && errno == ENODEV {
            markGone()
            return
        }
        if case .masterLost = output { return }
        checkPanel()
    }

    private func markGone() {
        output = .lost(.deviceGone(path: path))
        tell(Notice(.warning, "the display's card went away", ["card": path, "error": "No such device"]))
    }

    /// A panel switched off or unplugged (DisplayPort drops its hot-plug line when powered off)
    /// turns its output off, as compositors do. When a panel is back its mode is set again: a
    /// CRTC left running across the gap may still show nothing (an untrained DisplayPort link).
    /// The status read does not probe; the kernel updates it on hot-plug.
    private func checkPanel() {
        guard let current = drmModeGetConnectorCurrent(fd, connectorID) else {
            // The kernel removes an MST connector with its panel; it comes back under a new id.
            if errno == ENOENT {
                output = .lost(.connectorGone(path: path, connector: connectorName))
                tell(Notice(.warning, "the display's connector is gone", ["connector": connectorName]))
            }
            return
        }
        let connected = current.pointee.connection != DRM_MODE_DISCONNECTED
        drmModeFreeConnector(current)
        if !output.panelAway && !connected {
            if output == .on { switchOutputOff() }
            output = .off(output.asleep ? [.panelAway, .asleep] : .panelAway)
            tell(Notice(.warning, "the connector reports no panel: its output is off until a panel is back", [
                "connector": connectorName, "why": "switched off or unplugged",
            ]))
        } else if output.panelAway && connected {
            panelReturned()
        }
    }

    /// Sets the mode again on the panel now plugged in, which may be another one: a mode of the
    /// same size keeps the kiosk as it is; without one the display is lost and taken anew.
    private func panelReturned() {
        // A full probe: the status read leaves the mode list as it was when the panel went.
        guard let probed = drmModeGetConnector(fd, connectorID) else { return }
        defer { drmModeFreeConnector(probed) }
        let modes = (0..<Int(probed.pointee.count_modes)).map { probed.pointee.modes[$0] }
        guard !modes.isEmpty else { return }
        let sameSize = modes.filter { Self.name(of: $0) == modeName }
        guard let next = sameSize.first(where: { $0.clock == mode.clock && $0.vrefresh == mode.vrefresh }) ?? sameSize.first else {
            output = .lost(.modeGone(path: path, connector: connectorName, mode: modeName, available: Self.sizes(of: modes)))
            tell(Notice(.warning, "the connector has a panel again, without the mode", ["connector": connectorName, "mode": modeName]))
            return
        }
        mode = next
        let asleep = output.asleep
        if !asleep {
            // The state first: a flush inside may find master or the card gone, and says so.
            output = .on
            guard switchOutputOn(because: "\(connectorName) has a panel again") else {
                // Tried again at the next check, unless master or the card went meanwhile.
                if output == .on { output = .off(.panelAway) }
                return
            }
        } else {
            output = .off(.asleep)
        }
        tell(Notice(.notice, asleep ? "the connector has a panel again: the mode is set when the screen wakes" : "the connector has a panel again: the mode is set again",
                    ["connector": connectorName, "mode": modeName]))
    }

    /// The kiosk switches the screen off after a while without a touch, and on at the next.
    public func setAsleep(_ value: Bool) {
        guard value != output.asleep else { return }
        switch output {
        case .lost:
            return
        case .masterLost:
            // Nothing can be set without master: it is taken back asleep or awake.
            output = .masterLost(asleep: value)
        case .on:
            switchOutputOff()
            output = .off(.asleep)
        case .off(var why):
            why.formSymmetricDifference(.asleep)
            if !why.isEmpty {
                output = .off(why)
            } else {
                // The state first: a failure inside says master is lost (and the screen awake), or
                // the card gone; any other leaves it on, the failure in the journal.
                output = .on
                _ = switchOutputOn(because: "waking the screen")
            }
        }
    }

    /// Turns the CRTC off: the panel gets no signal and sleeps (DPMS off, as an idle console does).
    private func switchOutputOff() {
        _ = drmModeSetCrtc(fd, crtcID, 0, 0, 0, nil, 0, nil)
    }

    /// Sets the mode again and sends the whole buffer, which was kept current while it was off.
    private func switchOutputOn(because reason: String) -> Bool {
        do {
            try setCRTC()
        } catch {
            tell(Notice(.error, "setting the mode failed", ["connector": connectorName, "mode": modeName, "when": reason, "error": "\(error)"]))
            // Another process took the screen meanwhile: present takes it back as it comes.
            if case .masterHeld = error { output = .masterLost(asleep: output.asleep) }
            return false
        }
        scanoutRects = [PixelRect(x: 0, y: 0, width: scanout.width, height: scanout.height)]
        flush()
        return true
    }

    /// Copies the whole canvas: at start, and after master comes back.
    public func presentAll(_ canvas: Canvas) {
        present(canvas, dirty: DirtyRegion([canvas.bounds]))
    }

    private func flush() {
        guard dirtyFB != .notNeeded, !scanoutRects.isEmpty else { return }
        clips.removeAll(keepingCapacity: true)
        scanout.forEachClip(scanoutRects) { clips.append(drmModeClip(x1: $0, y1: $1, x2: $2, y2: $3)) }
        let rc = drmModeDirtyFB(fd, buffer.framebuffer, &clips, UInt32(clips.count))
        switch -rc {
        case 0:
            if dirtyFB == .unknown {
                dirtyFB = .required
                tell(Notice(.info, "DirtyFB: the driver takes dirty rectangles", ["clips_per_update": "\(clips.count)"]))
            }
        case ENOSYS, EINVAL:
            dirtyFB = .notNeeded
            tell(Notice(.info, "DirtyFB: the driver scans out directly; dirty updates are off", ["answer": "\(Errno(rawValue: -rc))"]))
        case EACCES, EPERM:
            output = .masterLost(asleep: output.asleep)
            tell(Notice(.warning, "DRM master lost: another process took the screen; drawing goes on in memory", ["card": path]))
        case ENODEV:
            markGone()
        default:
            tell(Notice(.error, "DirtyFB failed", ["card": path, "error": "\(Errno(rawValue: -rc))"]))
        }
    }

    private func regainMaster() -> Bool {
        _ = drmSetMaster(fd)
        do {
            try setCRTC()
            // The mode is set again, which also tells master is ours; a screen put to sleep
            // meanwhile goes off again.
            if output.asleep {
                switchOutputOff()
                output = .off(.asleep)
            } else {
                output = .on
            }
            tell(Notice(.notice, "DRM master is back: repainting", ["card": path]))
            return true
        } catch {
            return false
        }
    }

    private func setCRTC() throws(DisplayError) {
        var connector = connectorID
        let rc = drmModeSetCrtc(fd, crtcID, buffer.framebuffer, 0, 0, &connector, 1, &mode)
        if rc == -EACCES || rc == -EPERM || rc == -EBUSY { throw .masterHeld(path: path) }
        if rc != 0 { throw .call(path: path, operation: "drmModeSetCrtc", errno: Errno(rawValue: -rc)) }
    }

    private func enterGraphics(_ vt: String) {
        // O_NOCTTY: a service is a session leader, and a console it opened without it (any
        // tty but tty0) would become its controlling terminal, whose hangup sends SIGHUP.
        // O_WRONLY: KDSETMODE needs no read access, and the tty group may only write a console
        // (udev makes it 0620). The ioctl itself needs CAP_SYS_TTY_CONFIG (the unit grants it).
        let opened: FileDescriptor
        do {
            opened = try FileDescriptor.open(vt, .writeOnly, options: [.closeOnExec, FileDescriptor.OpenOptions(rawValue: O_NOCTTY)])
        } catch {
            tell(Notice(.warning, "could not open the VT to hide the console; its text may show through", ["vt": vt, "error": "\(error)"]))
            return
        }
        console = opened
        if signpad_vt_set_graphics(opened.rawValue, 1) != 0 {
            tell(Notice(.warning, "KDSETMODE KD_GRAPHICS failed; the console's text may show through", ["vt": vt, "error": "\(Errno(rawValue: errno))"]))
        }
    }

    private func leaveGraphics() {
        guard let console else { return }
        _ = signpad_vt_set_graphics(console.rawValue, 0)
        try? console.close()
        self.console = nil
    }
}
