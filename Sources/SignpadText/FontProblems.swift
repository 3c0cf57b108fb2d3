import SignpadConfig

extension Config {
    /// Words the font would draw wrong (see `FontCheck`): said at start and by check-config, not
    /// refused, as the kiosk still works.
    public var fontProblems: [String] { FontCheck.problems(font: kiosk.style.font, labels: labelsByKey) }
}
