import Foundation
import SignpadConfig
import SignpadExport
import SignpadInput
import SignpadKiosk
@testable import SignpadSession
import SignpadTestSupport
import SignpadVocabulary
import Testing

/// Paints the chrome as flat grey boxes: no text library, which the session does not need.
struct BoxPainter: ScreenPainter {
    func paint(_ items: [ChromeItem], into canvas: inout Canvas, within rects: [PixelRect]) {
        for r in rects { for y in r.minY..<r.maxY { for x in r.minX..<r.maxX { canvas[x, y] = 0xFFEEEEEE } } }
    }

    /// A character is `size` wide, and lines break anywhere.
    func textRows(_ text: String, width: Int, size: Double) -> Int { max(1, Int((Double(text.count) * size / Double(width)).rounded(.up))) }
}

/// The session and replay are the kiosk whole, screen and exports, without cairo.
@Suite struct SessionWithoutTextTests {
    @Test func theDemoReplaysAndIsSavedWithAPainterOfAnyKind() throws {
        let dir = scratch()
        defer { removeScratch(dir) }
        let recording = try demoRecording()
        var replay = Replay(ReplayOptions(try Config.load(text: "", file: "(test)")), width: 800, height: 480) { _, _ in BoxPainter() }
        replay.confirmAtEnd = false
        let drawn = try replay.run(recording, outputDirectory: dir) { _ in }
        let inkPixels = drawn.screen.pixels.filter { $0 != 0xFFEEEEEE }.count
        #expect(inkPixels > 1000, "the signature is on the screen, over the painter's chrome")
        #expect(drawn.session.kiosk.signature.strokes.count == 5)
        replay.confirmAtEnd = true
        let saved = try replay.run(recording, outputDirectory: dir) { _ in }
        #expect(saved.saved.count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).contains("\(saved.saved[0]).meta.json"))
    }

    /// The last screen is written as the exports are: 0640, as it may show a signature.
    @Test func theLastScreenIsWrittenForTheOwnerAndTheGroupOnly() throws {
        let dir = scratch()
        defer { removeScratch(dir) }
        try Canvas(width: 4, height: 3).writePNG(named: "screen.png", in: dir)
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: dir + "/screen.png")[.posixPermissions] as? Int)
        #expect(mode == 0o640)
    }
}
