import SignpadVocabulary

/// Turns the raw event stream of one device into the strokes of the one contact signpad follows:
/// the device's front end, chosen once from its classification, makes frames of contacts, and
/// the `ContactPolicy` says which of them is drawn.
///
/// The same decoder serves the live device and evemu replays. Events are collected until
/// SYN_REPORT and the frame is judged as a whole, as the kernel means it. SYN_DROPPED ends the
/// stroke at its last good sample; it resumes as a new one when the device is in sync again.
public struct ContactDecoder: Sendable {
    /// Whether the events read are the device's, or follow a SYN_DROPPED until it is in sync again.
    private enum Reading: Equatable, Sendable {
        case inSync
        case dropping
    }

    public let kind: DeviceKind
    public let reporting: ContactReporting
    private var frontEnd: ChosenFrontEnd
    private var policy: ContactPolicy
    /// The frame the front end fills and the policy judges; its storage kept from frame to frame.
    private var frame: ContactFrame
    private var reading = Reading.inSync
    private var positionWatch = PositionWatch()
    /// Set once touches were seen not to move on the axes read while others moved: those axes.
    private var stuckPositionAxes: UInt64?

    /// The most samples a waiting contact's stroke starts with when it is followed.
    public static let maxUnfollowedSamples = ContactPolicy.maxWaitingSamples

    /// The front end is the classifier's choice: `kind` and `reporting` as it classified `device`.
    init(device: DeviceDescription, kind: DeviceKind, reporting: ContactReporting, mapping: ScreenMapping) {
        self.kind = kind
        self.reporting = reporting
        frontEnd = ChosenFrontEnd(device: device, kind: kind, reporting: reporting, mapping: mapping)
        policy = ContactPolicy(slotCount: frontEnd.slotCount)
        frame = ContactFrame(capacity: frontEnd.slotCount)
        pen = frontEnd.reading.pen
    }

    /// A decoder for a device description, with the axes chosen by its classification.
    public init(device: DeviceDescription, screenWidth: Int, screenHeight: Int,
                calibration: CalibrationMatrix = .identity, rotation: Rotation = .none,
                flipX: Bool = false, flipY: Bool = false) throws(UnusableDeviceError) {
        let kind: DeviceKind, reporting: ContactReporting
        switch DeviceClassifier.classify(device) {
        case .usable(let usableKind, let usableReporting): (kind, reporting) = (usableKind, usableReporting)
        case .skipped(let reason): throw UnusableDeviceError(device: device.name, reason: reason)
        }
        typealias C = EventCode
        let multitouch = reporting.isMultitouch
        let xCode = multitouch ? C.ABS_MT_POSITION_X : C.ABS_X
        let yCode = multitouch ? C.ABS_MT_POSITION_Y : C.ABS_Y
        let pressureCode = multitouch ? C.ABS_MT_PRESSURE : C.ABS_PRESSURE
        // The classifier took the device only with both axes.
        // A pen's tilt; a touch has none to give.
        let tilt = kind == .pen ? device.absInfo[C.ABS_TILT_X].flatMap { x in device.absInfo[C.ABS_TILT_Y].map { TiltAxes(x: x, y: $0) } } : nil
        let mapping = ScreenMapping(xAxis: device.absInfo[xCode]!, yAxis: device.absInfo[yCode]!,
                                    pressureAxis: device.absInfo[pressureCode], tiltAxes: tilt, screenWidth: screenWidth,
                                    screenHeight: screenHeight, calibration: calibration, rotation: rotation,
                                    flipX: flipX, flipY: flipY)
        self.init(device: device, kind: kind, reporting: reporting, mapping: mapping)
    }

    public var mapping: ScreenMapping { frontEnd.mapping }

    /// Whether a pen is near the glass: in proximity (BTN_TOOL_PEN or BTN_TOOL_RUBBER), or, for a
    /// pen that does not report proximity, touching; and where it is, hovering or touching, on the
    /// screen. Never near, and nowhere, for other kinds. Read when a frame ends (or the first after
    /// dropped events), at open and when the device goes: between them, the last frame's.
    public private(set) var pen = PenReading(near: false, position: nil)

    /// The state read from the device at open. Contacts already down are ignored until they lift,
    /// so a stroke never starts in the middle of a finger's path; on a multitouch panel they do
    /// not hold back the next finger to land (water left on the glass must not make the pad deaf).
    public mutating func setInitialState(slots: [(trackingID: Int32, x: Int32, y: Int32)], currentSlot: Int,
                                         touching: Bool, penInRange: Bool = false, eraserInRange: Bool = false,
                                         x: Int32, y: Int32) {
        frontEnd.setInitialState(InitialDeviceState(slots: slots, currentSlot: currentSlot, touching: touching,
                                                    penInRange: penInRange, eraserInRange: eraserInRange, x: x, y: y))
        pen = frontEnd.reading.pen
        // A device of one contact holds it itself, and only if touching.
        frame.begin(time: frame.time)
        if reporting.isMultitouch { frontEnd.letGo(into: &frame) }
        policy.letGo(frame)
    }

    /// Feeds one event; calls `emit` for each stroke event a completed frame produced.
    public mutating func feed(_ event: InputEvent, emit: (StrokeEvent) -> Void) {
        typealias C = EventCode
        let report = event.endsFrame
        switch reading {
        case .dropping where report:
            reading = .inSync
            frame.begin(time: event.seconds)
            frontEnd.resync(into: &frame)
            pen = frontEnd.reading.pen
            policy.resync(frame)
        case .dropping:
            if event.type != C.EV_SYN { absorb(event) }
        case .inSync where event.type == C.EV_SYN && event.code == C.SYN_DROPPED:
            frame.begin(time: event.seconds)
            frontEnd.dropped(into: &frame)
            policy.eventsDropped(frame, emit: emit)
            reading = .dropping
        case .inSync where report:
            let end = frontEnd.endFrame(time: event.seconds, into: &frame)
            pen = end.pen
            policy.judge(frame, emit: emit)
            if let axes = positionWatch.frame(contactDown: end.anyContactDown) { stuckPositionAxes = axes }
        case .inSync:
            absorb(event)
        }
    }

    /// An axis, a key or (in sync) SYN_MT_REPORT: it changes the device's state until its frame
    /// ends, in sync or not. The pipeline gives it every event but EV_SYN's directly.
    mutating func absorb(_ event: InputEvent) {
        if event.type == EventCode.EV_ABS { positionWatch.saw(axis: event.code, value: event.value) }
        frontEnd.absorb(event)
    }

    /// Stops following the contacts down now, without a stroke event: the kiosk has given the touch
    /// up (one that stayed down and still past the idle timeout: a customer gone, or water or dirt
    /// on the glass). On a multitouch panel the next finger to land is followed while they stay
    /// down; a device of one contact reports nothing until its contact lifts.
    public mutating func letGoOfContacts() {
        frame.begin(time: frame.time)
        frontEnd.letGo(into: &frame)
        policy.letGo(frame)
    }

    /// Ends any stroke in progress, as when the device goes away.
    public mutating func cancel(emit: (StrokeEvent) -> Void) {
        frontEnd.reset()
        pen = frontEnd.reading.pen
        policy.deviceGone(emit: emit)
    }

    /// Once, after touches that never moved on the axes read while others did: the kernel's names
    /// of those others (the device reports its position there, and signpad cannot use it).
    /// Inlined: asked at every frame, and almost always nothing.
    @inline(__always)
    public mutating func takeStuckPositionAxes() -> [String]? {
        guard let mask = stuckPositionAxes else { return nil }
        stuckPositionAxes = nil
        return Self.axisNames(mask)
    }

    /// The kernel's names of the axes in `mask`, as bits.
    private static func axisNames(_ mask: UInt64) -> [String] {
        (0..<64).filter { mask & (1 << UInt64($0)) != 0 }.map { PositionWatch.name(UInt16($0)) }
    }
}
