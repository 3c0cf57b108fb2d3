/// Every word the kiosk shows, so a kiosk can speak its own language.
public struct KioskLabels: Equatable, Sendable {
    public var prompt = "Please sign in the box below"
    public var clear = "Clear"
    public var done = "Done"
    public var tooLittleInk = "Please sign with your full signature"
    public var saving = "Saving…"
    public var saved = "Thank you — saved"
    /// The button that takes back the last stroke; empty: none.
    public var undo = "Undo"
    /// The declining button of a request; empty: none.
    public var decline = ""
    /// The idle page's text, in requested mode between requests.
    public var idle = "Welcome"
    /// Shown with the reason when an export fails; meant for staff.
    public var saveFailed = "Not saved yet — staff: "
    /// The idle page's text while no signature can be kept (see `Kiosk.takeOutOfService`).
    public var outOfService = "Out of service"
    /// Before the reason, under `outOfService`; meant for staff.
    public var staff = "Staff: "
    /// Above a request's document, before the page number.
    public var review = "Please read the document"
    /// The review's buttons.
    public var previousPage = "Previous"
    public var nextPage = "Next"
    public var sign = "Sign"

    public init() {}

    public func text(for message: KioskMessage) -> String? {
        switch message {
        case .none: return nil
        case .tooLittleInk: return tooLittleInk
        case .saving: return saving
        case .saved: return saved
        case .saveFailed(let reason): return saveFailed + reason
        }
    }
}
