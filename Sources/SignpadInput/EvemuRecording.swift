/// A malformed evemu file: which file, which line, and what was expected there.
public struct EvemuError: Error, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var message: String

    public var description: String { "\(file):\(line): \(message)" }
}

/// An `evemu-record` file: the device header and the raw events, exactly as the kernel delivered them.
public struct EvemuRecording: Equatable, Sendable {
    public var device: DeviceDescription
    public var events: [InputEvent]

    public init(device: DeviceDescription, events: [InputEvent]) {
        self.device = device
        self.events = events
    }

    /// Parses EVEMU 1.x text: header lines N: I: P: B: A: and event lines `E: sec.usec type code value`.
    public static func parse(_ text: String, file: String) throws(EvemuError) -> EvemuRecording {
        var device = DeviceDescription(name: "")
        var sawName = false
        var bitBytes: [UInt16: [UInt8]] = [:]
        var properties: [UInt8] = []
        var events: [InputEvent] = []
        var lineNumber = 0

        func fail(_ message: String) -> EvemuError { EvemuError(file: file, line: lineNumber, message: message) }

        // "\r\n" is a single Character, which a split on "\n" alone would never cut.
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            lineNumber += 1
            var line = Substring(rawLine)
            if let hash = line.firstIndex(of: "#") { line = line[..<hash] }
            line = line.drop(while: { $0 == " " || $0 == "\t" || $0 == "\r" })
            if line.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) { continue }
            guard line.count >= 2, line[line.index(after: line.startIndex)] == ":" else {
                throw fail("expected a line starting with N:, I:, P:, B:, A: or E:, got \"\(line.prefix(40))\"")
            }
            let tag = line.first!
            let rest = line.dropFirst(2)
            let fields = rest.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            // A header after events is a second recording appended to the first, or a doctored
            // file: which device the events belong to is not known, so nothing is guessed.
            if "NIPBA".contains(tag), !events.isEmpty {
                throw fail("expected the device's header (N:, I:, P:, B:, A:) before the first E: line; is a second recording appended to this one?")
            }
            switch tag {
            case "N":
                device.name = rest.trimmingSpaces()
                sawName = true
            case "I":
                guard fields.count == 4, let bus = UInt16(fields[0], radix: 16), let vendor = UInt16(fields[1], radix: 16),
                      let product = UInt16(fields[2], radix: 16), UInt16(fields[3], radix: 16) != nil else {
                    throw fail("expected I: followed by 4 hex numbers (bus vendor product version)")
                }
                device.bus = bus
                device.vendor = vendor
                device.product = product
            case "P":
                for field in fields {
                    guard let byte = UInt8(field, radix: 16) else { throw fail("expected hex property bytes after P:, got \"\(field)\"") }
                    guard properties.count < Self.maxBitmaskBytes else { throw fail("expected at most \(Self.maxBitmaskBytes) property bytes in all") }
                    properties.append(byte)
                }
            case "B":
                guard let typeField = fields.first, let type = UInt16(typeField, radix: 16) else {
                    throw fail("expected B: followed by an event type and hex bitmask bytes")
                }
                for field in fields.dropFirst() {
                    guard let byte = UInt8(field, radix: 16) else { throw fail("expected hex bitmask bytes after B: \(typeField), got \"\(field)\"") }
                    guard bitBytes[type, default: []].count < Self.maxBitmaskBytes else {
                        throw fail("expected at most \(Self.maxBitmaskBytes) bitmask bytes for B: \(typeField) in all")
                    }
                    bitBytes[type, default: []].append(byte)
                }
            case "A":
                guard fields.count == 5 || fields.count == 6, let code = UInt16(fields[0], radix: 16) else {
                    throw fail("expected A: <code hex> <min> <max> <fuzz> <flat> [<resolution>]")
                }
                let numbers = fields.dropFirst().map { Int32($0) }
                guard numbers.allSatisfy({ $0 != nil }) else { throw fail("expected decimal min max fuzz flat [resolution] after A: \(fields[0])") }
                let n = numbers.map { $0! }
                device.absInfo[code] = AbsInfo(minimum: n[0], maximum: n[1], fuzz: n[2], flat: n[3], resolution: n.count > 4 ? n[4] : 0)
            case "E":
                guard fields.count == 4 else { throw fail("expected E: <sec>.<usec> <type hex> <code hex> <value>") }
                let time = fields[0].split(separator: ".", omittingEmptySubsequences: false)
                guard time.count == 2, let sec = Int64(time[0]), let usec = Int64(time[1]),
                      (0...Self.maxSeconds).contains(sec), (0..<1_000_000).contains(usec) else {
                    throw fail("expected a timestamp <sec>.<usec> with sec from 0 to \(Self.maxSeconds) and usec below 1000000, got \"\(fields[0])\"")
                }
                guard let type = UInt16(fields[1], radix: 16) else { throw fail("expected a hex event type, got \"\(fields[1])\"") }
                guard let code = UInt16(fields[2], radix: 16) else { throw fail("expected a hex event code, got \"\(fields[2])\"") }
                guard let value = Int32(fields[3]) else { throw fail("expected a decimal event value, got \"\(fields[3])\"") }
                // The kernel's clock never goes back; a file's may (edited, or joined from two
                // recordings). Taken at the time before, a signature's times never go back either.
                let microseconds = max(sec * 1_000_000 + usec, events.last?.microseconds ?? 0)
                events.append(InputEvent(microseconds: microseconds, type: type, code: code, value: value))
            case "L", "S":
                continue  // LED and switch state: nothing signpad reads.
            default:
                throw fail("expected a line starting with N:, I:, P:, B:, A: or E:, got \"\(tag):\"")
            }
        }
        guard sawName else {
            lineNumber = max(lineNumber, 1)
            throw EvemuError(file: file, line: 1, message: "expected an N: line naming the device (is this an evemu-record file?)")
        }
        device.properties = Self.bits(properties)
        for (type, bytes) in bitBytes where type != 0 {
            device.codes[type] = Self.bits(bytes)
        }
        for code in device.absInfo.keys { device.codes[EventCode.EV_ABS, default: []].insert(code) }
        return EvemuRecording(device: device, events: events)
    }

    /// The largest timestamp whose microseconds fit the 64 bits an `InputEvent` holds them in.
    static let maxSeconds = Int64.max / 1_000_000 - 1

    /// Bytes enough for every 16-bit event code.
    static let maxBitmaskBytes = 8192

    static func bits(_ bytes: [UInt8]) -> Set<UInt16> {
        var result: Set<UInt16> = []
        for (index, byte) in bytes.enumerated() where byte != 0 {
            for bit in 0..<8 where byte & (1 << bit) != 0 { result.insert(UInt16(index * 8 + bit)) }
        }
        return result
    }
}

extension Substring {
    func trimmingSpaces() -> String {
        String(drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" || $0 == "\r" }).reversed())
    }
}
