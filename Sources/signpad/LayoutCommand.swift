import ArgumentParser
import FoundationEssentials
import SignpadConfig
import SignpadKiosk
import SignpadVocabulary

struct Layout: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print where the screen's text, signature box and buttons are, in pixels.",
        discussion: "Each rectangle is minX minY maxX maxY, the max exclusive, on the screen as the customer sees it (after display.rotation). For scripts that touch the pad through uinput, and for checking a layout before it is on a panel.")
    @Option(name: .long, help: "The screen size as the customer sees it, WIDTHxHEIGHT (default 1280x800).") var screen: String?
    @Option(name: .long, help: "The screen of a point of sale's request with this many rows of text above the box (0: a title alone).") var requestRows: Int?
    @Flag(name: .long, help: "The screen a point of sale's document is read on before signing: its prompt, page and buttons.") var review = false
    @Flag(name: .long, help: "Print JSON: each rectangle as [minX, minY, maxX, maxY].") var json = false
    @OptionGroup var options: ConfigOptions

    func run() throws {
        let config = try options.load(defaultToSystemFile: false)
        let (width, height) = try parseScreen(screen ?? "1280x800")
        try KioskLayout.requireRoom(width: width, height: height)
        let most = KioskLayout.maxRequestLines(width: width, height: height)
        if let rows = requestRows, !(0...most).contains(rows) {
            throw ValidationError("--request-rows: expected 0 to \(most) at \(width)x\(height), got \(rows)")
        }
        let layout = KioskLayout(width: width, height: height, requestLines: requestRows ?? 0,
                                 decline: requestRows != nil && config.kiosk.rules.offersDecline, undo: !config.kiosk.labels.undo.isEmpty)
        var items: [(name: String, rect: PixelRect)] = [("prompt", layout.prompt)]
        if review {
            let shown = ReviewLayout(width: width, height: height, decline: config.kiosk.rules.offersDecline)
            items += [("page", shown.page), ("previous", shown.previousButton), ("next", shown.nextButton)]
            items += (shown.declineButton.map { [("decline", $0)] } ?? []) + [("sign", shown.signButton)]
        } else {
            if let rows = requestRows, rows > 0 { items.append(("lines", layout.lines)) }
            items += [("box", layout.box), ("message", layout.message)] + layout.buttons.map { ($0.button.rawValue, $0.rect) }
        }
        if json {
            var fields = ["\"screen\": [\(width), \(height)]"]
            fields += items.map { "\"\($0.name)\": [\($0.rect.minX), \($0.rect.minY), \($0.rect.maxX), \($0.rect.maxY)]" }
            print("{" + fields.joined(separator: ", ") + "}")
        } else {
            print("screen   \(width)x\(height)")
            for (name, r) in items {
                print(name.padded(to: 8) + " \(r.minX) \(r.minY) \(r.maxX) \(r.maxY)  (\(r.width)x\(r.height))")
            }
            if !review { print("baseline \(layout.baselineY)") }
        }
    }
}
