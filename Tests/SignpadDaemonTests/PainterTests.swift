import Foundation
import SignpadConfig
import SignpadDaemon
import SignpadExport
import SignpadInk
import SignpadKiosk
import SignpadText
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

    @Test func aLabelTheFontHasNoGlyphsForIsNamedWithTheCharactersAndHowToFindAFont() throws {
        let config = try Config.load(text: "[kiosk]\nprompt = \"下の枠に署名してください\"\ndone_label = \"完了\"\n", file: "(test)", overrides: [])
        let problems = config.fontProblems
        #expect(problems.count == 2, "\(problems)")
        let prompt = problems.first { $0.hasPrefix("kiosk.prompt: ") } ?? ""
        #expect(prompt.contains("\"DejaVu Sans\"") && prompt.contains("下 (U+4E0B)") && prompt.contains("and 7 more"), "\(prompt)")
        #expect(prompt.contains("fc-list ':charset=4e0b' family"), "\(prompt)")
        #expect(problems.contains { $0.hasPrefix("kiosk.done_label: ") && $0.contains("完 (U+5B8C), 了 (U+4E86)") }, "\(problems)")
    }

    @Test func rightToLeftTextIsSaidToComeOutLeftToRight() throws {
        let config = try Config.load(text: "[kiosk]\ndone_label = \"סיום\"\n", file: "(test)", overrides: [])
        let problems = config.fontProblems
        #expect(problems.count == 1 && problems[0].hasPrefix("kiosk.done_label: right-to-left text (ס (U+05E1)"), "\(problems)")
    }
}
