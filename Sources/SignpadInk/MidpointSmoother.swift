import SignpadVocabulary
/// What one stroke event produced: curves that are now final, and the provisional tail.
public struct SmootherStep: Equatable, Sendable {
    /// Curves that will never change again; draw them for good.
    public var dry = InkPieces()
    /// The provisional tail from the end of the dry ink to the newest sample; it replaces the previous tail.
    public var wet = WetPath()
    /// True on the event that ended the stroke (up, cancel or withdraw); no wet ink remains after it.
    public var strokeEnded = false

    public init() {}
}

/// Settings of the smoother.
public struct SmootherOptions: Equatable, Sendable {
    /// Samples closer than this (px) to the last kept one are skipped, except a stroke's last sample.
    public var minDistance: Double
    /// The `minDistance` signpad takes from a file (px).
    public static let allowedMinDistances = 0.0...100.0
    public var width: PenWidth
    /// A stroke whose samples all lie within this distance (px) of its first sample is a tap: a dot.
    public var tapRadius: Double

    public init(minDistance: Double = 0.5, width: PenWidth = .constant(2.5), tapRadius: Double = 1) {
        self.minDistance = minDistance
        self.width = width
        self.tapRadius = tapRadius
    }
}

/// The five-point midpoint scheme, incremental.
///
/// With p0…p4 pending: p3 := midpoint(p2, p4), the cubic p0→p3 with controls p1, p2 becomes dry,
/// then p0 := p3, p1 := p4. Each junction sits at the midpoint of its two neighbouring control
/// points, so every junction is C1. The 1–3 samples still pending at the end are closed with one
/// last curve that ends exactly on the last sample. Until then the wet tail, drawn on every event,
/// is the straight path through the pending samples (see `WetPath`).
public struct MidpointSmoother: Sendable {
    struct Knot: Equatable, Sendable {
        var point: Point
        var width: Double
    }

    public let options: SmootherOptions
    private var widths: WidthTracker
    private var pending: [Knot] = []
    /// A sample skipped for being too close; it still ends the stroke if it is the last one.
    private var skipped: Knot?
    private var first: Point?
    private var isTapSoFar = true
    public private(set) var isDrawing = false

    /// Samples received that no dry curve reaches yet (0 outside a stroke).
    public var samplesBehindDryInk: Int { isDrawing ? pending.count - 1 + (skipped == nil ? 0 : 1) : 0 }

    public init(options: SmootherOptions = SmootherOptions()) {
        self.options = options
        self.widths = WidthTracker(model: options.width)
        pending.reserveCapacity(6)
    }

    /// As new, keeping the room it has: a smoother made anew allocates, and Clear or a redraw
    /// happens on a touch event.
    public mutating func reset() {
        widths = WidthTracker(model: options.width)
        pending.removeAll(keepingCapacity: true)
        skipped = nil
        first = nil
        isTapSoFar = true
        isDrawing = false
    }

    public mutating func handle(_ event: StrokeEvent) -> SmootherStep {
        var step = SmootherStep()
        handle(event, into: &step)
        return step
    }

    /// `handle(_:)` into the caller's step, emptied first: the live path's way, where a step
    /// returned is copied on its way out and again into place.
    public mutating func handle(_ event: StrokeEvent, into step: inout SmootherStep) {
        step.dry.removeAll()
        step.wet.removeAll()
        step.strokeEnded = false
        switch event {
        case .down(let sample):
            if isDrawing { finish(into: &step) }
            begin(sample)
            fillWet(&step.wet)
        case .move(let sample):
            guard isDrawing else {
                begin(sample)
                fillWet(&step.wet)
                return
            }
            add(sample, into: &step)
            fillWet(&step.wet)
        case .up, .cancel, .withdraw:
            guard isDrawing else { return }
            finish(into: &step)
        }
    }

    private mutating func begin(_ sample: Sample) {
        widths.reset()
        pending.removeAll(keepingCapacity: true)
        pending.append(Knot(point: sample.point, width: widths.width(for: sample)))
        skipped = nil
        first = sample.point
        isTapSoFar = true
        isDrawing = true
    }

    private mutating func add(_ sample: Sample, into step: inout SmootherStep) {
        if let first, sample.point.distance(to: first) > options.tapRadius { isTapSoFar = false }
        let lastKept = pending[pending.count - 1].point
        if sample.point.distance(to: lastKept) < options.minDistance {
            skipped = Knot(point: sample.point, width: widths.width(for: sample))
            return
        }
        skipped = nil
        pending.append(Knot(point: sample.point, width: widths.width(for: sample)))
        if pending.count == 5, let segment = Self.emitFirst(of: &pending) {
            step.dry.append(.cubic(segment))
        }
    }

    private mutating func finish(into step: inout SmootherStep) {
        if let skipped {
            pending.append(skipped)
            if pending.count == 5, let segment = Self.emitFirst(of: &pending) {
                step.dry.append(.cubic(segment))
            }
        }
        if isTapSoFar, let first {
            step.dry.append(.dot(center: first, diameter: options.width.dotDiameter))
        } else {
            for piece in closing(pending[...]) { step.dry.append(piece) }
        }
        pending.removeAll(keepingCapacity: true)
        skipped = nil
        first = nil
        isDrawing = false
        step.strokeEnded = true
    }

    /// The pending knots and any skipped sample after them.
    @inline(__always)
    private func fillWet(_ path: inout WetPath) {
        for knot in pending { path.append(FlatPoint(point: knot.point, radius: knot.width / 2)) }
        if let skipped { path.append(FlatPoint(point: skipped.point, radius: skipped.width / 2)) }
    }

    /// Applies the scheme to five pending knots: returns the dry cubic and leaves [p3, p4].
    private static func emitFirst(of knots: inout [Knot]) -> CubicSegment? {
        let junction = Knot(point: knots[2].point.midpoint(knots[4].point), width: (knots[2].width + knots[4].width) / 2)
        let segment = CubicSegment(p0: knots[0].point, c1: knots[1].point, c2: knots[2].point, p3: junction.point,
                                   startWidth: knots[0].width, endWidth: junction.width)
        let next = knots[4]
        knots.removeAllKeepingStorage()
        knots.append(junction)
        knots.append(next)
        return segment
    }

    /// The curve through 1–4 pending knots that ends exactly on the last one and leaves the
    /// first along the line to the second, which keeps the junction with the dry ink C1.
    private func closing(_ knots: ArraySlice<Knot>) -> InkPieces {
        var pieces = InkPieces()
        let base = knots.startIndex
        func k(_ i: Int) -> Knot { knots[base + i] }
        switch knots.count {
        case 0:
            break
        case 1:
            pieces.append(.dot(center: k(0).point, diameter: k(0).width))
        case 2:
            pieces.append(.cubic(CubicSegment(p0: k(0).point, c1: k(0).point.lerp(k(1).point, 1.0 / 3),
                                              c2: k(0).point.lerp(k(1).point, 2.0 / 3), p3: k(1).point,
                                              startWidth: k(0).width, endWidth: k(1).width)))
        case 3:
            // The quadratic p0, p1, p2 raised to a cubic.
            pieces.append(.cubic(CubicSegment(p0: k(0).point, c1: k(0).point.lerp(k(1).point, 2.0 / 3),
                                              c2: k(2).point.lerp(k(1).point, 2.0 / 3), p3: k(2).point,
                                              startWidth: k(0).width, endWidth: k(2).width)))
        default:
            pieces.append(.cubic(CubicSegment(p0: k(0).point, c1: k(1).point, c2: k(2).point, p3: k(3).point,
                                              startWidth: k(0).width, endWidth: k(3).width)))
        }
        return pieces
    }
}

extension SmootherOptions {
    /// The same pen at `scale` times the size.
    public func scaled(_ scale: Double) -> SmootherOptions {
        var copy = self
        copy.minDistance *= scale
        copy.tapRadius *= scale
        switch width {
        case .constant(let w): copy.width = .constant(w * scale)
        case .pressure(let lo, let hi): copy.width = .pressure(min: lo * scale, max: hi * scale)
        case .velocity(let lo, let hi, let k): copy.width = .velocity(min: lo * scale, max: hi * scale, filterWeight: k)
        }
        return copy
    }

    /// The widest the pen can draw.
    public var maxWidth: Double {
        switch width {
        case .constant(let w): return w
        case .pressure(_, let hi), .velocity(_, let hi, _): return hi
        }
    }
}
