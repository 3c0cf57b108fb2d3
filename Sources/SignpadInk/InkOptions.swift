/// What the ink engine takes from the configuration (`[ink]`).
public struct InkOptions: Equatable, Sendable {
    /// The ink's colour, 0xRRGGBB (`ink.color`).
    public var color: UInt32 = 0x000000
    /// The pen's width and the smoothing (`ink.width`, `ink.width_mode` and the rest).
    public var pen = SmootherOptions()
    /// How far ahead of the newest sample ink is drawn on screen (`ink.predict_ms`); 0: none.
    public var predictMilliseconds = 16.0

    public init() {}
}
