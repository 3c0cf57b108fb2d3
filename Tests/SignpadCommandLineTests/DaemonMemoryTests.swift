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

    /// signpad's modules use FoundationEssentials only: one use of Foundation proper (a
    /// `String(format:)`, an `NSString` path) links Foundation, CoreFoundation and ICU, 50 MB of
    /// binary, and the daemon faults 3 MiB more of it in at start. binutils' nm reads the symbols.
    @Test(.enabled(if: AllocationTests.built, Comment(rawValue: AllocationTests.skipped)))
    func theDaemonLinksNoFoundationBeyondItsEssentials() throws {
        let result = try run("nm", ["--defined-only", AllocationTests.release.appendingPathComponent("signpad").path])
        try #require(result.status == 0, "nm: \(result.output.prefix(500))")
        let symbols = result.output.split(separator: "\n")
        // Linked in (--static-swift-stdlib, as CI and the package build): Foundation's own symbols.
        let linked = symbols.filter { $0.contains(" $s10Foundation") || $0.contains("_FoundationICU") || $0.contains(" CFStringCreate") }
        let count = linked.count, first = linked.prefix(3).map { $0.split(separator: " ").last ?? "" }
        #expect(count == 0, "symbols of Foundation, CoreFoundation or ICU, first \(first)")
        // Loaded (a plain `swift build -c release`): named as needed.
        let dynamic = try run("readelf", ["--dynamic", AllocationTests.release.appendingPathComponent("signpad").path])
        let loaded = dynamic.output.split(separator: "\n").filter {
            $0.contains("(NEEDED)") && ($0.contains("[libFoundation.so") || $0.contains("FoundationICU") || $0.contains("FoundationInternationalization"))
        }
        #expect(loaded.isEmpty, "\(loaded)")
    }

    /// tpm2-tss is loaded by `signpad key` when it reaches for the TPM: linked, every start maps
    /// and relocates its three libraries (0.4 MiB) for a call the daemon never makes.
    @Test(.enabled(if: AllocationTests.built, Comment(rawValue: AllocationTests.skipped)))
    func theDaemonLinksNoTPMLibrary() throws {
        let result = try run("readelf", ["--dynamic", AllocationTests.release.appendingPathComponent("signpad").path])
        try #require(result.status == 0 && result.output.contains("(NEEDED)"), "readelf: \(result.output.prefix(500))")
        let needed = result.output.split(separator: "\n").filter { $0.contains("(NEEDED)") && $0.contains("tss2") }.map { $0.split(separator: " ").last ?? "" }
        #expect(needed.isEmpty, "linked: \(needed)")
    }
}
