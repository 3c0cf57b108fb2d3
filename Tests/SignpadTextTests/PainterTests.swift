import Foundation
import SignpadConfig
import SignpadExport
import SignpadKiosk
import SignpadTestSupport
import SignpadText
import SignpadVocabulary
import Testing

@Suite struct PainterTests {
    @Test func aBackgroundImageBrandsTheScreenBehindTheFurniture() throws {
        let path = NSTemporaryDirectory() + "signpad-bg-\(UUID().uuidString).png"
        defer { try? FileManager.default.removeItem(atPath: path) }
        // A 4x4 brand image: teal everywhere.
        try Data(PNGEncoder.encode(width: 4, height: 4, channels: .rgb) { _, _ in 0x008080 }).write(to: URL(fileURLWithPath: path))
        let layout = KioskLayout(width: 320, height: 200)
        let painter = try ChromePainter(style: KioskStyle(), backgroundImage: path, width: 320, height: 200)
        var canvas = Canvas(width: 320, height: 200)
        painter.paint(KioskScreen.items(layout: layout, labels: KioskLabels(), style: KioskStyle(), message: .none, pressed: nil), into: &canvas)
        #expect(canvas[1, 1] == 0x008080, "the image covers the screen, scaled up")
        let button = layout.doneButton
        #expect(canvas[(button.minX + button.maxX) / 2, button.minY + 3] != 0x008080, "the buttons are drawn over it")
    }

    @Test func aBadBackgroundImageIsAClearError() {
        do {
            _ = try ChromePainter(style: KioskStyle(), backgroundImage: "/nonexistent/brand.png", width: 10, height: 10)
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("/nonexistent/brand.png"))
        }
    }

    /// cairo called a file that is no PNG "out of memory", and decoded in full a small file claiming
    /// a huge size (a 445 KB PNG of 12000x12000 took 600 MB): the header is read first.
    @Test func aBackgroundImageThatIsNoPNGOrHugeIsRefusedFromItsHeader() throws {
        let path = NSTemporaryDirectory() + "signpad-bg-\(UUID().uuidString).png"
        defer { try? FileManager.default.removeItem(atPath: path) }
        var png = PNGEncoder.encode(width: 4, height: 4, channels: .rgb) { _, _ in 0x008080 }
        for (contents, expected) in [(Array("# EVEMU 1.3\nN: not an image at all\n".utf8), "not a PNG file"),
                                     (Array(png[0..<16]) + [0, 0, 0x2E, 0xE0, 0, 0, 0, 4] + Array(png[24...]), "12000x4 pixels; expected at most 8192x8192")] {
            try Data(contents).write(to: URL(fileURLWithPath: path))
            do {
                _ = try ChromePainter(style: KioskStyle(), backgroundImage: path, width: 320, height: 200)
                Issue.record("expected an error for \(expected)")
            } catch {
                #expect(error.description.hasPrefix(path + ": ") && error.description.contains(expected), "\(error)")
            }
        }
        png[16..<24] = [0, 0, 0x20, 0, 0, 0, 0, 4]  // 8192x4 passes the header; its data does not match, as cairo says.
        try Data(png).write(to: URL(fileURLWithPath: path))
        do {
            _ = try ChromePainter(style: KioskStyle(), backgroundImage: path, width: 320, height: 200)
            Issue.record("expected cairo's error")
        } catch {
            #expect(error.description.contains("not a readable PNG"), "\(error)")
        }
    }

    @Test func labelsAreDrawnAndAPressedButtonLooksDifferent() {
        let layout = KioskLayout(width: 640, height: 400)
        let painter = try! ChromePainter(style: KioskStyle(), backgroundImage: nil, width: 640, height: 400)
        var idle = Canvas(width: 640, height: 400), pressed = idle
        painter.paint(KioskScreen.items(layout: layout, labels: KioskLabels(), style: KioskStyle(), message: .none, pressed: nil), into: &idle)
        painter.paint(KioskScreen.items(layout: layout, labels: KioskLabels(), style: KioskStyle(), message: .none, pressed: .done), into: &pressed)
        let p = layout.prompt
        let promptInk = (p.minY..<p.maxY).reduce(0) { n, y in n + (p.minX..<p.maxX).filter { idle[$0, y] != 0xFFFFFF }.count }
        #expect(promptInk > 100, "the prompt's text is on screen")
        let d = layout.doneButton
        #expect(idle[d.minX + 10, d.minY + d.height / 2] != pressed[d.minX + 10, d.minY + d.height / 2])
    }
}

/// The shipped font, DejaVu Sans (fonts-dejavu-core, which install-deps installs), has Latin,
/// Greek, Cyrillic and Hebrew, and no CJK: cairo draws each label with that one font, so a
/// Japanese label would show boxes.
@Suite struct FontCheckTests {
    @Test func theShippedLabelsInTheShippedFontHaveNothingToSay() throws {
        let config = try Config.load(text: "", file: "(test)", overrides: [])
        #expect(config.fontProblems.isEmpty, "\(config.fontProblems)")
        let russian = try Config.load(text: "[kiosk]\nprompt = \"Пожалуйста, распишитесь ниже\"\ndone_label = \"Готово\"\n", file: "(test)", overrides: [])
        #expect(russian.fontProblems.isEmpty, "\(russian.fontProblems)")
    }

    @Test func aLabelNoInstalledFontHasIsNamedWithTheCharactersAndHowToFindAFont() throws {
        // Linear B: in no font a kiosk (or this machine) installs.
        let config = try Config.load(text: "[kiosk]\nprompt = \"Sign 𐀀𐀁𐀂\"\ndone_label = \"𐀃\"\n", file: "(test)", overrides: [])
        let problems = config.fontProblems
        #expect(problems.count == 2, "\(problems)")
        let prompt = problems.first { $0.hasPrefix("kiosk.prompt: ") } ?? ""
        #expect(prompt.contains("𐀀 (U+10000), 𐀁 (U+10001), 𐀂 (U+10002)") && prompt.contains("\"DejaVu Sans\""), "\(prompt)")
        #expect(prompt.contains("fc-list ':charset=10000' family"), "\(prompt)")
        #expect(problems.contains { $0.hasPrefix("kiosk.done_label: ") && $0.contains("𐀃 (U+10003)") }, "\(problems)")
    }

    /// fontconfig draws a font name it has never heard of in its default font, without a word:
    /// check-config and the start say so, naming the font it stands in.
    @Test func aFontNameThatMatchesNoFontIsSaidWithTheFontUsedInstead() throws {
        let config = try Config.load(text: "[kiosk]\nfont = \"No Such Font 123\"\n", file: "(test)", overrides: [])
        let problem = config.fontProblems.first { $0.hasPrefix("kiosk.font: ") } ?? ""
        #expect(problem.contains("no installed font is called \"No Such Font 123\"; text is drawn in \""), "\(config.fontProblems)")
        for named in ["dejavu sans", "DejaVu Sans Bold", "sans-serif", "monospace"] {
            let fine = try Config.load(text: "[kiosk]\nfont = \"\(named)\"\n", file: "(test)", overrides: [])
            #expect(!fine.fontProblems.contains { $0.hasPrefix("kiosk.font: ") }, "\(named): \(fine.fontProblems)")
        }
    }

    @Test func scriptsDejaVuLacksAreDrawnInAFontThatHasThem() throws {
        // Pango falls back: Hebrew and Arabic in DejaVu Sans, Hindi in whatever font has Devanagari.
        let config = try Config.load(text: "[kiosk]\ndone_label = \"סיום\"\nclear_label = \"مسح\"\n", file: "(test)", overrides: [])
        #expect(config.fontProblems.isEmpty, "\(config.fontProblems)")
    }
}

/// Text through Pango: shaped, in order and wrapped, as an independent renderer of the same text
/// (`pango-view`, Debian's pango1.0-tools) draws it.
@Suite struct TextShapingTests {
    /// Dark pixels of `canvas`, cropped to where there are any: (width, height, mask).
    static func ink(_ canvas: Canvas) -> (width: Int, height: Int, mask: [Bool]) {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        func dark(_ x: Int, _ y: Int) -> Bool {
            let p = canvas[x, y]
            return (Int((p >> 16) & 0xFF) + Int((p >> 8) & 0xFF) + Int(p & 0xFF)) / 3 < 128
        }
        for y in 0..<canvas.height { for x in 0..<canvas.width where dark(x, y) {
            minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
        } }
        guard maxX >= 0 else { return (0, 0, []) }
        let w = maxX - minX + 1, h = maxY - minY + 1
        return (w, h, (0..<(w * h)).map { dark(minX + $0 % w, minY + $0 / w) })
    }

    /// Intersection over union of two ink masks laid over each other at their top-left corners.
    static func overlap(_ a: (width: Int, height: Int, mask: [Bool]), _ b: (width: Int, height: Int, mask: [Bool])) -> Double {
        var both = 0, either = 0
        for y in 0..<max(a.height, b.height) {
            for x in 0..<max(a.width, b.width) {
                let inA = x < a.width && y < a.height && a.mask[y * a.width + x]
                let inB = x < b.width && y < b.height && b.mask[y * b.width + x]
                both += inA && inB ? 1 : 0
                either += inA || inB ? 1 : 0
            }
        }
        return either == 0 ? 0 : Double(both) / Double(either)
    }

    static func painted(_ text: String, size: Double = 40) -> Canvas {
        let painter = try! ChromePainter(style: KioskStyle(), backgroundImage: nil, width: 900, height: 160)
        var canvas = Canvas(width: 900, height: 160)
        painter.paint([ChromeItem(PixelRect(x: 0, y: 0, width: 900, height: 160), .text(text, size: size, color: 0x000000))], into: &canvas)
        return canvas
    }

    static func pangoView(_ text: String, size: Int = 40) throws -> Canvas {
        let dir = scratch()
        defer { removeScratch(dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let out = dir + "/text.png"
        let result = try run("pango-view", ["-q", "--pixels", "--font=DejaVu Sans \(size)", "--margin=10", "--background=white",
                                            "--foreground=black", "--text=\(text)", "-o", out])
        #expect(result.status == 0, "\(result.output)")
        return try ChromePainter.loadPNG(out)
    }

    @Test(arguments: [("Arabic", "ادفع الآن من فضلك"), ("Hindi", "कृपया यहाँ हस्ताक्षर करें"), ("Hebrew", "נא לחתום כאן")])
    func aLabelInAnyScriptIsDrawnAsPangoViewDrawsIt(script: String, text: String) throws {
        try requirePeer(.tool("pango-view"))
        let ours = Self.ink(Self.painted(text)), theirs = Self.ink(try Self.pangoView(text))
        #expect(abs(ours.width - theirs.width) <= 3 && abs(ours.height - theirs.height) <= 3,
                "\(script): \(ours.width)x\(ours.height) against pango-view's \(theirs.width)x\(theirs.height)")
        #expect(Self.overlap(ours, theirs) > 0.8, "\(script): \(Self.overlap(ours, theirs))")
        // The comparison tells text apart: the same letters in the opposite order do not pass.
        let reversed = Self.ink(Self.painted(String(text.unicodeScalars.reversed().map(Character.init))))
        #expect(Self.overlap(reversed, theirs) < 0.6, "\(script) reversed: \(Self.overlap(reversed, theirs))")
    }

    @Test func aLongPromptWrapsInsteadOfShrinking() {
        let prompt = "By signing you agree to pay the amount above and accept the terms shown at the counter"
        let painter = try! ChromePainter(style: KioskStyle(), backgroundImage: nil, width: 600, height: 200)
        #expect(painter.textRows(prompt, width: 600, size: 30) >= 3)
        var canvas = Canvas(width: 600, height: 200)
        painter.paint([ChromeItem(PixelRect(x: 0, y: 0, width: 600, height: 200), .text(prompt, size: 30, color: 0x000000))], into: &canvas)
        // Bands of rows with ink, split by rows without: one per line of text.
        var bands = 0, inBand = false
        for y in 0..<canvas.height {
            let hasInk = (0..<canvas.width).contains { canvas[$0, y] & 0xFF < 128 }
            if hasInk && !inBand { bands += 1 }
            inBand = hasInk
        }
        #expect(bands >= 3, "wrapped to \(bands) lines")
        let tallest = Self.ink(canvas).height
        #expect(tallest > 80, "at its size, not shrunk to one line: \(tallest) px of text")
    }
}
