import SignpadInk
import SignpadKiosk

/// Draws the kiosk's screen items (prompt, box, buttons, message) into the chrome canvas. The
/// daemon's is cairo's (`ChromePainter` in SignpadText); the session itself draws no text, so it
/// and replay are tested without a text library.
public protocol ScreenPainter {
    func paint(_ items: [ChromeItem], into canvas: inout Canvas)
    /// How many lines `text` takes at `size` px, wrapped at `width` px as `paint` wraps it.
    func textRows(_ text: String, width: Int, size: Double) -> Int
}

/// Makes the painter for a screen of the given logical size, once the session knows it.
public typealias MakeScreenPainter = (_ width: Int, _ height: Int) throws -> any ScreenPainter
