import SignpadKiosk
import SignpadVocabulary

/// The screen's furniture as last painted, and each button as painted, both ways (pressed and
/// not): a repaint paints only the items that changed, and a button that changed is drawn back
/// from its picture instead of laid out and painted again by the painter (text with Pango costs
/// millions of instructions; the picture, thousands).
struct ShownChrome {
    /// What the screen shows now.
    private(set) var items: [ChromeItem] = []
    /// Each button as painted, by its item (rect, label and state). The painter and the picture
    /// under the buttons never change in a session, so a picture stays right.
    private var pictures: [ChromeItem: ButtonPicture] = [:]
    /// Reused, so a press does not allocate lists of its own.
    private(set) var toPaint: [PixelRect] = []
    private(set) var toDraw: [(rect: PixelRect, picture: ButtonPicture)] = []
    /// Both: every rectangle that changes.
    private(set) var changed: [PixelRect] = []

    init() {
        toPaint.reserveCapacity(16)
        toDraw.reserveCapacity(8)
        changed.reserveCapacity(24)
    }

    /// Sorts what differs between the screen and `next` into `toPaint`, the rectangles of the
    /// items that went or came, for the painter, and `toDraw`, the buttons drawn from their
    /// pictures; `next` is then what the screen shows.
    mutating func change(to next: [ChromeItem]) {
        toPaint.removeAll(keepingCapacity: true)
        toDraw.removeAll(keepingCapacity: true)
        for new in next where !items.contains(new) {
            if let picture = pictures[new], stands(alone: new, among: next) {
                toDraw.append((new.rect, picture))
            } else {
                include(new.rect)
            }
        }
        // An item gone under a button drawn from its picture is covered by it.
        for old in items where !next.contains(old) && !toDraw.contains(where: { old.rect.intersection($0.rect) == old.rect }) {
            include(old.rect)
        }
        changed.removeAll(keepingCapacity: true)
        changed.append(contentsOf: toPaint)
        for (rect, _) in toDraw { changed.append(rect) }
        items = next
    }

    /// The whole screen painted as `next`.
    mutating func painted(_ next: [ChromeItem]) { items = next }

    /// Keeps the picture of each button of `painted` that stands alone, from `canvas` where it was just painted.
    mutating func keepButtons(of painted: [ChromeItem], from canvas: Canvas) {
        for item in painted where pictures[item] == nil && stands(alone: item, among: painted) {
            guard case .button = item.kind, item.rect.intersection(canvas.bounds) == item.rect, !item.rect.isEmpty else { continue }
            pictures[item] = ButtonPicture(item.rect, of: canvas)
        }
    }

    func picture(of item: ChromeItem) -> ButtonPicture? { pictures[item] }

    /// The buttons of `items` whose other state (pressed, or not) has no picture yet, in that state.
    func otherStatesToKeep(of items: [ChromeItem]) -> [ChromeItem] {
        items.compactMap { item in
            guard case .button(let label, let pressed) = item.kind else { return nil }
            let other = ChromeItem(item.rect, .button(label, pressed: !pressed))
            return pictures[other] == nil && stands(alone: item, among: items) ? other : nil
        }
    }

    /// Whether no other item reaches into `item`'s rectangle: then its pixels are its own.
    private func stands(alone item: ChromeItem, among all: [ChromeItem]) -> Bool {
        !all.contains { $0 != item && !$0.rect.intersection(item.rect).isEmpty }
    }

    private mutating func include(_ rect: PixelRect) {
        if !toPaint.contains(rect) { toPaint.append(rect) }
    }
}
