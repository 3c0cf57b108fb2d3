import Foundation
import Testing
@testable import SignpadDaemon

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
        #expect(try Config.load(text: edited, file: "edited").calibration == [1.02, 0.0, -0.011, 0.0, 0.985, 0.007])
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
        #expect(config.inputDevice == "ILITEK" && config.flipX && config.calibration?.count == 6)
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
        #expect(try Config.load(text: edited, file: "f").calibration?.count == 6)
    }

    @Test func aBrokenFileIsRefusedWithItsOwnError() {
        #expect(throws: ConfigError(file: "/etc/signpad/signpad.toml", line: 2, key: "input.grab", message: "expected a value (a \"string\", a number, true/false or [array]), got yes")) {
            _ = try ConfigFileEdit.setting("input.calibration", to: Self.matrix, in: "[input]\ngrab = yes please\n", file: "/etc/signpad/signpad.toml")
        }
    }

    @Test func setWritesTheFileKeepingItsModeAndFollowingASymlink() throws {
        let folder = scratch()
        defer { removeScratch(folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let real = folder + "/kiosk-7.toml", link = folder + "/signpad.toml"
        try "[input]\ngrab = false\n".write(toFile: real, atomically: false, encoding: .utf8)
        #expect(chmod(real, 0o640) == 0)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)

        let line = try ConfigFileEdit.set("input.calibration", to: Self.matrix, inFile: link)
        #expect(line == 3)
        #expect(try String(contentsOfFile: real, encoding: .utf8) == "[input]\ngrab = false\n\(Self.line)\n")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == real, "the link is still a link")
        var status = stat()
        #expect(stat(real, &status) == 0 && status.st_mode & 0o7777 == 0o640)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["kiosk-7.toml", "signpad.toml"], "no temporary file is left")
    }

    @Test func setMakesAMissingFileReadableByTheDaemon() throws {
        let folder = scratch()
        defer { removeScratch(folder) }
        let path = folder + "/etc/signpad.toml"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        #expect(try ConfigFileEdit.set("input.calibration", to: Self.matrix, inFile: path) == 2)
        var status = stat()
        #expect(stat(path, &status) == 0 && status.st_mode & 0o7777 == 0o644)
        #expect(stat(folder + "/etc", &status) == 0 && status.st_mode & 0o7777 == 0o755)
    }

    @Test func setWritesNothingWhenTheValueIsNotValidThere() throws {
        let folder = scratch()
        defer { removeScratch(folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/signpad.toml", original = "[input]\ngrab = false\n"
        try original.write(toFile: path, atomically: false, encoding: .utf8)
        #expect(throws: ConfigError.self) { try ConfigFileEdit.set("input.calibration", to: .array([.float(1)]), inFile: path) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == original)
    }

    @Test func aFolderThatTakesNoFilesNamesTheFileAndTheReason() {
        // procfs refuses new files even to root, as a read-only /etc would.
        do {
            _ = try ConfigFileEdit.set("input.calibration", to: Self.matrix, inFile: "/proc/signpad.toml")
            Issue.record("/proc took a file")
        } catch let error as ConfigSaveError {
            #expect(error.description.hasPrefix("/proc/") && error.description.contains("cannot save the configuration: creating failed ("), "\(error)")
        } catch {
            Issue.record("expected a ConfigSaveError, got \(error)")
        }
    }
}
