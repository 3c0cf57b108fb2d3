import SignpadVocabulary

/// libinput's calibration matrix: six numbers (a b c d e f) applied to normalised coordinates,
/// x' = a·x + b·y + c, y' = d·x + e·y + f.
public struct CalibrationMatrix: Equatable, Sendable {
    // Six numbers, not an array: every sample is mapped through them, and an array would be
    // retained with each copy of a mapping and bounds-checked at each read.
    private let a, b, c, d, e, f: Double

    public var values: [Double] { [a, b, c, d, e, f] }

    public static let identity = CalibrationMatrix(values: [1, 0, 0, 0, 1, 0])!

    public init?(values: [Double]) {
        guard values.count == 6, values.allSatisfy({ $0.isFinite }) else { return nil }
        (a, b, c, d, e, f) = (values[0], values[1], values[2], values[3], values[4], values[5])
    }

    /// Parses the `LIBINPUT_CALIBRATION_MATRIX` udev property: six numbers separated by spaces.
    public init?(udevProperty: String) {
        // Every word must be a number: dropping one that is not would shift the rest into other places.
        let words = udevProperty.split(whereSeparator: { $0 == " " || $0 == "\t" })
        let numbers = words.compactMap { Double($0) }
        guard numbers.count == words.count else { return nil }
        self.init(values: numbers)
    }

    public static func rotation(_ rotation: Rotation) -> CalibrationMatrix {
        switch rotation {
        case .none: return .identity
        case .quarter: return CalibrationMatrix(values: [0, -1, 1, 1, 0, 0])!
        case .half: return CalibrationMatrix(values: [-1, 0, 1, 0, -1, 1])!
        case .threeQuarter: return CalibrationMatrix(values: [0, 1, 0, -1, 0, 1])!
        }
    }

    /// The matrix that applies `self` first, then `next`.
    public func then(_ next: CalibrationMatrix) -> CalibrationMatrix {
        let m = values, n = next.values
        return CalibrationMatrix(values: [
            n[0] * m[0] + n[1] * m[3], n[0] * m[1] + n[1] * m[4], n[0] * m[2] + n[1] * m[5] + n[2],
            n[3] * m[0] + n[4] * m[3], n[3] * m[1] + n[4] * m[4], n[3] * m[2] + n[4] * m[5] + n[5],
        ])!
    }

    public func apply(_ x: Double, _ y: Double) -> (Double, Double) {
        (a * x + b * y + c, d * x + e * y + f)
    }

    /// The matrix that undoes this one; nil when it squashes the plane onto a line.
    public var inverse: CalibrationMatrix? {
        let v = values, det = v[0] * v[4] - v[1] * v[3]
        guard abs(det) > 1e-12 else { return nil }
        let a = v[4] / det, b = -v[1] / det, d = -v[3] / det, e = v[0] / det
        return CalibrationMatrix(values: [a, b, -(a * v[2] + b * v[5]), d, e, -(d * v[2] + e * v[5])])
    }
}

/// How the panel is turned and mirrored, applied after the calibration, as libinput's matrix.
public struct ScreenPlacement: Equatable, Sendable {
    public var rotation: Rotation
    public var flipX: Bool
    public var flipY: Bool

    public init(rotation: Rotation = .none, flipX: Bool = false, flipY: Bool = false) {
        self.rotation = rotation
        self.flipX = flipX
        self.flipY = flipY
    }

    public var matrix: CalibrationMatrix {
        var m = CalibrationMatrix.rotation(rotation)
        if flipX { m = m.then(CalibrationMatrix(values: [-1, 0, 1, 0, 1, 0])!) }
        if flipY { m = m.then(CalibrationMatrix(values: [1, 0, 0, 0, -1, 1])!) }
        return m
    }
}

/// A pen's two tilt axes.
public struct TiltAxes: Equatable, Sendable {
    public var x: AbsInfo
    public var y: AbsInfo

    public init(x: AbsInfo, y: AbsInfo) {
        self.x = x
        self.y = y
    }
}

/// Maps device units to screen pixels the way libinput does:
/// normalise with (v − min) / (max − min + 1), apply calibration, then rotation and flips, scale, clamp.
public struct ScreenMapping: Equatable, Sendable {
    public var xAxis: AbsInfo
    public var yAxis: AbsInfo
    public var pressureAxis: AbsInfo?
    /// A pen's ABS_TILT_X and ABS_TILT_Y, when it has both.
    public var tiltAxes: TiltAxes?
    public var screenWidth: Int
    public var screenHeight: Int
    public var transform: CalibrationMatrix

    public init(xAxis: AbsInfo, yAxis: AbsInfo, pressureAxis: AbsInfo? = nil, tiltAxes: TiltAxes? = nil, screenWidth: Int,
                screenHeight: Int, calibration: CalibrationMatrix = .identity, rotation: Rotation = .none,
                flipX: Bool = false, flipY: Bool = false) {
        self.xAxis = xAxis
        self.yAxis = yAxis
        self.tiltAxes = tiltAxes
        self.pressureAxis = pressureAxis.flatMap { $0.maximum > $0.minimum ? $0 : nil }
        self.screenWidth = screenWidth
        self.screenHeight = screenHeight
        transform = calibration.then(ScreenPlacement(rotation: rotation, flipX: flipX, flipY: flipY).matrix)
    }

    /// A device position on the screen. Inlined, as are `pressure` and `tilt`: called on a front
    /// end's mapping once a frame, a call copies the whole mapping first.
    @inline(__always)
    public func point(x: Int32, y: Int32) -> Point {
        let nx = Double(Int64(x) - Int64(xAxis.minimum)) / Double(Int64(xAxis.maximum) - Int64(xAxis.minimum) + 1)
        let ny = Double(Int64(y) - Int64(yAxis.minimum)) / Double(Int64(yAxis.maximum) - Int64(yAxis.minimum) + 1)
        let (tx, ty) = transform.apply(nx, ny)
        return Point(Self.clamp(tx * Double(screenWidth), screenWidth), Self.clamp(ty * Double(screenHeight), screenHeight))
    }

    /// Screen pixels per millimetre of the device's surface, from the resolution evdev gives
    /// its axes (units per mm) through the mapping (calibration, rotation and flips); nil when
    /// an axis gives none. What a stroke measures in millimetres on the glass or the tablet.
    public var surfaceDensity: PixelDensity? {
        guard xAxis.resolution > 0, yAxis.resolution > 0 else { return nil }
        let wide = Double(Int64(xAxis.maximum) - Int64(xAxis.minimum) + 1) / Double(xAxis.resolution)
        let high = Double(Int64(yAxis.maximum) - Int64(yAxis.minimum) + 1) / Double(yAxis.resolution)
        let m = transform.values
        // Each screen axis's pixels per millimetre moved along the device's axes.
        let x = Double(screenWidth) * (m[0] * m[0] / (wide * wide) + m[1] * m[1] / (high * high)).squareRoot()
        let y = Double(screenHeight) * (m[3] * m[3] / (wide * wide) + m[4] * m[4] / (high * high)).squareRoot()
        guard x.isFinite, y.isFinite, x > 0, y > 0 else { return nil }
        return PixelDensity(x: x, y: y)
    }

    /// Degrees from the axes' units: evdev gives tilt's resolution in units per radian; a device
    /// that gives none reports degrees. As the device reports it, not turned with the screen.
    @inline(__always)
    public func tilt(x: Int32, y: Int32) -> Tilt? {
        guard let tiltAxes else { return nil }
        func degrees(_ raw: Int32, _ axis: AbsInfo) -> Double { axis.resolution > 0 ? Double(raw) / Double(axis.resolution) * 180 / .pi : Double(raw) }
        return Tilt(degreesX: degrees(x, tiltAxes.x), degreesY: degrees(y, tiltAxes.y))
    }

    @inline(__always)
    public func pressure(_ raw: Int32) -> Double? {
        guard let axis = pressureAxis else { return nil }
        return min(max(Double(Int64(raw) - Int64(axis.minimum)) / Double(Int64(axis.maximum) - Int64(axis.minimum)), 0), 1)
    }

    @inline(__always)
    private static func clamp(_ v: Double, _ size: Int) -> Double {
        // A matrix of huge (finite) numbers can overflow to inf − inf; NaN must not reach the renderer.
        v.isNaN ? 0 : min(max(v, 0), Double(size) - 1.0 / 256)
    }
}
