import Foundation
import SignpadTestSupport
import Testing

/// The live path allocates nothing per input event: `signpad bench --allocations` on the optimized
/// build, with ordo-one's malloc-interposer preloaded. `swift test` builds for debugging, where
/// generics are not specialised and allocate, so this runs the release build, which `.ci/run`
/// makes first.
@Suite struct AllocationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// Where the release build is (`.ci/run` links .build/release/signpad to the one the VM takes).
    static let release = root.appendingPathComponent(".build/release/signpad").resolvingSymlinksInPath().deletingLastPathComponent()
    static var built: Bool {
        ["signpad", "libMallocInterposerSwift.so"].allSatisfy { FileManager.default.fileExists(atPath: release.appendingPathComponent($0).path) }
    }
    static let skipped = "skipped: no release build with the interposer (swift build -c release && scripts/build-interposer; .ci/run makes both)"

    func allocations(_ recording: String) throws -> (mean: Double, max: Int, buttonPress: Int, output: String) {
        let result = try run(Self.release.appendingPathComponent("signpad").path, ["bench", "--allocations", "--json", "--recording", recording])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any], "\(result.output)")
        let figures = try #require(report["allocations"] as? [String: Any])
        return (try #require(figures["mean"] as? Double), try #require(figures["max"] as? Int), try #require(report["buttonPressAllocations"] as? Int),
                result.output)
    }

    /// A button pressed and let go is drawn from its pictures: a handful of allocations (the
    /// list of what the screen shows), not the hundreds a text layout makes.
    @Test(.enabled(if: built, Comment(rawValue: skipped)))
    func aButtonPressAllocatesAHandful() throws {
        let counted = try allocations(demoRecordingPath)
        #expect(counted.buttonPress <= 10, "\(counted.output)")
    }

    @Test(.enabled(if: built, Comment(rawValue: skipped)))
    func theDemoSignatureAllocatesNothingPerEvent() throws {
        let counted = try allocations(demoRecordingPath)
        #expect(counted.max == 0, "\(counted.output)")
    }

    @Test(.enabled(if: built, Comment(rawValue: skipped)),
          .enabled(if: SharedRecordings.available, "skipped: ../shared/data/recordings is absent (a fresh clone has no shared recordings)"),
          arguments: SharedRecordings.all)
    func everySharedRecordingAllocatesNothingPerEvent(recording: String) throws {
        let counted = try allocations(SharedRecordings.directory.appendingPathComponent(recording).path)
        #expect(counted.max == 0, "\(counted.output)")
    }
}
