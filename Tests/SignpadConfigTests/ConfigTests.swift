import Foundation
@testable import SignpadConfig
import SignpadVocabulary
import Testing

@Suite struct ConfigTests {
    @Test func defaultsWithoutAFile() throws {
        let config = try Config.load(text: "", file: "(none)")
        #expect(config.outbox.directory == "/var/lib/signpad/signatures")
        #expect(config.ink.pen.width == .constant(2.5))
        #expect(config.display.rotation == .none)
        #expect(config.export.createsFolder)
        #expect(config.effectiveTOML.contains("[export]\ndirectory = \"/var/lib/signpad/signatures\""))
    }

    @Test func readsEveryKindOfValue() throws {
        let text = """
        # a kiosk in portrait
        [display]
        rotation = 90
        connector = "HDMI-A-1"
        [input]
        calibration = [1, 0, 0, 0, 1.0, 0]  # identity
        [ink]
        width_mode = "velocity"
        color = "#102030"
        [export]
        formats = ["png", "json"]
        scale = 2
        create_directory = false
        [kiosk]
        prompt = "Bitte hier unterschreiben"
        """
        let config = try Config.load(text: text, file: "k.toml")
        #expect(config.display.rotation == .quarter)
        #expect(config.display.connector == "HDMI-A-1")
        #expect(config.input.calibration == [1, 0, 0, 0, 1, 0])
        #expect(config.ink.pen.width == .velocity(min: 1, max: 4, filterWeight: 0.7))
        #expect(config.ink.color == 0x102030)
        #expect(config.export.formats == [.png, .json])
        #expect(config.export.scale == 2)
        #expect(!config.export.createsFolder)
        #expect(config.kiosk.labels.prompt == "Bitte hier unterschreiben")
    }

    @Test func theDocumentsReviewAndItsWordsAreRead() throws {
        #expect(try Config.load(text: "", file: "(test)").documents.requireReview)
        let config = try Config.load(text: "[documents]\nrequire_review = false\n[kiosk]\nreview_prompt = \"Bitte lesen\"\nprevious_label = \"Zurück\"\nnext_label = \"Weiter\"\nsign_label = \"Unterschreiben\"\n", file: "(test)")
        #expect(!config.documents.requireReview)
        let labels = config.kiosk.labels
        #expect([labels.review, labels.previousPage, labels.nextPage, labels.sign] == ["Bitte lesen", "Zurück", "Weiter", "Unterschreiben"])
    }

    @Test(arguments: [
        ("[export]\ndirectry = \"/x\"\n", 2, "export.directry", "unknown key"),
        ("[display]\nrotation = \"90\"\n", 2, "display.rotation", "expected an integer, got a string"),
        ("[display]\nrotation = 45\n", 2, "display.rotation", "expected 0, 90, 180 or 270"),
        ("\n\n[ink]\ncolor = \"black\"\n", 4, "ink.color", "expected a colour"),
        ("[input]\ncalibration = [1, 2]\n", 2, "input.calibration", "6 numbers"),
        ("[export]\nformats = [\"png\", \"pdf\"]\n", 2, "export.formats", "unknown format \"pdf\""),
        // A mode that is not WIDTHxHEIGHT matched no panel's.
        ("[display]\nmode = \"1920*1080\"\n", 2, "display.mode", "expected WIDTHxHEIGHT such as 1920x1080 (or empty: the panel's preferred mode), got \"1920*1080\""),
        ("[display]\nmode = \"1920x\"\n", 2, "display.mode", "expected WIDTHxHEIGHT"),
        ("[display]\nmode = \"01920x1080\"\n", 2, "display.mode", "expected WIDTHxHEIGHT"),
        // No format: a signature "saved" as a manifest with no samples, and so lost.
        ("[export]\nformats = []\n", 2, "export.formats", "expected at least one of png, svg, inkml, json, iso19794-7 or cbeff, got []"),
        ("[export]\ntimestamp_url = \"ftp://tsa.example/\"\n", 2, "export.timestamp_url", "expected an http:// or https:// URL"),
        ("[export]\ntimestamp_url = \"http://tsa.example/a b\"\n", 2, "export.timestamp_url", "without spaces"),
        ("[kiosk]\nprompt = \"unclosed\n", 2, "kiosk.prompt", "closing \""),
        ("[nosuch]\nkey = 1\n", 2, "nosuch.key", "unknown table"),
        ("[ink]\nwidth = 2\nwidth = 3\n", 3, "ink.width", "defined twice"),
        ("[export]\ndirectory = \"/srv/sig\"\nspool_directory = \"/srv/sig/\"\n", 3, "export.spool_directory", "other than export.directory"),
        ("[export]\ndirectory = \"/srv/sig\"\nspool_directory = \"//srv/x/../sig/.\"\n", 3, "export.spool_directory", "other than export.directory"),
        // Values out of reason: each stalled every touch, crashed every save, or spun the retry loop.
        ("[ink]\nwidth = 100000\n", 2, "ink.width", "expected a width from 0.1 to 100 (px), got 100000.0"),
        ("[ink]\nwidth = -3\n", 2, "ink.width", "expected a width from 0.1 to 100"),
        ("[ink]\nwidth_mode = \"pressure\"\nmin_width = 5\nmax_width = 2\n", 4, "ink.max_width", "at least ink.min_width (5.0)"),
        ("[ink]\nvelocity_filter_weight = 1.5\n", 2, "ink.velocity_filter_weight", "from 0 to 1"),
        // Issue 54, defect 24: a blank label drew a button nobody can read, and a minimum over the
        // maximum passed where the mode does not use them (until the mode changes).
        ("[ink]\nmin_width = 5\nmax_width = 2\n", 3, "ink.max_width", "at least ink.min_width (5.0)"),
        ("[kiosk]\ndone_label = \"\"\n", 2, "kiosk.done_label", "expected a label with a visible character"),
        ("[kiosk]\nclear_label = \"  \"\n", 2, "kiosk.clear_label", "expected a label with a visible character"),
        ("[kiosk]\nprompt = \"\"\n", 2, "kiosk.prompt", "expected a label with a visible character"),
        ("[kiosk]\nsign_label = \" \"\n", 2, "kiosk.sign_label", "expected a label with a visible character"),
        ("[documents]\nrequire_review = \"yes\"\n", 2, "documents.require_review", "expected true or false, got a string"),
        ("[ink]\nmin_distance = -1\n", 2, "ink.min_distance", "from 0 to 100"),
        ("[kiosk]\nidle_timeout = -1\n", 2, "kiosk.idle_timeout", "seconds ≥ 0"),
        ("[kiosk]\nsleep_after = -1\n", 2, "kiosk.sleep_after", "seconds ≥ 0"),
        ("[kiosk]\nsaved_seconds = -2\n", 2, "kiosk.saved_seconds", "from 0 to 3600"),
        ("[kiosk]\nmin_ink_length = -5\n", 2, "kiosk.min_ink_length", "≥ 0"),
        ("[export]\nscale = 1000\n", 2, "export.scale", "from 0.01 to 4"),
        ("[export]\nscale = 0\n", 2, "export.scale", "from 0.01 to 4"),
        ("[export]\nmargin = -500\n", 2, "export.margin", "from 0 to 1024, got -500"),
        ("[export]\nretry_seconds = 0\n", 2, "export.retry_seconds", "from 0.1 to 3600"),
        ("[export]\ndirectory = \"\"\n", 2, "export.directory", "expected an absolute path"),
        ("[export]\ndirectory = \"signatures\"\n", 2, "export.directory", "expected an absolute path (starting with /), got \"signatures\""),
        ("[export]\nspool_directory = \"spool\"\n", 2, "export.spool_directory", "or \"\" for memory only"),
        ("[export]\ncreate_directory = \"no\"\n", 2, "export.create_directory", "expected true or false, got a string"),
        ("[export]\nkiosk_name = \"desk\\n2\"\n", 2, "export.kiosk_name", "without control characters, found U+000A"),
        ("[export]\nkiosk_name = \"\(String(repeating: "k", count: 256))\"\n", 2, "export.kiosk_name", "at most 255 bytes, got 256"),
    ])
    func mistakesNameTheFileLineKeyAndWhatWasExpected(text: String, line: Int, key: String, expected: String) {
        do {
            _ = try Config.load(text: text, file: "/etc/signpad/signpad.toml")
            Issue.record("expected an error")
        } catch {
            #expect(error.file == "/etc/signpad/signpad.toml")
            #expect(error.line == line, "\(error)")
            #expect(error.key == key, "\(error)")
            #expect(error.message.contains(expected), "\(error)")
        }
    }

    /// `export.signing_key` names a key file by its absolute path, or a TPM's key by its
    /// persistent handle in the owner's range; anything else that starts with tpm2: is refused.
    @Test func theSigningKeyIsAFileOrATPMHandle() throws {
        let tpm = try Config.load(text: "[export]\nsigning_key = \"tpm2:handle:0x81000001\"\n", file: "f")
        #expect(tpm.evidence.signingKeyTPM?.value == 0x8100_0001)
        #expect(try Config.load(text: "[export]\nsigning_key = \"/k/signing.key\"\n", file: "f").evidence.signingKeyTPM == nil)
        for value in ["tpm2:handle:0x01000001", "tpm2:handle:0x81800000", "tpm2:handle:81000001", "tpm2:0x81000001", "tpm2:handle:0x8100000g", "tpm2:handle:0x810000011"] {
            #expect(throws: ConfigError(file: "f", line: 2, key: "export.signing_key",
                                        message: "expected tpm2:handle: and a persistent handle, 0x81000000 to 0x817fffff (for example tpm2:handle:0x81000100), got \"\(value)\"")) {
                try Config.load(text: "[export]\nsigning_key = \"\(value)\"\n", file: "f")
            }
        }
        #expect(throws: ConfigError(file: "f", line: 2, key: "export.signing_key",
                                    message: "expected an absolute path (starting with /), or a TPM's key as tpm2:handle:0x81000100, got \"signing.key\"")) {
            try Config.load(text: "[export]\nsigning_key = \"signing.key\"\n", file: "f")
        }
    }

    /// Empty, the kiosk is the machine's host name as the kernel has it (what `hostname` prints).
    @Test func theKioskNameIsTheOneSetElseLeftForTheHostName() throws {
        // The file's reader looks at nothing but the file: the command line fills in the host name.
        #expect(try Config.load(text: "", file: "f").kioskName == "")
        #expect(try Config.load(text: "[export]\nkiosk_name = \"Front desk 2\"\n", file: "f").kioskName == "Front desk 2")
    }

    @Test func commandLineOverridesTheFile() throws {
        let config = try Config.load(text: "[display]\nrotation = 90\n", file: "f", overrides: ["display.rotation=180", "export.directory=\"/tmp/x\""])
        #expect(config.display.rotation == .half)
        #expect(config.outbox.directory == "/tmp/x")
        #expect(config.source == "f with 2 --set")
        #expect(try Config.load(text: "", file: "f").source == "f")
        #expect(throws: ConfigError.self) { try Config.load(text: "", file: "f", overrides: ["display.rotaton=1"]) }
        do {
            _ = try Config.load(text: "", file: "f", overrides: ["display.rotation=45"])
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "--set: display.rotation: expected 0, 90, 180 or 270", "an override has no line")
        }
    }

    @Test func aFileSavedWithCRLFReadsEveryLine() throws {
        let config = try Config.load(text: "[input]\r\ngrab = false\r\n[ink]\r\nwidth = 3.5  # thicker\r\n", file: "kiosk.toml")
        #expect(!config.input.grab)
        #expect(config.ink.pen.width == .constant(3.5))
        #expect(throws: ConfigError(file: "kiosk.toml", line: 2, key: "input.grab", message: "expected true or false, got an integer")) {
            try Config.load(text: "[input]\r\ngrab = 1\r\n", file: "kiosk.toml")
        }
    }

    @Test func theSampleConfigDocumentsEveryKeyWithItsDefault() throws {
        let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("config/signpad.toml")
        let text = try String(contentsOf: sample, encoding: .utf8)
        let fromSample = try Config.load(text: text, file: sample.path)
        let defaults = try Config.load(text: "", file: "(defaults)")
        #expect(fromSample.effectiveTOML == defaults.effectiveTOML, "config/signpad.toml must hold the defaults")
        let documented = try TOMLParser.parse(text, file: sample.path)
        #expect(Set(documented.keys) == Set(defaults.effective.map(\.key)), "every key is in the sample")
    }
}
