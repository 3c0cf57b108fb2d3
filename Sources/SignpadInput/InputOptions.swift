/// What the input takes from the configuration (`[input]`).
public struct InputOptions: Equatable, Sendable {
    /// The device to read, by name or path (`input.device`); nil: every touchscreen and pen found.
    public var device: String?
    /// Whether the device is grabbed, so that nothing else reads it (`input.grab`).
    public var grab = true
    /// libinput's six numbers a b c d e f (`input.calibration`); nil: none set here.
    public var calibration: [Double]?
    public var flipX = false
    public var flipY = false

    public init() {}
}
