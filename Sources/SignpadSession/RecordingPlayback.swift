import SignpadConfig
import SignpadInput

/// A recording played into a session as if a panel sent it, in real time: the input of a daemon
/// without devices (`signpad run --offscreen`), for tests and demos. Each `start` plays it from its
/// beginning, its times moved to the moment of the start.
public final class RecordingPlayback {
    public let recording: EvemuRecording
    private let input: Int
    private let session: Session
    private let confirmAtEnd: Bool
    /// Added to each event's time: where the recording's first event falls on the monotonic clock.
    private var shift: Int64 = 0
    private var next: Int?

    /// Adds the recording's device to `session`'s input; with `confirmAtEnd`, Done is pressed
    /// after its last event, as a customer would.
    public init(_ recording: EvemuRecording, session: Session, confirmAtEnd: Bool) throws {
        self.recording = recording
        self.confirmAtEnd = confirmAtEnd
        self.session = session
        input = try session.addInput(recording)
    }

    /// Plays from the beginning, its first event at `now` (monotonic seconds). A playback cut short
    /// (its request ended mid-stroke) first lifts its finger, so that the recording's first touch
    /// lands anew rather than going on with a contact the kiosk gave up.
    public func start(now: Double) {
        if next != nil { session.finishInput(input, now: now) }
        guard let first = recording.events.first else { return }
        shift = Int64((now * 1e6).rounded()) - first.microseconds
        next = 0
    }

    public var isPlaying: Bool { next != nil }

    /// When the next event is due; infinity when none is.
    public var nextDeadline: Double {
        guard let next else { return .infinity }
        return Double(recording.events[next].microseconds + shift) / 1e6
    }

    /// Feeds every event due by `now`; after the last, ends the touch and, if asked, presses Done.
    /// `drew` is told the time of each event that drew ink, for the latency figures.
    public func play(until now: Double, into session: Session, drew: (Double) -> Void = { _ in }) {
        guard var index = next else { return }
        while index < recording.events.count {
            var event = recording.events[index]
            event.microseconds += shift
            guard event.seconds <= now else {
                next = index
                return
            }
            let moves = session.movesDrawn
            session.feed(event, from: input, now: event.seconds)
            if session.movesDrawn != moves { drew(event.seconds) }
            index += 1
        }
        next = nil
        session.finishInput(input, now: now)
        if confirmAtEnd && session.kiosk.hasInk { session.confirm(now: now) }
    }
}

extension Session {
    /// Reads a recording's device from now on, mapped to this screen with the configuration's
    /// calibration, rotation and flips as a panel would be; returns its index for `feed`.
    public func addInput(_ recording: EvemuRecording) throws -> Int {
        let decoder = try inputSetup.decoder(for: recording.device)
        let kind = decoder.kind
        return addInput(path: recording.device.name, name: recording.device.name, kind: kind, decoder: consume decoder)
    }

    /// Feeds events of device `input` at their own times, as fast as they go, the kiosk's clocks
    /// ticking between them, and ends its touch; returns the time of the last.
    public func play(_ events: [InputEvent], from input: Int) -> Double {
        var now = events.first?.seconds ?? 0
        for event in events {
            now = event.seconds
            if now >= nextDeadline { tick(now: now) }
            feed(event, from: input, now: now)
        }
        finishInput(input, now: now)
        return now
    }
}
