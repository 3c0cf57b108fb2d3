import SignpadVocabulary

/// A screen the kiosk's prompt, box and two buttons do not fit on.
public struct ScreenSizeError: Error, Equatable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public var description: String {
        guard width >= KioskLayout.minimumWidth && height >= KioskLayout.minimumHeight else {
            return "the screen is \(width)x\(height) pixels; the kiosk needs at least \(KioskLayout.minimumWidth)x\(KioskLayout.minimumHeight) for its prompt, signature box and two buttons"
        }
        return "the screen is \(width)x\(height) pixels; the kiosk signs on at most \(ScreenLimit.description), as a signature's image is as large as the ink on it"
    }
}

/// Where everything is on a screen of a given size: prompt, a request's text, signature box, buttons.
public struct KioskLayout: Equatable, Sendable {
    /// Below this the buttons (at least 80x40 each) crowd out the box.
    public static let minimumWidth = 200
    public static let minimumHeight = 150

    public static func requireRoom(width: Int, height: Int) throws(ScreenSizeError) {
        guard width >= minimumWidth, height >= minimumHeight, ScreenLimit.allows(width: width, height: height) else {
            throw ScreenSizeError(width: width, height: height)
        }
    }

    public let width: Int
    public let height: Int
    public let prompt: PixelRect
    public let box: PixelRect
    /// The baseline's y inside the box, and where its small "x" sits.
    public let baselineY: Int
    public let crossCenter: Point
    public let clearButton: PixelRect
    public let doneButton: PixelRect
    /// Where hints and staff messages appear.
    public let message: PixelRect

    /// Under a request's title, one row per line of its text; empty otherwise.
    public let lines: PixelRect
    public let lineCount: Int
    /// The button that declines a request, between Clear and Done; nil: none.
    public let declineButton: PixelRect?
    /// The button that takes back the last stroke, beside Clear; nil: none.
    public let undoButton: PixelRect?

    /// The kiosk's screen; with `requestLines`, a request's: the box gives up room to that many
    /// rows of text under the title, never shrinking below `minimumBoxHeight`, and `decline`
    /// adds its button.
    /// `undo` adds the Undo button beside Clear.
    public init(width: Int, height: Int, requestLines: Int = 0, decline: Bool = false, undo: Bool = false) {
        self.width = width
        self.height = height
        // Scaled to the screen, but never more than its short side allows: on a bar display
        // (3840x150, 240x1920) a margin from the long side would crowd out the box and buttons.
        let margin = Self.margin(width: width, height: height)
        let promptHeight = height / 10
        let buttonHeight = max(height / 9, 40)
        prompt = PixelRect(x: margin, y: margin, width: width - 2 * margin, height: promptHeight)
        lineCount = requestLines
        lines = PixelRect(x: margin, y: prompt.maxY, width: width - 2 * margin, height: requestLines * Self.lineHeight(height: height))
        let boxTop = lines.maxY + margin / 2
        let buttonsTop = height - margin - buttonHeight
        message = PixelRect(x: margin, y: buttonsTop - margin / 2 - promptHeight / 2, width: width - 2 * margin, height: promptHeight / 2)
        box = PixelRect(minX: margin, minY: boxTop, maxX: width - margin, maxY: message.minY - margin / 4)
        baselineY = box.minY + box.height * 3 / 4
        crossCenter = Point(Double(box.minX + margin + box.height / 20), Double(baselineY - box.height / 12))
        // A quarter of the width each, narrower where three or four would not fit side by side.
        let count = 2 + (decline ? 1 : 0) + (undo ? 1 : 0)
        let buttonWidth = min(max(width / 4, 80), (width - 2 * margin - (count - 1) * margin) / count)
        clearButton = PixelRect(x: margin, y: buttonsTop, width: buttonWidth, height: buttonHeight)
        doneButton = PixelRect(x: width - margin - buttonWidth, y: buttonsTop, width: buttonWidth, height: buttonHeight)
        undoButton = undo ? PixelRect(x: clearButton.maxX + margin, y: buttonsTop, width: buttonWidth, height: buttonHeight) : nil
        // Centred in the room between the buttons on its left and Done.
        let left = (undoButton ?? clearButton).maxX + margin, right = doneButton.minX - margin
        declineButton = decline ? PixelRect(x: left + (right - left - buttonWidth) / 2, y: buttonsTop, width: buttonWidth, height: buttonHeight) : nil
    }

    private static func margin(width: Int, height: Int) -> Int { min(max(width, height) / 40, min(width, height) / 12) }

    /// One row of a request's text: half the prompt's height, and never under 12 px.
    public static func lineHeight(height: Int) -> Int { max(height / 20, 12) }

    /// The size (px) of a request's lines of text.
    public var lineTextSize: Double { Double(Self.lineHeight(height: height)) * 0.7 }

    /// The least a request's text leaves of the signing box: half its height without text. A
    /// signature squeezed into less is no longer the customer's usual hand.
    public static func minimumBoxHeight(width: Int, height: Int) -> Int { KioskLayout(width: width, height: height).box.height / 2 }

    /// How many rows of text a request may show under its title on this screen.
    public static func maxRequestLines(width: Int, height: Int) -> Int {
        let full = KioskLayout(width: width, height: height).box.height
        return max(0, (full - minimumBoxHeight(width: width, height: height)) / lineHeight(height: height))
    }

    public enum Button: String, Equatable, Sendable {
        case clear, done, decline, undo
        /// The review's (`ReviewLayout`).
        case previousPage = "previous", nextPage = "next", sign
    }

    /// Every button shown, with where it is.
    public var buttons: [(button: Button, rect: PixelRect)] {
        var all: [(button: Button, rect: PixelRect)] = []
        all.reserveCapacity(4)
        all.append((.clear, clearButton))
        if let undoButton { all.append((.undo, undoButton)) }
        if let declineButton { all.append((.decline, declineButton)) }
        all.append((.done, doneButton))
        return all
    }

    public func button(at p: Point) -> Button? {
        let x = Int(p.x), y = Int(p.y)
        if clearButton.contains(x: x, y: y) { return .clear }
        if doneButton.contains(x: x, y: y) { return .done }
        if let declineButton, declineButton.contains(x: x, y: y) { return .decline }
        if let undoButton, undoButton.contains(x: x, y: y) { return .undo }
        return nil
    }

    public func inBox(_ p: Point) -> Bool { box.contains(x: Int(p.x), y: Int(p.y)) }
}
