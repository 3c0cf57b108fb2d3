extension CalibrationMatrix {
    /// The matrix rounded to six decimals (under 0.01 px even across an 8K panel), as signpad
    /// prints and writes it; "+ 0" turns -0.0, which would only puzzle, into 0.0.
    public var rounded: CalibrationMatrix {
        CalibrationMatrix(values: values.map { ($0 * 1e6).rounded() / 1e6 + 0 })!
    }

    /// A udev rule giving the device named `deviceName` this matrix as its
    /// `LIBINPUT_CALIBRATION_MATRIX`, which signpad (and libinput) read per device: for a pen and a
    /// touchscreen read together that need different matrices, where `input.calibration` is one
    /// for all. udev matches names as globs and cannot quote a quote, so those characters in the
    /// name match any one character instead.
    public func udevRule(deviceName: String) -> String {
        let pattern = String(deviceName.map { "\"*?[]\\".contains($0) ? "?" : $0 })
        let property = rounded.values.map { String($0) }.joined(separator: " ")
        return "SUBSYSTEM==\"input\", KERNEL==\"event*\", ATTRS{name}==\"\(pattern)\", ENV{LIBINPUT_CALIBRATION_MATRIX}=\"\(property)\""
    }
}
