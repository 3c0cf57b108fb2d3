/// Settings for taking the screen.
public struct DisplayOptions: Equatable, Sendable {
    /// A card path such as /dev/dri/card1; nil picks the first card with a connected display.
    public var device: String?
    /// A connector name such as HDMI-A-1; nil picks the first connected one.
    public var connector: String?
    /// A mode such as 1920x1080; nil picks the preferred one, else the largest.
    public var mode: String?
    public var rotation: Rotation
    /// The console whose VT is switched to graphics mode while signpad runs; nil leaves it alone.
    public var vt: String?

    public init(device: String? = nil, connector: String? = nil, mode: String? = nil, rotation: Rotation = .none, vt: String? = "/dev/tty0") {
        self.device = device
        self.connector = connector
        self.mode = mode
        self.rotation = rotation
        self.vt = vt
    }
}

/// The largest screen signpad signs on: an 8K panel, either way up. Samples lie on the screen and
/// the exported image is their extent, so a larger one would ask an export for gigabytes; the
/// kiosk does not start on one, and a spool file naming one is set aside.
public enum ScreenLimit {
    public static let maxSide = 8192
    public static let maxPixels = 8192 * 4608

    public static func allows(width: Int, height: Int) -> Bool {
        (1...maxSide).contains(width) && (1...maxSide).contains(height) && width * height <= maxPixels
    }

    public static let description = "\(maxSide)x\(maxPixels / maxSide) (either way up)"
}
