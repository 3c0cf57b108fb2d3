@testable import SignpadDaemon
import Testing

@Suite struct LatencyHistogramTests {
    @Test func quantilesAreWithinABucketOfTheTruth() {
        var h = LatencyHistogram()
        for i in 1...1000 { h.record(seconds: Double(i) * 1e-6 * 10) }  // 10 µs … 10 ms
        #expect(h.total == 1000)
        let p50 = h.quantile(0.5), p99 = h.quantile(0.99)
        #expect(p50 >= 5000 && p50 <= 5000 * 1.1, "p50 \(p50)")
        #expect(p99 >= 9900 && p99 <= 9900 * 1.1, "p99 \(p99)")
        h.record(seconds: -1)
        h.record(seconds: 60)
        #expect(h.total == 1000, "clock jumps are not latencies")
    }
}
