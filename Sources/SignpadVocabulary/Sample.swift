/// One timed touch sample in screen pixels.
public struct Sample: Equatable, Sendable {
    public var point: Point
    /// Monotonic time in seconds.
    public var time: Double
    /// Normalised pressure 0…1, when the device reports it.
    public var pressure: Double?
    /// Made by a pen's eraser end (BTN_TOOL_RUBBER), not its tip: it takes ink away (see `Kiosk`).
    public var erasing: Bool
    /// The pen's tilt in hundredths of a degree, `Int16.min` where the device reports none: two
    /// words in what was padding, so a sample is no larger for it (see `tilt`).
    private var tiltX = Int16.min, tiltY = Int16.min

    public init(_ point: Point, time: Double, pressure: Double? = nil, erasing: Bool = false, tilt: Tilt? = nil) {
        self.point = point
        self.time = time
        self.pressure = pressure
        self.erasing = erasing
        if let tilt { (tiltX, tiltY) = (tilt.x, tilt.y) }
    }

    /// The pen's tilt, when its device reports it.
    public var tilt: Tilt? { tiltX == .min ? nil : Tilt(x: tiltX, y: tiltY) }
}

/// A pen's tilt from the vertical along the screen's X and Y, in hundredths of a degree
/// (-9000…9000), as evdev's ABS_TILT_X and ABS_TILT_Y give it.
public struct Tilt: Equatable, Sendable {
    public var x: Int16
    public var y: Int16

    public init(x: Int16, y: Int16) {
        self.x = x
        self.y = y
    }

    /// Degrees each way, held within ±90 (a device's odd value is not allowed to pass for
    /// "none").
    public init(degreesX: Double, degreesY: Double) {
        func hundredths(_ d: Double) -> Int16 { d.isFinite ? Int16((min(max(d, -90), 90) * 100).rounded()) : 0 }
        self.init(x: hundredths(degreesX), y: hundredths(degreesY))
    }
}

/// What an input device says about the one contact signpad follows.
public enum StrokeEvent: Equatable, Sendable {
    case down(Sample)
    case move(Sample)
    /// The contact lifted; the stroke ends at its last sample.
    case up
    /// The contact was taken away (lost events, unplug); the stroke still ends cleanly at its last sample.
    case cancel
    /// The contact was never writing: a hand or water resting on the glass while another finger
    /// writes, a still contact the panel calls a palm, the hand under a pen. Its stroke is taken back:
    /// the kiosk takes its ink away. The ink engine ends it as `cancel`; the signature's strokes
    /// are then drawn anew without it.
    case withdraw

    /// How far (px) a touch may wander from where it landed and still be a tap on a button, or a
    /// contact lying on the glass: further is a finger that writes.
    public static let stillRadius = 10.0

    /// Up, cancel or withdraw: no contact follows in this stroke.
    public var endsStroke: Bool {
        switch self {
        case .down, .move: false
        case .up, .cancel, .withdraw: true
        }
    }
}
