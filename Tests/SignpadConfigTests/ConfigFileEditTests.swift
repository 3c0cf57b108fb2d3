import Foundation
@testable import SignpadConfig
import SignpadTestSupport
import Testing

@Suite struct ConfigFileEditTests {
    static let matrix = TOMLValue.array([1.02, 0.0, -0.011, 0.0, 0.985, 0.007].map { .float($0) })
    /// How the edit writes `matrix` at `input.calibration` inside an [input] table.
    static let line = "calibration = [1.02, 0.0, -0.011, 0.0, 0.985, 0.007]"

    /// `text` with input.calibration set to `matrix`.
    static func edit(_ text: String) throws -> String {
        try ConfigFileEdit.setting("input.calibration", to: matrix, in: text, file: "f")
    }

    /// The lines of `after` that differ from `before`'s, by position (both must have as many).
    static func changedLines(_ before: String, _ after: String) -> [String] {
        let a = before.split(separator: "\n", omittingEmptySubsequences: false), b = after.split(separator: "\n", omittingEmptySubsequences: false)
        return zip(a, b).filter { $0 != $1 }.map { String($0.1) } + (a.count == b.count ? [] : ["(line count \(a.count) → \(b.count))"])
    }

    @Test func theSampleConfigChangesOnlyOnTheCalibrationLine() throws {
        let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("config/signpad.toml")
        let text = try String(contentsOf: sample, encoding: .utf8)
        let edited = try ConfigFileEdit.setting("input.calibration", to: Self.matrix, in: text, file: sample.path)
        #expect(Self.changedLines(text, edited) == [Self.line])
        #expect(try Config.load(text: edited, file: "edited").input.calibration == [1.02, 0.0, -0.011, 0.0, 0.985, 0.007])
    }

    /// A file before and after the edit, named for what the edit must respect.
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let before: String
        let after: String
        var testDescription: String { name }
    }

    static let cases = [
        Case(name: "a comment after the value stays",
             before: "[input]\ncalibration = [1, 0, 0, 0, 1, 0]   # fitted in March\ngrab = false\n",
             after: "[input]\n\(line)   # fitted in March\ngrab = false\n"),
        Case(name: "an empty table gets the key under its header",
             before: "[input]\n[ink]\nwidth = 3.0\n",
             after: "[input]\n\(line)\n[ink]\nwidth = 3.0\n"),
        Case(name: "dotted keys at the top get a dotted key, not a header",
             before: "input.grab = false\n[ink]\nwidth = 3.0\n",
             after: "input.grab = false\ninput.\(line)\n[ink]\nwidth = 3.0\n"),
    ]

    @Test(arguments: cases) func theEditKeepsTheFileAroundTheKey(_ example: Case) throws {
        #expect(try Self.edit(example.before) == example.after)
    }

    @Test func aMissingKeyGoesAfterTheLastKeyOfItsTable() throws {
        let text = "# kiosk 7\n[input]\ndevice = \"ILITEK\"\n# the panel is mounted upside down\nflip_x = true\n\n[ink]\nwidth = 3.0\n"
        let edited = try Self.edit(text)
        #expect(edited == "# kiosk 7\n[input]\ndevice = \"ILITEK\"\n# the panel is mounted upside down\nflip_x = true\n"
            + "\(Self.line)\n\n[ink]\nwidth = 3.0\n")
        let config = try Config.load(text: edited, file: "f")
        #expect(config.input.device == "ILITEK" && config.input.flipX && config.input.calibration?.count == 6)
    }

    @Test func aFileWithoutTheTableGetsANewOneAtTheEnd() throws {
        let withNewline = try Self.edit("[ink]\nwidth = 3.0\n")
        #expect(withNewline == "[ink]\nwidth = 3.0\n\n[input]\n\(Self.line)\n")
        let withoutNewline = try Self.edit("[ink]\nwidth = 3.0")
        #expect(withoutNewline == withNewline)
        let empty = try Self.edit("")
        #expect(empty == "[input]\n\(Self.line)\n")
    }

    @Test func crlfFilesKeepTheirLineEndings() throws {
        let edited = try Self.edit("[input]\r\ngrab = false\r\n")
        #expect(edited == "[input]\r\ngrab = false\r\n\(Self.line)\r\n")
        #expect(try Config.load(text: edited, file: "f").input.calibration?.count == 6)
    }

    @Test func aBrokenFileIsRefusedWithItsOwnError() {
        #expect(throws: ConfigError(file: "/etc/signpad/signpad.toml", line: 2, key: "input.grab", message: "expected a value (a \"string\", a number, true/false or [array]), got yes")) {
            _ = try ConfigFileEdit.setting("input.calibration", to: Self.matrix, in: "[input]\ngrab = yes please\n", file: "/etc/signpad/signpad.toml")
        }
    }
}

/// Files an administrator might write, drawn at random: tables as headers or as dotted keys at
/// the top, tables repeated, keys in any order, comments on their own lines and after values,
/// blank lines, indentation, CRLF or LF, with or without a last newline, and the calibration
/// there or not. The edit leaves every line of the file as it was but the calibration's, adds at
/// most the lines it needs, and the file then loads with every key as it was and the new matrix.
@Suite struct ConfigFileEditRandomTests {
    static let pool: [(table: String, key: String, value: String)] = [
        ("display", "rotation", "180"), ("display", "connector", "\"HDMI-A-1\""), ("input", "grab", "false"),
        ("input", "device", "\"ILITEK # Touch\""), ("input", "calibration", "[1, 0, 0, 0, 1, 0]"), ("input", "flip_x", "true"),
        ("ink", "width", "3.5"), ("ink", "color", "\"#102030\""), ("kiosk", "prompt", "\"Bitte unterschreiben: ü = [ok]\""),
        ("kiosk", "idle_timeout", "90.0"), ("export", "margin", "8"), ("export", "formats", "[\"png\", \"svg\"]"),
    ]

    static func file(seed: UInt64) -> String {
        var random = SeededRandom(state: seed)
        let chosen = pool.filter { _ in Bool.random(using: &random) }
        let dottedTables = Set(Set(chosen.map(\.table)).filter { _ in Int.random(in: 0..<3, using: &random) == 0 })
        let ending = Bool.random(using: &random) ? "\r\n" : "\n"
        var lines: [String] = []
        func noise() {
            switch Int.random(in: 0..<4, using: &random) {
            case 0: lines.append("# a note of the administrator's [input] = 1")
            case 1: lines.append("")
            default: break
            }
        }
        func entry(_ e: (table: String, key: String, value: String), dotted: Bool) {
            let indent = Bool.random(using: &random) ? "  " : ""
            let comment = Bool.random(using: &random) ? "  # set by hand" : ""
            lines.append(indent + (dotted ? "\(e.table).\(e.key)" : e.key) + " = " + e.value + comment)
        }
        noise()
        for e in chosen where dottedTables.contains(e.table) { entry(e, dotted: true); noise() }
        // Each remaining table under one header (TOML refuses a header given twice).
        for table in ["display", "input", "ink", "kiosk", "export"] where !dottedTables.contains(table) {
            let mine = chosen.filter { $0.table == table }
            guard !mine.isEmpty || Int.random(in: 0..<4, using: &random) == 0 else { continue }
            lines.append("[\(table)]")
            for e in mine { entry(e, dotted: false); noise() }
        }
        return lines.joined(separator: ending) + (Bool.random(using: &random) ? ending : "")
    }

    @Test(arguments: 1...60)
    func theEditChangesOnlyTheCalibrationAndTheFileLoads(seed: UInt64) throws {
        let before = Self.file(seed: seed)
        guard (try? TOMLParser.parse(before, file: "f")) != nil else {
            Issue.record("seed \(seed): the generated file does not parse: \(String(describing: Result { try TOMLParser.parse(before, file: "f") }))\n\(before)")
            return
        }
        let edited = try ConfigFileEditTests.edit(before)
        let old = try TOMLParser.parse(before, file: "f"), new = try TOMLParser.parse(edited, file: "f")
        #expect(new["input.calibration"]?.value == ConfigFileEditTests.matrix, "seed \(seed):\n\(edited)")
        for (key, entry) in old where key != "input.calibration" {
            #expect(new[key]?.value == entry.value, "seed \(seed): \(key) changed:\n\(edited)")
        }
        #expect(Set(new.keys) == Set(old.keys).union(["input.calibration"]), "seed \(seed): keys")
        // Every line but the calibration's is still there, in order. At most four are added: a blank
        // line, a new [input] header, the key, and the last newline a file without one gets.
        // As scalars: in a CRLF file "\r\n" is one Character, which a split on "\n" never cuts.
        func lines(_ text: String) -> [String] {
            text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { String(String.UnicodeScalarView($0)) }
        }
        let kept = lines(before).filter { !$0.contains("calibration") }
        var remaining = lines(edited)[...]
        for line in kept {
            guard let at = remaining.firstIndex(of: line) else {
                Issue.record("seed \(seed): the line \"\(line)\" is gone or out of order:\n\(edited)")
                return
            }
            remaining = remaining[(at + 1)...]
        }
        #expect(lines(edited).count - lines(before).count <= 4, "seed \(seed):\n\(before)\n→\n\(edited)")
        #expect(try Config.load(text: edited, file: "f").input.calibration == [1.02, 0.0, -0.011, 0.0, 0.985, 0.007], "seed \(seed)")
    }
}
