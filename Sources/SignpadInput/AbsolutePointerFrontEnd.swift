import SignpadVocabulary

/// An absolute pointer such as QEMU's usb-tablet: BTN_LEFT is the contact, ABS_X and ABS_Y where.
struct AbsolutePointerFrontEnd: SingleContactFrontEnd {
    var mapping: ScreenMapping
    var axes = SingleContactAxes()
    var contact = SingleContactState.up
    var contactDown: Bool { axes.left == .pressed }

    init(mapping: ScreenMapping) {
        self.mapping = mapping
    }
}
