/// An ISO/IEC 19794-7:2007 signature/sign time series record in the full format, as bytes go:
/// the `SDI\0` and ` 10\0` header, a bitmap of the channels included, one description per
/// channel, then fixed-width sample points and optional extended data. The layout is the one
/// the design notes reconstruct from the public GOST R adoption and a byte-level decode of
/// Wacom's published sample; every multi-byte value is big-endian.
public struct ISOSignatureRecord: Equatable, Sendable {
    /// The channels in the bitmap's order, most significant bit first.
    public enum Channel: Int, CaseIterable, Sendable {
        case x, y, z, vx, vy, ax, ay, t, dt, f, s, tx, ty, az, el, r

        public var name: String {
            switch self {
            case .x: "X"
            case .y: "Y"
            case .z: "Z"
            case .vx: "VX"
            case .vy: "VY"
            case .ax: "AX"
            case .ay: "AY"
            case .t: "T"
            case .dt: "DT"
            case .f: "F"
            case .s: "S"
            case .tx: "TX"
            case .ty: "TY"
            case .az: "AZ"
            case .el: "EL"
            case .r: "R"
            }
        }

        /// Signed channels are written offset by 0x8000 (0 is 0x8000), as Wacom's record writes X and Y.
        public var isSigned: Bool {
            switch self {
            case .x, .y, .vx, .vy, .ax, .ay, .tx, .ty: true
            default: false
            }
        }

        /// The channel `name` gives (X, DT, …, either case); nil for none.
        public init?(name: String) {
            guard let found = Self.allCases.first(where: { $0.name.lowercased() == name.lowercased() }) else { return nil }
            self = found
        }

        /// A value's range in the compact format, one byte a channel.
        public var compactRange: ClosedRange<Int> {
            switch self {
            case .s: 0...1
            default: isSigned ? -128...127 : 0...255
            }
        }

        /// S, the tip switch, is one byte; every other channel two.
        public var width: Int { self == .s ? 1 : 2 }

        public var range: ClosedRange<Int> {
            switch self {
            case .s: 0...1
            default: isSigned ? -32768...32767 : 0...65535
            }
        }
    }

    /// What a channel's preamble says of it. Values are in the channel's own units.
    public struct ChannelDescription: Equatable, Sendable {
        public var channel: Channel
        /// Units per millimetre (X, Y), per second (T, DT), as the preamble's scale gives it.
        public var scale: ISOScale?
        public var minimum: Int?
        public var maximum: Int?
        public var mean: Int?
        public var standardDeviation: Int?
        public var linearComponentRemoved: Bool

        public init(_ channel: Channel, scale: ISOScale? = nil, minimum: Int? = nil, maximum: Int? = nil, mean: Int? = nil,
                    standardDeviation: Int? = nil, linearComponentRemoved: Bool = false) {
            self.channel = channel
            self.scale = scale
            self.minimum = minimum
            self.maximum = maximum
            self.mean = mean
            self.standardDeviation = standardDeviation
            self.linearComponentRemoved = linearComponentRemoved
        }
    }

    /// In the bitmap's order.
    public var channels: [ChannelDescription]
    /// One value per channel for each point, point after point. A channel's description values
    /// (minimum, maximum, mean) take two bytes even for S, whose points take one.
    public var values: [Int]
    /// The body's extended data (vendor data), nil when the record has none.
    public var extendedData: [UInt8]?

    public init(channels: [ChannelDescription], values: [Int], extendedData: [UInt8]? = nil) {
        self.channels = channels
        self.values = values
        self.extendedData = extendedData
    }

    public var pointCount: Int { channels.isEmpty ? 0 : values.count / channels.count }

    public func value(_ channel: Channel, point: Int) -> Int? {
        channels.firstIndex { $0.channel == channel }.map { values[point * channels.count + $0] }
    }

    static let magic: [UInt8] = Array("SDI\0".utf8)
    static let version: [UInt8] = Array(" 10\0".utf8)
    /// The preamble's bits, most significant first.
    enum Preamble {
        static let scale: UInt8 = 0x80, minimum: UInt8 = 0x40, maximum: UInt8 = 0x20, mean: UInt8 = 0x10
        static let standardDeviation: UInt8 = 0x08, constant: UInt8 = 0x04, linearComponentRemoved: UInt8 = 0x02, reserved: UInt8 = 0x01
    }

    /// The record's bytes. Values must lie in each channel's range, and the counts in their
    /// fields (points in three bytes, extended data in two); `ISOSignatureEncoder` makes them so.
    public func bytes() -> [UInt8] {
        precondition(!channels.isEmpty && values.count % channels.count == 0 && pointCount <= 0xFF_FFFF && (extendedData?.count ?? 0) <= 0xFFFF)
        var out = Self.magic + Self.version
        let bitmap = channels.reduce(UInt16(0)) { $0 | (0x8000 >> UInt16($1.channel.rawValue)) }
        out += [UInt8(bitmap >> 8), UInt8(bitmap & 0xFF)]
        for d in channels {
            var preamble: UInt8 = 0
            if d.scale != nil { preamble |= Preamble.scale }
            if d.minimum != nil { preamble |= Preamble.minimum }
            if d.maximum != nil { preamble |= Preamble.maximum }
            if d.mean != nil { preamble |= Preamble.mean }
            if d.standardDeviation != nil { preamble |= Preamble.standardDeviation }
            if d.linearComponentRemoved { preamble |= Preamble.linearComponentRemoved }
            out.append(preamble)
            if let scale = d.scale { Self.append(Int(scale.bits), unsignedWidth: 2, to: &out) }
            for v in [d.minimum, d.maximum, d.mean].compactMap({ $0 }) { Self.append(d.channel.isSigned ? v + 0x8000 : v, unsignedWidth: 2, to: &out) }
            if let sd = d.standardDeviation { Self.append(sd, unsignedWidth: 2, to: &out) }
        }
        out.append(0)  // reserved
        out.append(extendedData == nil ? 0 : 1)
        Self.append(pointCount, unsignedWidth: 3, to: &out)
        for (i, v) in values.enumerated() { Self.append(v, of: channels[i % channels.count].channel, to: &out) }
        if let extendedData {
            Self.append(extendedData.count, unsignedWidth: 2, to: &out)
            out += extendedData
        }
        return out
    }

    private static func append(_ v: Int, of channel: Channel, to out: inout [UInt8]) {
        append(channel.isSigned ? v + 0x8000 : v, unsignedWidth: channel.width, to: &out)
    }

    private static func append(_ v: Int, unsignedWidth: Int, to out: inout [UInt8]) {
        for k in stride(from: unsignedWidth - 1, through: 0, by: -1) { out.append(UInt8(truncatingIfNeeded: v >> (8 * k))) }
    }
}

/// A preamble's scale: a 5-bit exponent E (bias 16) and an 11-bit fraction F, the value
/// (1 + F/2048) · 2^(E − 16).
public struct ISOScale: Equatable, Sendable {
    public let bits: UInt16

    public init(bits: UInt16) { self.bits = bits }

    /// The nearest scale to `value`; nil outside what the bits hold, 2^−16 to 65,520.
    public init?(_ value: Double) {
        guard value.isFinite, value >= 1.0 / 65_536, value <= 65_520 else { return nil }
        var exponent = Int(value.exponent) + 16
        var fraction = Int(((value.significand - 1) * 2048).rounded())
        if fraction == 2048 { fraction = 0; exponent += 1 }
        bits = UInt16(min(max(exponent, 0), 31)) << 11 | UInt16(fraction)
    }

    public var value: Double { (1 + Double(bits & 0x7FF) / 2048) * Double(sign: .plus, exponent: Int(bits >> 11) - 16, significand: 1) }
}
