import SignpadKiosk
import SignpadVocabulary

/// Draws the kiosk's screen items (prompt, box, buttons, message) into the canvas. The
/// daemon's is cairo's (`ChromePainter` in SignpadText); the session itself draws no text, so it
/// and replay are tested without a text library.
public protocol ScreenPainter {
    /// Paints the screen without ink into `canvas`, inside `rects` only: pixels outside them
    /// (the ink among them) stay as they are.
    func paint(_ items: [ChromeItem], into canvas: inout Canvas, within rects: [PixelRect])
    /// How many lines `text` takes at `size` px, wrapped at `width` px as `paint` wraps it.
    func textRows(_ text: String, width: Int, size: Double) -> Int
}

extension ScreenPainter {
    /// Paints the whole screen.
    public func paint(_ items: [ChromeItem], into canvas: inout Canvas) { paint(items, into: &canvas, within: [canvas.bounds]) }
}

/// Makes the painter for a screen of the given logical size, once the session knows it.
public typealias MakeScreenPainter = (_ width: Int, _ height: Int) throws -> any ScreenPainter
