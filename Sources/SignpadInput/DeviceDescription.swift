/// The range of one absolute axis (struct input_absinfo).
public struct AbsInfo: Equatable, Sendable {
    public var value: Int32
    public var minimum: Int32
    public var maximum: Int32
    public var fuzz: Int32
    public var flat: Int32
    /// Units per millimetre (0 when unknown).
    public var resolution: Int32

    public init(value: Int32 = 0, minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0) {
        self.value = value
        self.minimum = minimum
        self.maximum = maximum
        self.fuzz = fuzz
        self.flat = flat
        self.resolution = resolution
    }
}

/// What a device is and can do: the same facts from a live device or an evemu header.
public struct DeviceDescription: Equatable, Sendable {
    public var name: String
    public var bus: UInt16 = 0
    public var vendor: UInt16 = 0
    public var product: UInt16 = 0
    public var properties: Set<UInt16> = []
    /// Supported codes per event type (EV_KEY → key codes, EV_ABS → axes, …).
    public var codes: [UInt16: Set<UInt16>] = [:]
    public var absInfo: [UInt16: AbsInfo] = [:]

    public init(name: String) { self.name = name }

    public func has(_ type: UInt16, _ code: UInt16) -> Bool { codes[type]?.contains(code) ?? false }
    public func hasKey(_ code: UInt16) -> Bool { has(EventCode.EV_KEY, code) }
    public func hasAbs(_ code: UInt16) -> Bool { has(EventCode.EV_ABS, code) && absInfo[code] != nil }
    public func hasProperty(_ property: UInt16) -> Bool { properties.contains(property) }
}
