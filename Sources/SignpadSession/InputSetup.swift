import SignpadInput

extension Session {
    /// How a device is set up to draw on this session's screen.
    public var inputSetup: InputDeviceSetup { InputDeviceSetup(options: options.input, scanout: display.scanout) }
}
