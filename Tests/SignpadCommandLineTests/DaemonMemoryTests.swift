import Foundation
import SignpadTestSupport
import Testing

/// The daemon's memory where a second frame would show most: at 3840x2160 a frame is 33 MB.
/// `signpad run --offscreen` keeps one, its session's canvas, as on a panel; the bench measures
/// the whole daemon signing the demo (`daemonPeakRSSBytes`), on the release build as a kiosk runs it.
@Suite struct DaemonMemoryTests {
    @Test(.enabled(if: AllocationTests.built, Comment(rawValue: AllocationTests.skipped)))
    func theDaemonSigningAt4KPeaksUnder80MiB() throws {
        let result = try run(AllocationTests.release.appendingPathComponent("signpad").path,
                             ["bench", "--json", "--screen", "3840x2160", "--recording", demoRecordingPath])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any], "\(result.output)")
        let peak = try #require(report["daemonPeakRSSBytes"] as? Int, "the daemon was measured: \(result.output.suffix(2000))")
        #expect(peak <= 80 * 1_048_576, "\(Double(peak) / 1_048_576) MiB")
    }
}
