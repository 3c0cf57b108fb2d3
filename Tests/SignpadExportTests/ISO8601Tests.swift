import Foundation
import SignpadExport
import SignpadTestSupport
import Testing

/// The times in every export, against Python's `datetime` as the peer.
struct ISO8601Tests {
    static let edges: [Double] = [0, 0.0005, 0.0004, 1_000_000_000.001, 1_795_000_000.25, 1_795_000_000.2509, 1_795_000_000.9996,
                                  1_795_000_059.9999, 951_782_400, 4_107_542_399.999, 2_147_483_648.5, 1_709_164_800.125]
    static let spread: [Double] = (0..<40).map { (i: Int) -> Double in Double((i * 2_654_435_761) % 4_000_000_000) + Double(i % 1000) / 1000 }
    static var times: [Double] { edges + spread }

    @Test func timesAreWrittenAsPythonWritesThemToTheMillisecond() throws {
        let script = """
        import math, sys
        from datetime import datetime, timezone, timedelta
        for a in sys.argv[1:]:
            ms = math.floor(float(a) * 1000 + 0.5)  # half up, as ICU did
            t = datetime(1970, 1, 1, tzinfo=timezone.utc) + timedelta(milliseconds=ms)
            print(t.strftime('%Y-%m-%dT%H:%M:%S.') + '%03dZ' % (ms % 1000))
        """
        let peer = try run("python3", ["-c", script] + Self.times.map { String($0) })
        #expect(peer.status == 0, "\(peer.output)")
        let expected = peer.output.split(separator: "\n").map(String.init)
        #expect(expected.count == Self.times.count)
        for (time, text) in zip(Self.times, expected) {
            #expect(ISO8601.string(time) == text, "\(time)")
            let back = try #require(ISO8601.seconds(text), "\(text) reads back")
            #expect(abs(back - (time * 1000).rounded() / 1000) < 1e-6, "\(text) reads back as \(back)")
        }
    }

    @Test func aTimeNoClockGivesIsSaidNotTrapped() {
        for bad in [Double.nan, .infinity, -.infinity, 1e300, 253_402_300_800] {
            #expect(ISO8601.string(bad).hasPrefix("invalid time"), "\(bad)")
        }
        #expect(ISO8601.string(253_402_300_799) == "9999-12-31T23:59:59.000Z")
    }

    @Test func readsOffsetsAndFractionsAndRefusesWhatIsNotATime() {
        #expect(ISO8601.seconds("2026-11-18T11:06:40Z") == 1_795_000_000)
        #expect(ISO8601.seconds("2026-11-18T11:06:40.2Z") == 1_795_000_000.2)
        #expect(ISO8601.seconds("2026-11-18T12:06:40+01:00") == 1_795_000_000)
        #expect(ISO8601.seconds("2026-11-18T10:36:40.250-00:30") == 1_795_000_000.25)
        for bad in ["", "2026-11-18", "2026-11-18T11:06:40", "2026-11-18T11:06:40.Z", "2026-02-30T11:06:40Z", "2026-13-18T11:06:40Z",
                    "2026-11-18T24:00:00Z", "2026-11-18T11:06:40Zjunk", "2026-11-18T11:06:40+1:00", "２026-11-18T11:06:40Z"] {
            #expect(ISO8601.seconds(bad) == nil, "\(bad)")
        }
    }
}
