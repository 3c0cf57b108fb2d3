/// One timed touch sample in screen pixels.
public struct Sample: Equatable, Sendable {
    public var point: Point
    /// Monotonic time in seconds.
    public var time: Double
    /// Normalised pressure 0…1, when the device reports it.
    public var pressure: Double?
    /// Made by a pen's eraser end (BTN_TOOL_RUBBER), not its tip: it takes ink away (see `Kiosk`).
    public var erasing: Bool

    public init(_ point: Point, time: Double, pressure: Double? = nil, erasing: Bool = false) {
        self.point = point
        self.time = time
        self.pressure = pressure
        self.erasing = erasing
    }
}

/// What an input device says about the one contact signpad follows.
public enum StrokeEvent: Equatable, Sendable {
    case down(Sample)
    case move(Sample)
    /// The contact lifted; the stroke ends at its last sample.
    case up
    /// The contact was taken away (palm, lost events, unplug); the stroke still ends cleanly at its last sample.
    case cancel
}
