import SignpadVocabulary

/// What the input pipeline hands on: the stroke events of the one contact drawn, each with its
/// device, where a pen near the glass is, and what the journal should hear of.
public protocol InputSink: AnyObject {
    /// One stroke event of the device named `device`; `now` is monotonic seconds.
    func handle(_ event: StrokeEvent, device: String, now: Double)
    /// A pen near the glass is at `point` (after each frame of its device).
    func penHovers(at point: Point, now: Double)
    func inputNotice(_ notice: InputNotice, now: Double)
    /// What the pipeline is to do now, asked after each event and whenever the sink's owner has
    /// acted (a request begun or cancelled, time passed); nil once there is nothing.
    func takeInputCommand() -> InputCommand?
}

/// What the input is told between events by whoever asks for it: the kiosk giving a touch up
/// (its idle timeout, a request begun or cancelled under it).
public enum InputCommand: Equatable, Sendable {
    /// The touch on the paper is let go of: its device stops following that contact, and the
    /// next one to land is followed.
    case letGoOfTouch
}

/// Something about the input a person reading the journal wants to know; `path` is the device's.
public enum InputNotice: Equatable, Sendable {
    /// The kernel dropped events: the stroke ends at its last good sample.
    case eventsDropped(path: String)
    /// A pen landed, or came near, while a touch wrote: the touch (a resting hand) is taken back.
    case penTookBackTouch(path: String, landed: Bool)
    /// A touch was taken back by its own decoder: it lay still while another finger wrote, or was a palm.
    case touchTakenBack(path: String)
    /// A touch draws though a pen is near: the pen has lain still, put down.
    case touchBesidePutDownPen(path: String)
    /// A touch down and still at the idle timeout is let go of.
    case touchLetGo(path: String)
    /// Touches never moved on the axes signpad reads while these others moved: the device reports
    /// its position where signpad does not look, and draws nothing.
    case positionNeverMoves(path: String, movingAxes: [String])
}

/// Every device's raw `input_event` stream to the strokes of the one contact drawn: a decoder per
/// device, the arbiter between them (the pen's proximity included), and letting go of a contact
/// the kiosk gave up. The daemon feeds it what it reads from the devices and replay what a
/// recording holds, so a recording of two devices replays as the panel drew it.
public struct InputPipeline: Sendable {
    public struct Device: Sendable {
        public let path: String
        public let name: String
        public let kind: DeviceKind
        /// What the arbiter knows the device by: unlike its index, kept when another is removed.
        let number: Int
        public fileprivate(set) var decoder: ContactDecoder
    }

    public private(set) var devices: [Device] = []
    private var arbiter = InputArbiter()
    /// The number the next device added is known by.
    private var nextNumber = 0
    /// Whether the journal has been told that touches draw beside a pen put down.
    private var putDownPenTold = false
    /// The stroke events of the event being fed, before they are routed (kept, so feeding does not allocate).
    private var emitted: [StrokeEvent] = []

    /// The longest run one frame can emit: a waiting contact's path drawn at once, with a take-back and a lift.
    private static let frameEventsCapacity = ContactDecoder.maxUnfollowedSamples + 4

    public init() {
        emitted.reserveCapacity(Self.frameEventsCapacity)
    }

    /// The index of the device at `path`, for `feed`.
    public func index(of path: String) -> Int? { devices.firstIndex { $0.path == path } }

    /// The index of the device the arbiter knows by `number`.
    private func index(ofNumber number: Int) -> Int? { devices.firstIndex { $0.number == number } }

    /// Reads `decoder`'s device from now on; returns its index for `feed`.
    @discardableResult
    public mutating func add(path: String, name: String, kind: DeviceKind, decoder: consuming ContactDecoder) -> Int {
        devices.append(Device(path: path, name: name, kind: kind, number: nextNumber, decoder: decoder))
        nextNumber += 1
        return devices.count - 1
    }

    /// One event of device `index`; the stroke events it completes go to `sink`.
    public mutating func feed(_ event: InputEvent, from index: Int, now: Double, into sink: some InputSink) {
        typealias C = EventCode
        // Most events are an axis or a key: they change the device's state until its frame
        // ends, and tell the sink nothing, nor can a command wait for them.
        guard event.type == C.EV_SYN else {
            devices[index].decoder.absorb(event)
            return
        }
        // The path is read only where it is used: taken on every event, it is retained and released.
        if event.type == C.EV_SYN && event.code == C.SYN_DROPPED { sink.inputNotice(.eventsDropped(path: devices[index].path), now: now) }
        decode(index, now: now, into: sink) { decoder, emit in decoder.feed(event, emit: emit) }
        defer { obeyCommands(now: now, from: sink) }
        guard event.endsFrame else { return }
        if let axes = devices[index].decoder.takeStuckPositionAxes() {
            sink.inputNotice(.positionNeverMoves(path: devices[index].path, movingAxes: axes), now: now)
        }
        // Only a pen is ever near: a touchscreen's frames end here.
        guard devices[index].kind == .pen else { return }
        let pen = devices[index].decoder.pen
        if pen.near, let position = pen.position { sink.penHovers(at: position, now: now) }
        let touchOwner = arbiter.owner
        if arbiter.pen(devices[index].number, near: pen.near, at: pen.position, now: now) {
            sink.inputNotice(.penTookBackTouch(path: devices[index].path, landed: false), now: now)
            sink.handle(.withdraw, device: devices[index].name, now: now)
            letGoOfHand(on: touchOwner)
        }
    }

    /// Runs `step` on device `index`'s decoder and routes the stroke events it emits. They are
    /// collected in `emitted`, swapped out and back rather than copied: a copy would share the
    /// buffer, and the next append would allocate.
    private mutating func decode(_ index: Int, now: Double, into sink: some InputSink,
                                 _ step: (inout ContactDecoder, (StrokeEvent) -> Void) -> Void) {
        var frame: [StrokeEvent] = []
        swap(&frame, &emitted)
        defer { swap(&frame, &emitted) }
        step(&devices[index].decoder) { frame.append($0) }
        // Most events complete no frame: nothing to route, nor to empty.
        guard !frame.isEmpty else { return }
        for stroke in frame { route(stroke, from: index, now: now, into: sink) }
        frame.removeAllKeepingStorage()
    }

    private mutating func route(_ stroke: StrokeEvent, from index: Int, now: Double, into sink: some InputSink) {
        // The fields, not the device: a copy of it would retain every array of its decoder.
        let kind = devices[index].kind
        let owner = arbiter.owner
        switch arbiter.route(stroke, from: devices[index].number, kind: kind, now: now) {
        case .drop:
            return
        case .withdrawOwnerThenPass:
            sink.inputNotice(.penTookBackTouch(path: devices[index].path, landed: true), now: now)
            sink.handle(.withdraw, device: devices[index].name, now: now)
            letGoOfHand(on: owner)
        case .pass:
            switch stroke {
            case .down: notePutDownPen(touchOn: devices[index].path, kind: kind, now: now, into: sink)
            case .withdraw: sink.inputNotice(.touchTakenBack(path: devices[index].path), now: now)
            case .move, .up, .cancel: break
            }
        }
        sink.handle(stroke, device: devices[index].name, now: now)
    }

    /// The arbiter took the stroke on the paper back for the pen: the touch that drew it is the
    /// hand holding the pen, and its device lets go of it as it does of one the kiosk gave up, so
    /// it holds back no finger once the pen has gone.
    private mutating func letGoOfHand(on touch: Int?) {
        guard let touch, let index = index(ofNumber: touch) else { return }
        devices[index].decoder.letGoOfContacts()
    }

    /// Tells, once until the pen is used or gone, that touches draw beside a pen put down.
    private mutating func notePutDownPen(touchOn path: String, kind: DeviceKind, now: Double, into sink: some InputSink) {
        guard kind != .pen && arbiter.penNear else {
            putDownPenTold = false
            return
        }
        guard !putDownPenTold else { return }
        putDownPenTold = true
        sink.inputNotice(.touchBesidePutDownPen(path: path), now: now)
    }

    /// Does what `sink` asks for now (see `InputSink.takeInputCommand`). `feed` asks after each
    /// event; the sink's owner asks after acting outside `feed`.
    public mutating func obeyCommands(now: Double, from sink: some InputSink) {
        while let command = sink.takeInputCommand() {
            switch command {
            case .letGoOfTouch: letGoOfTouch(now: now, into: sink)
            }
        }
    }

    /// The kiosk gave up the touch down now (`KioskEffect.letGoOfTouch`): its device stops
    /// following that contact, and the paper is free for the next one to land.
    public mutating func letGoOfTouch(now: Double, into sink: some InputSink) {
        guard let owner = arbiter.letGo(), let index = index(ofNumber: owner) else { return }
        devices[index].decoder.letGoOfContacts()
        sink.inputNotice(.touchLetGo(path: devices[index].path), now: now)
    }

    /// Device `path` is gone (closed or unplugged): a stroke of its in progress ends at its last sample.
    public mutating func remove(_ path: String, now: Double, into sink: some InputSink) {
        guard let index = index(of: path) else { return }
        let name = devices[index].name, number = devices[index].number
        devices.remove(at: index)
        if arbiter.remove(number, now: now) { sink.handle(.cancel, device: name, now: now) }
    }

    /// Ends what is in progress on device `index`, as at the end of a recording.
    public mutating func finish(_ index: Int, now: Double, into sink: some InputSink) {
        decode(index, now: now, into: sink) { decoder, emit in decoder.cancel(emit: emit) }
    }

    /// Forgets every device, with the display they map to gone: nothing is drawn.
    public mutating func removeAll() {
        devices = []
        arbiter = InputArbiter()
        putDownPenTold = false
    }
}
