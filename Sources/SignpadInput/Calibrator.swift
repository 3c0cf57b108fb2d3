import SignpadVocabulary

/// Why a calibration could not give a matrix.
public struct CalibrationError: Error, CustomStringConvertible, Equatable {
    public var description: String

    public init(description: String) { self.description = description }
}

/// `signpad calibrate`: the steps of touching targets, for whoever installs the kiosk, and the fit.
///
/// The touches come from a decoder mapping with no calibration, rotation or flip, so a touch's
/// position divided by the screen size is the device's own normalised position. The matrix found
/// is the one `input.calibration` holds: libinput's, applied before the configured rotation and
/// flips, so it stays right when those are set too.
public struct Calibrator: Sendable {
    /// Where the targets are, as fractions of the screen, in the order they are shown. Inset so a
    /// finger can reach them on any bezel; the centre checks the fit.
    public static let targets = [Point(0.1, 0.1), Point(0.9, 0.1), Point(0.9, 0.9), Point(0.1, 0.9), Point(0.5, 0.5)]

    public enum Step: Equatable, Sendable {
        /// Waiting for a touch on target `index`.
        case target(index: Int, retry: Bool)
        /// Every target was touched: the matrix and the largest distance (px) between a target and
        /// where the matrix puts its touch.
        case finished(CalibrationMatrix, worstErrorPixels: Double)
        case failed(CalibrationError)
    }

    public let screenWidth: Int
    public let screenHeight: Int
    /// The configured rotation and flips, which the matrix found is applied before.
    public let placement: ScreenPlacement
    public private(set) var step: Step = .target(index: 0, retry: false)
    private var touched: [Point] = []
    private var stroke: [Point] = []

    public init(screenWidth: Int, screenHeight: Int, placement: ScreenPlacement = ScreenPlacement()) {
        self.screenWidth = screenWidth
        self.screenHeight = screenHeight
        self.placement = placement
    }

    /// The target being asked for, in screen pixels.
    public var currentTarget: Point? {
        guard case .target(let index, _) = step else { return nil }
        return pixels(Self.targets[index])
    }

    /// A touch that wanders further than this (px) from where it landed is not a touch on a target.
    public var stillness: Double { Double(min(screenWidth, screenHeight)) / 20 }

    public mutating func handle(_ event: StrokeEvent) {
        guard case .target(let index, _) = step else { return }
        switch event {
        case .down(let sample):
            stroke = [sample.point]
        case .move(let sample):
            if !stroke.isEmpty { stroke.append(sample.point) }
        case .cancel, .withdraw:
            stroke = []
        case .up:
            guard let first = stroke.first else { return }
            let points = stroke
            stroke = []
            guard points.allSatisfy({ $0.distance(to: first) <= stillness }) else {
                step = .target(index: index, retry: true)
                return
            }
            let sum = points.reduce(Point(0, 0)) { Point($0.x + $1.x, $0.y + $1.y) }
            touched.append(Point(sum.x / Double(points.count) / Double(screenWidth), sum.y / Double(points.count) / Double(screenHeight)))
            if touched.count < Self.targets.count {
                step = .target(index: touched.count, retry: false)
            } else {
                finish()
            }
        }
    }

    private mutating func finish() {
        do {
            let matrix = try Self.fit(touched: touched, targets: Self.targets, placement: placement)
            let worst = zip(touched, Self.targets).map { touch, target in
                let (x, y) = matrix.then(placement.matrix).apply(touch.x, touch.y)
                return pixels(Point(x, y)).distance(to: pixels(target))
            }.max() ?? 0
            step = .finished(matrix, worstErrorPixels: worst)
        } catch {
            step = .failed(error)
        }
    }

    private func pixels(_ fraction: Point) -> Point { Point(fraction.x * Double(screenWidth), fraction.y * Double(screenHeight)) }

    /// The calibration matrix C, by least squares, such that applying C and then the rotation and
    /// flips takes each normalised touch to its normalised target.
    public static func fit(touched: [Point], targets: [Point], placement: ScreenPlacement) throws(CalibrationError) -> CalibrationMatrix {
        guard touched.count == targets.count, touched.count >= 3 else {
            throw CalibrationError(description: "need at least three touches, one per target; got \(touched.count)")
        }
        // Quarter turns and mirrors only permute and negate axes: always invertible.
        let undo = placement.matrix.inverse!
        let wanted = targets.map { t in undo.apply(t.x, t.y) }
        // Normal equations: (AᵀA) m = Aᵀb with rows A = [x y 1], once for each output coordinate.
        var ata = [[Double]](repeating: [0, 0, 0], count: 3)
        var atx = [0.0, 0.0, 0.0], aty = [0.0, 0.0, 0.0]
        for (p, w) in zip(touched, wanted) {
            let row = [p.x, p.y, 1]
            for i in 0..<3 {
                for j in 0..<3 { ata[i][j] += row[i] * row[j] }
                atx[i] += row[i] * w.0
                aty[i] += row[i] * w.1
            }
        }
        guard let first = solve(ata, atx), let second = solve(ata, aty),
              let matrix = CalibrationMatrix(values: first + second) else {
            throw CalibrationError(description: "the touches lie on one line or one point; touch each cross where it is drawn")
        }
        return matrix
    }

    /// Solves a 3×3 system by Cramer's rule; nil when it is (nearly) singular.
    static func solve(_ m: [[Double]], _ b: [Double]) -> [Double]? {
        func det(_ a: [[Double]]) -> Double {
            a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
                + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0])
        }
        let d = det(m)
        guard abs(d) > 1e-12 else { return nil }
        return (0..<3).map { column in
            var replaced = m
            for row in 0..<3 { replaced[row][column] = b[row] }
            return det(replaced) / d
        }
    }
}
