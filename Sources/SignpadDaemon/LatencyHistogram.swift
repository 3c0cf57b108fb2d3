import FoundationEssentials
import Glibc

/// Event-to-flush latencies in fixed logarithmic buckets (1 µs … ~1 s, 8 per doubling), so a
/// daemon that runs for months keeps a constant few kilobytes and records without allocating.
struct LatencyHistogram {
    private static let perDoubling = 8.0
    private static let bucketCount = 160
    private var counts = [Int](repeating: 0, count: bucketCount)
    private(set) var total = 0

    mutating func record(seconds: Double) {
        guard seconds >= 0, seconds < 10 else { return }
        let micro = max(seconds * 1e6, 1)
        let index = min(Int((log2(micro) * Self.perDoubling).rounded(.down)), Self.bucketCount - 1)
        counts[index] += 1
        total += 1
    }

    /// The upper edge of the bucket holding the given quantile, in microseconds.
    func quantile(_ q: Double) -> Double {
        guard total > 0 else { return 0 }
        let rank = Int((Double(total) * q).rounded(.up))
        var seen = 0
        for (index, count) in counts.enumerated() {
            seen += count
            if seen >= max(rank, 1) { return Self.upperEdge(index) }
        }
        return Self.upperEdge(Self.bucketCount - 1)
    }

    static func upperEdge(_ index: Int) -> Double { exp2(Double(index + 1) / perDoubling) }
}
