import Foundation
import SignpadInk

/// `signpad bench`: the same recording through four ways of drawing ink, one run, one table.
public struct Bench {
    public enum Strategy: String, CaseIterable, Sendable {
        case naive = "a naive"
        case backingStore = "b backing store"
        case backingStoreDirty = "c backing+dirty"
        case signpad = "d signpad"
    }

    public struct Row: Codable, Sendable {
        public var strategy: String
        public var events: Int
        public var p50Microseconds: Double
        public var p99Microseconds: Double
        public var bytesPerEvent: Double
        public var framePercent: Double
        public var p99RatioToSignpad: Double
        public var bytesRatioToSignpad: Double
        public var meanInkLag: Double
        public var maxInkLag: Int
    }

    public let events: [StrokeEvent]
    public let width: Int
    public let height: Int
    public let pen: SmootherOptions

    public init(events: [StrokeEvent], width: Int, height: Int, pen: SmootherOptions = SmootherOptions()) {
        self.events = events
        self.width = width
        self.height = height
        self.pen = pen
    }

    public func run() -> [Row] {
        var rows = Strategy.allCases.map { measure($0) }
        let reference = rows.last!
        for i in rows.indices {
            rows[i].p99RatioToSignpad = rows[i].p99Microseconds / max(reference.p99Microseconds, 1e-9)
            rows[i].bytesRatioToSignpad = rows[i].bytesPerEvent / max(reference.bytesPerEvent, 1e-9)
        }
        return rows
    }

    private func measure(_ strategy: Strategy) -> Row {
        var renderer = InkRenderer(width: width, height: height)
        let display = OffscreenDisplay(width: width, height: height)
        let frame = DirtyRegion([PixelRect(x: 0, y: 0, width: width, height: height)])
        var smoother = MidpointSmoother(options: pen)
        var allDry: [InkPiece] = []
        var dirty = DirtyRegion()
        var costs: [Double] = []
        costs.reserveCapacity(events.count)
        var lagTotal = 0, lagMax = 0
        for event in events {
            let start = DispatchTime.now().uptimeNanoseconds
            dirty.removeAll()
            var step = smoother.handle(event)
            switch strategy {
            case .naive:
                // Re-stroke the whole path from nothing and send the whole frame.
                allDry.append(contentsOf: step.dry)
                renderer.clearInk(dirty: &dirty)
                for piece in allDry { renderer.drawDry(piece, dirty: &dirty) }
                var wetOnly = SmootherStep()
                wetOnly.wet = step.wet
                renderer.apply(wetOnly, dirty: &dirty)
                display.present(renderer.canvas, dirty: frame)
            case .backingStore, .backingStoreDirty:
                // Only final curves go into the cached bitmap: no wet tail.
                step.wet = InkPieces()
                renderer.apply(step, dirty: &dirty)
                display.present(renderer.canvas, dirty: strategy == .backingStore ? frame : dirty)
            case .signpad:
                renderer.apply(step, dirty: &dirty)
                display.present(renderer.canvas, dirty: dirty)
            }
            costs.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1000)
            let lag: Int
            switch event {
            case .down(let s), .move(let s):
                let drawnEnd = step.wet.last?.endPoint ?? step.dry.last?.endPoint
                lag = drawnEnd == s.point ? 0 : max(smoother.samplesBehindDryInk, 1)
            case .up, .cancel:
                lag = 0
            }
            lagTotal += lag
            lagMax = max(lagMax, lag)
        }
        costs.sort()
        func percentile(_ p: Double) -> Double { costs.isEmpty ? 0 : costs[min(Int(Double(costs.count) * p), costs.count - 1)] }
        let bytes = Double(display.bytesCopied) / Double(max(events.count, 1))
        return Row(strategy: strategy.rawValue, events: events.count, p50Microseconds: percentile(0.5), p99Microseconds: percentile(0.99),
                   bytesPerEvent: bytes, framePercent: 100 * bytes / Double(width * height * 4), p99RatioToSignpad: 0,
                   bytesRatioToSignpad: 0, meanInkLag: Double(lagTotal) / Double(max(events.count, 1)), maxInkLag: lagMax)
    }

    public static func table(_ rows: [Row], recording: String, width: Int, height: Int) -> String {
        var out = "signpad bench: \(recording) on \(width)x\(height), \(rows.first?.events ?? 0) events, one run\n"
        out += "strategy          p50 µs    p99 µs   bytes/event  % frame  p99/(d)  bytes/(d)  lag mean  lag max\n"
        for r in rows {
            out += r.strategy.padding(toLength: 16, withPad: " ", startingAt: 0)
            out += String(format: " %8.1f  %8.1f  %12.0f  %7.3f  %7.1f  %9.1f  %8.2f  %7d\n", r.p50Microseconds, r.p99Microseconds,
                          r.bytesPerEvent, r.framePercent, r.p99RatioToSignpad, r.bytesRatioToSignpad, r.meanInkLag, r.maxInkLag)
        }
        if let b = rows.first(where: { $0.strategy == Strategy.backingStore.rawValue }), let d = rows.last {
            out += String(format: "targets: (d) p99 = %.2f%% of (b) [≤ 1%%]; (d) bytes/event = %.3f%% of a frame [≤ 0.5%%]; (d) ink lag max %d [0]\n",
                          100 * d.p99Microseconds / max(b.p99Microseconds, 1e-9), d.framePercent, d.maxInkLag)
        }
        return out
    }
}
