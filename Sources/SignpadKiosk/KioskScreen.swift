import SignpadVocabulary

/// Colours and font of the kiosk's furniture.
public struct KioskStyle: Equatable, Sendable {
    public var font = "DejaVu Sans"
    public var background: UInt32 = 0xFFFFFF
    public var text: UInt32 = 0x202020
    public var boxBorder: UInt32 = 0xB0B0B0
    public var baseline: UInt32 = 0x808080
    public var button: UInt32 = 0xE8E8E8
    public var buttonPressed: UInt32 = 0xA0C4FF
    /// Hints and failures: a colour that asks for attention.
    public var message: UInt32 = 0xB00020
    /// The "saved" confirmation: a customer's success must not look like an error.
    public var confirmation: UInt32 = 0x1B5E20

    public init() {}
}

/// One rectangle of text or shape to paint; the painter knows nothing of the kiosk's rules.
public struct ChromeItem: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        case text(String, size: Double, color: UInt32)
        case frame(color: UInt32, lineWidth: Double)
        case button(String, pressed: Bool)
        case line(from: Point, to: Point, color: UInt32, width: Double)
        case cross(center: Point, size: Double, color: UInt32)
    }

    public var rect: PixelRect
    public var kind: Kind

    public init(_ rect: PixelRect, _ kind: Kind) {
        self.rect = rect
        self.kind = kind
    }
}

/// What the screen shows for a kiosk state: the furniture around the ink.
public enum KioskScreen {
    public static func items(kiosk: Kiosk, labels: KioskLabels, style: KioskStyle) -> [ChromeItem] {
        items(layout: kiosk.layout, labels: labels, style: style, message: kiosk.message, pressed: kiosk.pressedButton,
              request: kiosk.request, idlePage: kiosk.showsIdlePage, outOfService: kiosk.outOfService, reviewLayout: kiosk.reviewLayout)
    }

    /// The review's furniture: the prompt with the page's number and the buttons it offers now.
    /// The page itself is the session's to draw, in `ReviewLayout.page`.
    static func reviewItems(_ review: DocumentReview, layout: ReviewLayout, labels: KioskLabels, style: KioskStyle,
                            pressed: KioskLayout.Button?) -> [ChromeItem] {
        let title = "\(labels.review)   \(review.page + 1) / \(review.pageCount)"
        var items = [ChromeItem(layout.prompt, .text(title, size: Double(layout.prompt.height) * 0.45, color: style.text))]
        for (button, rect) in layout.buttons(for: review) {
            let label = switch button {
            case .previousPage: labels.previousPage
            case .nextPage: labels.nextPage
            case .sign: labels.sign
            case .decline: labels.decline
            case .clear, .undo, .done: ""
            }
            items.append(ChromeItem(rect, .button(label, pressed: pressed == button)))
        }
        return items
    }

    /// `request`: its title and lines, shown where `layout` (a request's) has room for them.
    /// `idlePage`: the idle page of requested mode instead of the box and buttons.
    /// `outOfService`: why no signature is taken, for staff, in place of any other message.
    public static func items(layout: KioskLayout, labels: KioskLabels, style: KioskStyle, message: KioskMessage,
                             pressed: KioskLayout.Button?, request: KioskRequest? = nil, idlePage: Bool = false,
                             outOfService: String? = nil, reviewLayout: ReviewLayout? = nil) -> [ChromeItem] {
        let box = layout.box
        // Room for the most a screen shows, so a button's press builds its list in one allocation.
        var items: [ChromeItem] = []
        items.reserveCapacity(12 + (request?.lines.count ?? 0))
        if let reason = outOfService, request == nil {
            items.append(ChromeItem(layout.prompt, .text(labels.outOfService, size: Double(layout.prompt.height) * 0.45, color: style.text)))
            items.append(ChromeItem(layout.message, .text(labels.staff + reason, size: Double(layout.message.height) * 0.7, color: style.message)))
            return items
        }
        if let request, let review = request.review, let reviewLayout {
            return reviewItems(review, layout: reviewLayout, labels: labels, style: style, pressed: pressed)
        }
        if idlePage {
            items.append(ChromeItem(layout.prompt, .text(labels.idle, size: Double(layout.prompt.height) * 0.45, color: style.text)))
        } else {
            let title = request?.title ?? labels.prompt
            items.append(ChromeItem(layout.prompt, .text(title, size: Double(layout.prompt.height) * 0.45, color: style.text)))
            if let request {
                let row = KioskLayout.lineHeight(height: layout.height)
                var top = layout.lines.minY
                for (line, rows) in zip(request.lines, request.lineRows) {
                    items.append(ChromeItem(PixelRect(x: layout.lines.minX, y: top, width: layout.lines.width, height: rows * row),
                                            .text(line, size: layout.lineTextSize, color: style.text)))
                    top += rows * row
                }
            }
            items.append(ChromeItem(box, .frame(color: style.boxBorder, lineWidth: 2)))
            items.append(ChromeItem(box, .line(from: Point(Double(box.minX + box.width / 20), Double(layout.baselineY)),
                                               to: Point(Double(box.maxX - box.width / 20), Double(layout.baselineY)), color: style.baseline, width: 1.5)))
            items.append(ChromeItem(box, .cross(center: layout.crossCenter, size: Double(box.height) / 12, color: style.baseline)))
            for (button, rect) in layout.buttons {
                let label = switch button {
                case .clear: labels.clear
                case .undo: labels.undo
                case .decline: labels.decline
                case .done: labels.done
                case .previousPage: labels.previousPage
                case .nextPage: labels.nextPage
                case .sign: labels.sign
                }
                items.append(ChromeItem(rect, .button(label, pressed: pressed == button)))
            }
        }
        if let text = labels.text(for: message) {
            let color = switch message {
            case .saved: style.confirmation
            case .saving: style.text
            case .none, .tooLittleInk, .saveFailed: style.message
            }
            items.append(ChromeItem(layout.message, .text(text, size: Double(layout.message.height) * 0.7, color: color)))
        }
        return items
    }
}
