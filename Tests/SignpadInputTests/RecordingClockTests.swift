import SignpadInput
import SignpadVocabulary
import Testing

/// A recording whose clock is past 2^31 or 2^32 seconds (a machine up for decades, or a
/// timestamp from another clock) decodes to the same strokes at the same offsets: nothing wraps.
@Test(arguments: [Int64(1) << 31, Int64(1) << 32, Int64(1) << 40])
func timestampsPast32BitsDoNotWrap(offset: Int64) throws {
    func text(_ offset: Int64) -> String {
        var lines = ["# EVEMU 1.3", "N: panel", "I: 0003 0000 0000 0001", "P: 02 00 00 00 00 00 00 00", "B: 00 0b 00 00 00 00 00 00 00",
                     "B: 01 00 00 00 00 00 00 00 00", "B: 01 00 00 00 00 00 00 00 00", "B: 01 00 00 00 00 00 00 00 00",
                     "B: 01 00 00 00 00 00 00 00 00", "B: 01 00 00 00 00 00 00 00 00", "B: 01 00 04 00 00 00 00 00 00",
                     "B: 03 03 00 00 00 00 00 00 00", "A: 00 0 999 0 0 0", "A: 01 0 999 0 0 0"]
        for step in 0..<20 {
            let micros = Int64(2_147_483_000) * 1_000_000 + Int64(step) * 9_999 + offset * 1_000_000
            let time = "\(micros / 1_000_000).\(String(format: "%06lld", micros % 1_000_000))"
            lines += ["E: \(time) 0003 0000 \(100 + step * 10)", "E: \(time) 0003 0001 \(200 + step * 3)",
                      "E: \(time) 0001 014a \(step == 19 ? 0 : 1)", "E: \(time) 0000 0000 0"]
        }
        return lines.joined(separator: "\n") + "\n"
    }
    func strokes(_ offset: Int64) throws -> [(Double, Point)] {
        let events = try EvemuRecording.parse(text(offset), file: "clock.evemu").strokeEvents(screenWidth: 1000, screenHeight: 1000)
        let first = events.first?.time ?? 0
        return events.compactMap { item in
            switch item.event {
            case .down(let s), .move(let s): return (((s.time - first) * 1e3).rounded(), s.point)
            default: return nil
            }
        }
    }
    let base = try strokes(0), shifted = try strokes(offset)
    #expect(base.count == 19)
    #expect(base.map(\.0) == shifted.map(\.0) && base.map(\.1) == shifted.map(\.1))
}
