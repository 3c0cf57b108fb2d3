@testable import SignpadConfig
import Testing

/// The TOML 1.0 a person editing the file writes, read with every error naming its line.
@Suite struct TOMLTests {
    func values(_ text: String) throws -> [String: TOMLValue] { try TOMLParser.parse(text, file: "f").mapValues(\.value) }

    func refusal(_ text: String) -> ConfigError? {
        do { _ = try TOMLParser.parse(text, file: "f"); return nil } catch { return error }
    }

    @Test func literalAndMultiLineStrings() throws {
        let text = #"""
        [kiosk]
        prompt = 'C:\signatures\ "as is"'
        saved = """
        Thank you.
        Next, please."""
        saving = """\
            Saving \
            now"""
        too_little_ink = '''
        Sign with your name,
        not a dot.'''
        clear_label = "Clear \u00e9\U0001F58A\t"
        """#
        let v = try values(text)
        #expect(v["kiosk.prompt"] == .string(#"C:\signatures\ "as is""#))
        #expect(v["kiosk.saved"] == .string("Thank you.\nNext, please."))
        #expect(v["kiosk.saving"] == .string("Saving now"))
        #expect(v["kiosk.too_little_ink"] == .string("Sign with your name,\nnot a dot."))
        #expect(v["kiosk.clear_label"] == .string("Clear é🖊\t"))
    }

    @Test func arraysOverManyLinesWithCommentsAndATrailingComma() throws {
        let text = """
        [input]
        calibration = [
            1.02, 0.0, -0.011,  # first row
            0.0, 0.985, 0.007,  # second row
        ]
        [export]
        formats = ["png",
                   "svg"]
        margin = 0x10
        scale = 1_000.5e-3
        """
        let v = try values(text)
        #expect(v["input.calibration"] == .array([1.02, 0.0, -0.011, 0.0, 0.985, 0.007].map { .float($0) }))
        #expect(v["export.formats"] == .array([.string("png"), .string("svg")]))
        #expect(v["export.margin"] == .integer(16))
        #expect(v["export.scale"] == .float(1.0005))
        let entries = try TOMLParser.parse(text, file: "f")
        #expect(entries["input.calibration"]?.line == 2)
        #expect(entries["input.calibration"]?.endLine == 5)
        #expect(entries["export.margin"]?.line == 9, "lines are counted through multi-line values")
    }

    @Test func crlfFilesReadAsLFFiles() throws {
        let text = "[kiosk]\r\nprompt = \"\"\"a\r\nb\"\"\"\r\nidle_timeout = 30 # s\r\n"
        let v = try values(text)
        #expect(v["kiosk.prompt"] == .string("a\nb"))
        #expect(v["kiosk.idle_timeout"] == .integer(30))
    }

    @Test(arguments: [
        ("[kiosk]\nprompt = \"\"\"never closed\nidle_timeout = 3\n", "f:2: kiosk.prompt: expected a closing \"\"\" for the string"),
        ("[input]\ncalibration = [1, 0,\n  0, 1\nflip_x = true\n", "f:4: input.calibration: expected , or ] in the array begun on line 2"),
        ("[input]\ncalibration = [1, 0,\n", "f:3: input.calibration: expected ] to close the array begun on line 2"),
        ("[kiosk]\nprompt = 'one\ntwo'\n", "f:2: kiosk.prompt: expected a closing ' for the string"),
        ("[kiosk]\nprompt = \"a\u{7}b\"\n", "f:2: kiosk.prompt: a control character (U+7) in a string; write it as an escape such as \\t"),
        ("[kiosk]\nprompt = \"a\"\n[ink]\nwidth = 2\n[kiosk]\nidle_timeout = 3\n", "f:5: the table [kiosk] is given twice (first on line 1); put its keys under one header"),
        ("[[kiosk]]\n", "f:1: arrays of tables ([[name]]) are not used in signpad's configuration"),
        ("[kiosk]\nidle_timeout = nan\n", "f:2: kiosk.idle_timeout: expected a value (a \"string\", a number, true/false or [array]), got nan"),
        // Issue 54, defect 11: arrays nested 50,000 deep crashed check-config and run (the stack).
        ("[input]\ncalibration = " + String(repeating: "[", count: 100) + "\n", "f:2: input.calibration: expected arrays nested at most 8 deep"),
    ])
    func mistakesNameTheirLine(text: String, expected: String) {
        #expect(refusal(text)?.description == expected)
    }

    /// `calibrate --write` replaces a matrix written over several lines whole, and adds a key after
    /// the last line of a table's last value.
    @Test func editsReplaceAMultiLineValueWholeAndAddAfterOne() throws {
        let spread = "[input]\ncalibration = [\n  1, 0, 0,\n  0, 1, 0,\n]  # by hand\ngrab = true\n"
        let replaced = try ConfigFileEdit.setting("input.calibration", to: ConfigFileEditTests.matrix, in: spread, file: "f")
        #expect(replaced == "[input]\n\(ConfigFileEditTests.line)  # by hand\ngrab = true\n")
        let last = "[input]\ngrab = true\ndevice = \"\"\"\nILITEK\"\"\"\n[ink]\nwidth = 2\n"
        let added = try ConfigFileEdit.setting("input.calibration", to: ConfigFileEditTests.matrix, in: last, file: "f")
        #expect(added == "[input]\ngrab = true\ndevice = \"\"\"\nILITEK\"\"\"\n\(ConfigFileEditTests.line)\n[ink]\nwidth = 2\n")
        #expect(try values(added)["input.device"] == .string("ILITEK"))
    }
}

@Suite struct TOMLValueTests {
    /// check-config prints the effective file: a control character written as an escape comes
    /// back as one, and the text reads back as the same string.
    @Test func stringsPrintAsEscapesThatReadBack() throws {
        let value = TOMLValue.string("bell\u{7} tab\t quote\" back\\ new\nline \u{1b}[2J")
        #expect(value.description == #""bell\u0007 tab\t quote\" back\\ new\nline \u001B[2J""#)
        #expect(try TOMLParser.parse("k = \(value.description)", file: "f")["k"]?.value == value)
    }
}
