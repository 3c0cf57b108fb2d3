/// Reads and validates an ISO/IEC 19794-7:2007 record (`ISOSignatureRecord`), in the full
/// format or the compact one, naming the byte and the rule a broken one breaks.
public enum ISORecordReader {
    public static func read(_ bytes: [UInt8]) throws(ISORecordError) -> ISOSignatureRecord {
        var r = Cursor(bytes: bytes)
        guard try r.take(4, "the format identifier \"SDI\\0\"") == ISOSignatureRecord.magic else {
            throw ISORecordError(offset: 0, rule: "expected the format identifier \"SDI\\0\" (53 44 49 00)")
        }
        guard try r.take(4, "the version \" 10\\0\"") == ISOSignatureRecord.version else {
            throw ISORecordError(offset: 4, rule: "expected the version \" 10\\0\" (20 31 30 00), the 2007 full format")
        }
        let bitmap = try r.unsigned(2, "the channel inclusion bitmap")
        let included = ISOSignatureRecord.Channel.allCases.filter { bitmap & (0x8000 >> $0.rawValue) != 0 }
        guard included.contains(.x), included.contains(.y) else {
            throw ISORecordError(offset: 8, rule: "the channel inclusion bitmap must include X and Y, found \(included.map(\.name))")
        }
        guard included.contains(.t) || included.contains(.dt) else {
            throw ISORecordError(offset: 8, rule: "the channel inclusion bitmap must include T or DT, found \(included.map(\.name))")
        }
        typealias P = ISOSignatureRecord.Preamble
        var channels: [ISOSignatureRecord.ChannelDescription] = []
        for channel in included {
            let at = r.offset
            let preamble = try r.unsigned(1, "\(channel.name)'s preamble")
            guard preamble & Int(P.reserved) == 0 else { throw ISORecordError(offset: at, rule: "\(channel.name)'s preamble sets its reserved bit (the lowest)") }
            guard preamble & Int(P.constant) == 0 else {
                throw ISORecordError(offset: at, rule: "\(channel.name)'s preamble says the channel is constant, which this reader does not take")
            }
            var d = ISOSignatureRecord.ChannelDescription(channel, linearComponentRemoved: preamble & Int(P.linearComponentRemoved) != 0)
            if preamble & Int(P.scale) != 0 { d.scale = ISOScale(bits: UInt16(try r.unsigned(2, "\(channel.name)'s scale"))) }
            if preamble & Int(P.minimum) != 0 { d.minimum = try r.described(channel, "\(channel.name)'s minimum") }
            if preamble & Int(P.maximum) != 0 { d.maximum = try r.described(channel, "\(channel.name)'s maximum") }
            if let lo = d.minimum, let hi = d.maximum, lo > hi {
                throw ISORecordError(offset: r.offset - 2, rule: "\(channel.name)'s maximum \(hi) is below its minimum \(lo)")
            }
            if preamble & Int(P.mean) != 0 { d.mean = try r.described(channel, "\(channel.name)'s mean") }
            if preamble & Int(P.standardDeviation) != 0 { d.standardDeviation = try r.unsigned(2, "\(channel.name)'s standard deviation") }
            channels.append(d)
        }
        let reservedAt = r.offset
        guard try r.unsigned(1, "the reserved byte") == 0 else { throw ISORecordError(offset: reservedAt, rule: "the reserved byte after the preambles must be 0") }
        let extendedAt = r.offset
        let extended = try r.unsigned(1, "the extended data flag")
        guard extended <= 1 else { throw ISORecordError(offset: extendedAt, rule: "the extended data flag must be 0 or 1, found \(extended)") }
        let count = try r.unsigned(3, "the number of sample points")
        let width = channels.reduce(0) { $0 + $1.channel.width }
        let needed = count * width + (extended == 1 ? 2 : 0)
        guard r.remaining >= needed else {
            throw ISORecordError(offset: r.offset, rule: "\(count) sample points of \(width) bytes need \(count * width) bytes, found \(r.remaining)")
        }
        var values: [Int] = []
        values.reserveCapacity(count * channels.count)
        var lastTime: Int?
        for point in 0..<count {
            for d in channels {
                let at = r.offset
                let v = try r.value(of: d.channel, "point \(point)'s \(d.channel.name)")
                if !d.channel.range.contains(v) || (d.minimum.map { v < $0 } ?? false) || (d.maximum.map { v > $0 } ?? false) {
                    let range = "\(d.minimum ?? d.channel.range.lowerBound)…\(d.maximum ?? d.channel.range.upperBound)"
                    throw ISORecordError(offset: at, rule: "point \(point)'s \(d.channel.name) \(v) is outside \(range)")
                }
                if d.channel == .t {
                    if let lastTime, v < lastTime { throw ISORecordError(offset: at, rule: "point \(point)'s T \(v) is before the point before it (\(lastTime))") }
                    lastTime = v
                }
                values.append(v)
            }
        }
        var extendedData: [UInt8]?
        if extended == 1 {
            let length = try r.unsigned(2, "the extended data's length")
            extendedData = try r.take(length, "\(length) bytes of extended data")
        }
        guard r.remaining == 0 else {
            throw ISORecordError(offset: r.offset, rule: "the record ends here, yet \(r.remaining == 1 ? "1 byte follows" : "\(r.remaining) bytes follow")")
        }
        return ISOSignatureRecord(channels: channels, values: values, extendedData: extendedData)
    }

    /// Reads a record in the 2007 compact format, for smart cards: sample points alone, one
    /// byte a channel, in the full format's channel order. It names neither its channels nor
    /// their scales (a card keeps them in its biometric information template), so the reader is
    /// told the channels. The signed channels (X, Y, VX, VY, AX, AY, TX, TY) are offset from
    /// their lower bound, -128 being 0x00, as the standard's encoding writes a bounded integer
    /// and as the full format's X and Y are in Wacom's record (0 is 0x8000 there).
    public static func readCompact(_ bytes: [UInt8], channels: [ISOSignatureRecord.Channel]) throws(ISORecordError) -> ISOSignatureRecord {
        // Points can spell anything, but these eight bytes are what every full record starts with.
        guard !bytes.starts(with: ISOSignatureRecord.magic + ISOSignatureRecord.version) else {
            throw ISORecordError(offset: 0, rule: "the record starts \"SDI\\0 10\\0\", as a full-format record does: read it without --compact")
        }
        let channels = Set(channels).sorted { $0.rawValue < $1.rawValue }
        guard channels.contains(.x), channels.contains(.y) else {
            throw ISORecordError(offset: 0, rule: "a compact record's channels must include X and Y, given \(channels.map(\.name))")
        }
        guard !bytes.isEmpty else { throw ISORecordError(offset: 0, rule: "the record is empty: a compact record holds at least one point") }
        guard bytes.count % channels.count == 0 else {
            throw ISORecordError(offset: bytes.count - bytes.count % channels.count,
                                 rule: "points of \(channels.count) bytes (\(channels.map(\.name).joined(separator: " "))) leave \(bytes.count % channels.count) byte(s) over at the end")
        }
        var values: [Int] = []
        values.reserveCapacity(bytes.count)
        for (at, byte) in bytes.enumerated() {
            let channel = channels[at % channels.count]
            let v = channel.isSigned ? Int(byte) - 0x80 : Int(byte)
            guard channel.compactRange.contains(v) else {
                throw ISORecordError(offset: at, rule: "point \(at / channels.count)'s \(channel.name) \(v) is outside \(channel.compactRange.lowerBound)…\(channel.compactRange.upperBound)")
            }
            values.append(v)
        }
        return ISOSignatureRecord(channels: channels.map { ISOSignatureRecord.ChannelDescription($0) }, values: values)
    }

    private struct Cursor {
        let bytes: [UInt8]
        var offset = 0

        var remaining: Int { bytes.count - offset }

        mutating func take(_ n: Int, _ what: String) throws(ISORecordError) -> [UInt8] {
            guard remaining >= n else { throw ISORecordError(offset: offset, rule: "expected \(what), but the record ends (\(bytes.count) bytes)") }
            defer { offset += n }
            return Array(bytes[offset..<offset + n])
        }

        mutating func unsigned(_ n: Int, _ what: String) throws(ISORecordError) -> Int {
            try take(n, what).reduce(0) { $0 << 8 | Int($1) }
        }

        /// A description's value: two bytes whatever the channel, offset for a signed one.
        mutating func described(_ channel: ISOSignatureRecord.Channel, _ what: String) throws(ISORecordError) -> Int {
            let v = try unsigned(2, what)
            return channel.isSigned ? v - 0x8000 : v
        }

        /// A point's value, as wide as its channel.
        mutating func value(of channel: ISOSignatureRecord.Channel, _ what: String) throws(ISORecordError) -> Int {
            let v = try unsigned(channel.width, what)
            return channel.isSigned ? v - 0x8000 : v
        }
    }
}

/// A record that breaks the format: where, and what was expected there.
public struct ISORecordError: Error, Equatable, CustomStringConvertible {
    /// From the record's first byte, which is 0.
    public var offset: Int
    public var rule: String

    public init(offset: Int, rule: String) {
        self.offset = offset
        self.rule = rule
    }

    public var description: String { "byte \(offset): \(rule)" }
}
