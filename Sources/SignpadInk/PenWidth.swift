import SignpadVocabulary
/// How wide the ink is at each sample.
public enum PenWidth: Equatable, Sendable {
    /// One width everywhere (the default).
    case constant(Double)
    /// `min` at zero pressure up to `max` at full pressure; samples without pressure get the midpoint.
    case pressure(min: Double, max: Double)
    /// signature_pad's rule: width = max(maxWidth / (velocity + 1), minWidth), velocity in px/ms
    /// filtered as weight × new + (1 − weight) × previous.
    case velocity(min: Double, max: Double, filterWeight: Double)

    /// The widths signpad draws (px), for whatever reads one from a file: a width out of reason
    /// would stall every touch, or exhaust memory at each save.
    public static let allowedWidths = 0.1...100.0

    /// Why this pen cannot be drawn with (a width outside `allowedWidths`, a minimum above the
    /// maximum, a filter weight outside 0…1); nil when it can.
    public var problem: String? {
        let widths: [Double], weight: Double
        switch self {
        case .constant(let width): (widths, weight) = ([width], 0)
        case .pressure(let lo, let hi): (widths, weight) = ([lo, hi], 0)
        case .velocity(let lo, let hi, let k): (widths, weight) = ([lo, hi], k)
        }
        if let bad = widths.first(where: { !Self.allowedWidths.contains($0) }) {
            return "expected a width from \(Self.allowedWidths.lowerBound) to \(Self.allowedWidths.upperBound) (px), got \(bad)"
        }
        if widths.count == 2 && widths[0] > widths[1] { return "expected the minimum width (\(widths[0])) at most the maximum (\(widths[1]))" }
        guard (0...1).contains(weight) else { return "expected a velocity filter weight from 0 to 1, got \(weight)" }
        return nil
    }

    /// The widest the ink is drawn.
    public var maximum: Double {
        switch self {
        case .constant(let width): return width
        case .pressure(let lo, let hi), .velocity(let lo, let hi, _): return max(lo, hi)
        }
    }

    /// The diameter of a tap's dot.
    public var dotDiameter: Double {
        switch self {
        case .constant(let width): return width
        case .pressure(let lo, let hi), .velocity(let lo, let hi, _): return (lo + hi) / 2
        }
    }
}

/// Turns kept samples into widths, carrying the velocity filter's state along a stroke.
struct WidthTracker {
    let model: PenWidth
    private var lastVelocity = 0.0
    private var last: Sample?

    init(model: PenWidth) { self.model = model }

    mutating func reset() {
        lastVelocity = 0
        last = nil
    }

    mutating func width(for sample: Sample) -> Double {
        defer { last = sample }
        switch model {
        case .constant(let width):
            return width
        case .pressure(let lo, let hi):
            let p = min(max(sample.pressure ?? 0.5, 0), 1)
            return lo + (hi - lo) * p
        case .velocity(let lo, let hi, let weight):
            guard let last else { return (lo + hi) / 2 }
            let milliseconds = max((sample.time - last.time) * 1000, 1e-3)
            let velocity = weight * (sample.point.distance(to: last.point) / milliseconds) + (1 - weight) * lastVelocity
            lastVelocity = velocity
            return max(hi / (velocity + 1), lo)
        }
    }
}
