import Foundation
@testable import SignpadConfig
import SignpadTestSupport
import Testing

/// The shipped configuration with one to three of its values replaced by anything an
/// administrator might type: every type, zero, negatives, huge and tiny numbers, empty strings.
/// `Config.load` as a whole (parser, types, ranges, the checks across keys) either takes the file,
/// and then its effective configuration loads again to itself, or refuses it naming a line that
/// holds a key, and that key; it never crashes.
@Suite struct ConfigRandomTests {
    static let anyValues = [
        "0", "1", "-1", "7", "90", "4096", "9223372036854775807", "-9223372036854775808", "99999999999999999999",
        "0.0", "0.05", "2.5", "-0.5", "1e308", "1e-308", "-1e300", "1.0e15", "true", "false",
        "\"\"", "\"x\"", "\"#12345\"", "\"#ABCDEF\"", "\"/srv/x\"", "\"relative\"", "\"png\"", "\"Virtual-1\"", "\"1024x768\"",
        "[]", "[1, 2, 3, 4, 5, 6]", "[1e308, 0, 0, 0, 1e308, 0]", "[0, 0, 0, 0, 0, 0]", "[\"png\"]", "[\"png\", \"png\"]",
        "[true]", "\"\\u0041\"", "\"tab\\there\"",
    ]

    /// A value of the key's own type, often a plausible one, so files that load are drawn too.
    static func valueLike(_ value: TOMLValue, using random: inout SeededRandom) -> String {
        func pick(_ options: [String]) -> String { options[Int.random(in: 0..<options.count, using: &random)] }
        switch value {
        case .integer:
            return pick(["0", "1", "90", "180", "270", "16", "1024", "-3", String(Int.random(in: -100...5000, using: &random))])
        case .float:
            return pick(["0.0", "0.1", "0.5", "1.0", "2.5", "60.0", "3600.0", "1e-9", "1e12", "-0.0",
                         String(format: "%.3f", Double.random(in: 0...200, using: &random))])
        case .bool:
            return pick(["true", "false"])
        case .string:
            return pick(["\"\"", "\"#000000\"", "\"#1A2B3C\"", "\"white\"", "\"transparent\"", "\"constant\"", "\"velocity\"",
                         "\"pressure\"", "\"/var/lib/signpad/other\"", "\"/dev/tty1\"", "\"debug\"", "\"HDMI-A-1\"", "\"800x480\"",
                         "\"DejaVu Sans\"", "\"Sign here ✍\""])
        case .array:
            return pick(["[]", "[\"png\"]", "[\"svg\", \"json\"]", "[\"png\", \"svg\", \"inkml\", \"json\"]", "[1, 0, 0, 0, 1, 0]",
                         "[0, -1, 1, 1, 0, 0]", "[1.02, 0.01, -0.01, 0, 0.98, 0.02]"])
        }
    }

    @Test(arguments: 1...200 as ClosedRange<UInt64>)
    func anyValueForAnyKeyIsTakenOrRefusedNamingItsLine(seed: UInt64) throws {
        var random = SeededRandom(state: seed)
        let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("config/signpad.toml")
        var lines = try String(contentsOf: sample, encoding: .utf8).components(separatedBy: "\n")
        let entries = try TOMLParser.document(lines.joined(separator: "\n"), file: "sample").entries
        let keyAtLine = Dictionary(uniqueKeysWithValues: entries.map { ($0.value.line, $0.key) })
        let keys = entries.keys.sorted()
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let key = keys[Int.random(in: 0..<keys.count, using: &random)]
            let value = Bool.random(using: &random) ? Self.valueLike(entries[key]!.value, using: &random)
                : Self.anyValues[Int.random(in: 0..<Self.anyValues.count, using: &random)]
            let name = key.split(separator: ".", maxSplits: 1)[1]
            lines[entries[key]!.line - 1] = "\(name) = \(value)"
        }
        let text = lines.joined(separator: "\n")
        do {
            let config = try Config.load(text: text, file: "/etc/signpad/signpad.toml")
            let again = try Config.load(text: config.effectiveTOML, file: "effective")
            #expect(again.effectiveTOML == config.effectiveTOML, "seed \(seed): the effective configuration loads to itself")
        } catch {
            #expect(error.file == "/etc/signpad/signpad.toml" || error.file == "effective", "seed \(seed): \(error)")
            #expect(error.file != "effective", "seed \(seed): a file taken gave an effective configuration that is refused: \(error)")
            #expect(keyAtLine[error.line] != nil && keyAtLine[error.line] == error.key, "seed \(seed): \(error) names no key's line")
            #expect(!error.message.isEmpty, "seed \(seed)")
        }
    }
}
