/// What the kiosk takes from the configuration (`[kiosk]`): how it looks, what it says, its rules.
public struct KioskOptions: Equatable, Sendable {
    public var style = KioskStyle()
    /// A PNG drawn under the kiosk (`kiosk.background_image`); nil: the background colour.
    public var backgroundImage: String?
    public var labels = KioskLabels()
    public var rules = KioskRules()

    public init() {}
}
