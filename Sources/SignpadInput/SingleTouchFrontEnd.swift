import SignpadVocabulary

/// A touchscreen of one contact: BTN_TOUCH says it is down, ABS_X and ABS_Y where.
struct SingleTouchFrontEnd: SingleContactFrontEnd {
    var mapping: ScreenMapping
    var axes = SingleContactAxes()
    var contact = SingleContactState.up
    var contactDown: Bool { axes.touch == .pressed }

    init(mapping: ScreenMapping) {
        self.mapping = mapping
    }
}
