import FoundationEssentials

/// What `signpad iso inspect` says of a file: the record it holds (bare, or in a CBEFF XML
/// record), decoded and validated, as text or JSON.
public struct ISORecordReport {
    public var record: ISOSignatureRecord
    /// Whether the record came in a CBEFF XML record.
    public var wrapped: Bool
    /// Whether it is in the compact format.
    public var compact: Bool

    /// Reads a file's bytes: a full-format record, or with `compact` (its channels) a
    /// compact one. A sealed file (CMS, DER) is named as such: it needs the back office's key
    /// first; a compact record has no header to tell it from one, so it is taken as given.
    public init(_ bytes: [UInt8], compact channels: [ISOSignatureRecord.Channel]? = nil) throws(ISOInspectError) {
        compact = channels != nil
        // A compact record may start 0x30 too; one DER element filling the file is an envelope.
        let envelope = bytes.first == 0x30 && (channels == nil ? !bytes.starts(with: ISOSignatureRecord.magic) : Self.isOneDERElement(bytes))
        if envelope { throw .sealed }
        wrapped = CBEFFRecord.looksLikeXML(bytes)
        var block = bytes
        if wrapped {
            do { block = try CBEFFRecord.block(in: bytes) } catch { throw .wrapper(error) }
        }
        do throws(ISORecordError) {
            if let channels { record = try ISORecordReader.readCompact(block, channels: channels) } else { record = try ISORecordReader.read(block) }
        } catch {
            throw .record(error, inCBEFF: wrapped)
        }
    }

    /// Whether `bytes` are one DER element with a long-form length, exactly: what a sealed
    /// file (CMS) is, and a compact record of points almost never is.
    static func isOneDERElement(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 4, bytes[1] & 0x80 != 0 else { return false }
        let count = Int(bytes[1] & 0x7F)
        guard (1...4).contains(count), bytes.count >= 2 + count else { return false }
        let length = bytes[2..<(2 + count)].reduce(0) { $0 << 8 | Int($1) }
        return 2 + count + length == bytes.count
    }

    /// Strokes: runs of points with S 1 (each record signpad writes ends a stroke with an S 0
    /// point); without S, one.
    public var strokes: Int {
        guard record.channels.contains(where: { $0.channel == .s }) else { return record.pointCount > 0 ? 1 : 0 }
        var count = 0, down = false
        for point in 0..<record.pointCount {
            let now = record.value(.s, point: point) == 1
            if now && !down { count += 1 }
            down = now
        }
        return count
    }

    /// Seconds from the first point to the last, by T's scale; nil without T or its scale.
    public var duration: Double? {
        guard let t = record.channels.first(where: { $0.channel == .t }), let scale = t.scale?.value, record.pointCount > 0,
              let first = record.value(.t, point: 0), let last = record.value(.t, point: record.pointCount - 1) else { return nil }
        return Double(last - first) / scale
    }

    public var extendedText: String? { record.extendedData.map { String(decoding: $0, as: UTF8.self) } }

    public var text: String {
        var out = "ISO/IEC 19794-7:2007 \(compact ? "compact" : "full") format\(wrapped ? ", in a CBEFF XML record" : "")\n"
        out += "channels: \(record.channels.map(\.channel.name).joined(separator: " "))\n"
        for d in record.channels {
            var parts: [String] = []
            if let scale = d.scale { parts.append("scale \(Self.number(scale.value)) per \(Self.unit(d.channel))") }
            if let lo = d.minimum { parts.append("min \(lo)") }
            if let hi = d.maximum { parts.append("max \(hi)") }
            if let mean = d.mean { parts.append("mean \(mean)") }
            if let sd = d.standardDeviation { parts.append("sd \(sd)") }
            if d.linearComponentRemoved { parts.append("linear component removed") }
            out += "  \(d.channel.name): \(parts.isEmpty ? "no description" : parts.joined(separator: ", "))\n"
        }
        out += "points: \(record.pointCount)\nstrokes: \(strokes)\n"
        if let duration { out += "duration: \(Self.number(duration)) s\n" }
        if let extendedText { out += "extended data: \(extendedText.debugDescription)\n" }
        out += record.channels.map(\.channel.name).joined(separator: "\t") + "\n"
        for point in 0..<record.pointCount {
            out += record.channels.indices.map { String(record.values[point * record.channels.count + $0]) }.joined(separator: "\t") + "\n"
        }
        return out
    }

    public var json: [UInt8] {
        let n = record.channels.count
        let object = Report(
            format: "ISO/IEC 19794-7:2007 \(compact ? "compact" : "full")", cbeff: wrapped,
            channels: record.channels.map {
                .init(name: $0.channel.name, scale: $0.scale?.value, unit: $0.scale == nil ? nil : Self.unit($0.channel), minimum: $0.minimum,
                      maximum: $0.maximum, mean: $0.mean, standardDeviation: $0.standardDeviation, linearComponentRemoved: $0.linearComponentRemoved)
            },
            pointCount: record.pointCount, strokes: strokes, durationSeconds: duration, extendedData: extendedText,
            points: (0..<record.pointCount).map { Array(record.values[$0 * n..<($0 + 1) * n]) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Array((try? encoder.encode(object)) ?? Data()) + [UInt8(ascii: "\n")]
    }

    private struct Report: Encodable {
        struct Channel: Encodable {
            var name: String
            var scale: Double?
            var unit: String?
            var minimum: Int?
            var maximum: Int?
            var mean: Int?
            var standardDeviation: Int?
            var linearComponentRemoved: Bool
        }
        var format: String
        var cbeff: Bool
        var channels: [Channel]
        var pointCount: Int
        var strokes: Int
        var durationSeconds: Double?
        var extendedData: String?
        var points: [[Int]]
    }

    private static func unit(_ channel: ISOSignatureRecord.Channel) -> String {
        switch channel {
        case .x, .y, .z: "mm"
        case .t, .dt: "s"
        case .vx, .vy: "mm/s"
        case .ax, .ay: "mm/s²"
        default: "unit"
        }
    }

    private static func number(_ v: Double) -> String { String(printf: "%g", v) }
}

/// Why a file is not a record `inspect` can read.
public enum ISOInspectError: Error, Equatable, CustomStringConvertible {
    case sealed
    case wrapper(CBEFFError)
    case record(ISORecordError, inCBEFF: Bool)

    public var description: String {
        switch self {
        case .sealed:
            "sealed (CMS): decrypt it with the back office's key first, e.g. openssl cms -decrypt -inform DER -in FILE -inkey office.key -out record"
        case .wrapper(let error): "\(error)"
        case .record(let error, let inCBEFF): inCBEFF ? "the CBEFF record's BDB, \(error)" : "\(error)"
        }
    }
}
