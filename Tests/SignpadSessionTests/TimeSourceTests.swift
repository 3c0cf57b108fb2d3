import Foundation
import SignpadConfig
import SignpadExport
import SignpadOutbox
import SignpadSession
import SignpadTestSupport
import SignpadVocabulary
import Testing

/// The session reads the wall clock it is given, so a signature's capture time is the test's, not
/// the machine's.
@Suite struct TimeSourceTests {
    @Test func aSignatureIsStampedByTheSessionsClock() throws {
        let folder = scratch()
        defer { removeScratch(folder) }
        let clock = ManualClock(1_800_000_000.25)
        let exporter = Exporter(directory: folder, options: ExportOptions(), evidence: testEvidence, retrySeconds: 60)
        defer { exporter.stop() }
        let session = try Session(SessionOptions(try quietConfig()), display: OffscreenDisplay(width: 800, height: 480), exporter: exporter,
                                  painter: { _, _ in BoxPainter() }, time: TimeSource(wall: clock.now, uptime: clock.now))
        let recording = try demoRecording()
        // Fed as the daemon feeds it: each event at its own kernel time.
        let end = session.play(recording.events, from: try session.addInput(recording))
        session.confirm(now: end)
        #expect(exporter.waitUntilIdle(timeout: 20))
        let manifest = try #require(try FileManager.default.contentsOfDirectory(atPath: folder).first { $0.hasSuffix(".meta.json") })
        let metadata = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/" + manifest))) as? [String: Any])
        #expect(metadata["captureStart"] as? String == ISO8601.string(1_800_000_000.25), "\(metadata["captureStart"] ?? "none")")
    }
}
