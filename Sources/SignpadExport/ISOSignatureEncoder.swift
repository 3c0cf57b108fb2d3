import FoundationEssentials
import SignpadVocabulary

/// A signature as an ISO/IEC 19794-7 record: X, Y, T, F where every sample has pressure, and S.
///
/// - X and Y are screen pixels in steps of 1/2^n pixel, the finest that holds the screen in a
///   16-bit value (1/16 px on a 1920-pixel screen, 1/8 at 3840). Their scale is units per
///   millimetre of the input device's surface, from the resolution its axes give; where it gives
///   none, of the screen, where the panel's size is known (EDID); else they carry none.
/// - T counts from the first sample at the finest of 10 000, 1 000, 100, 10 and 1 per second
///   that holds the whole signature in 16 bits: Wacom's 0.1 ms up to 6.5 s, 1 ms up to 65 s.
/// - F is pressure 0…65535 (signpad keeps it as 0…1). A signature with a finger's stroke
///   beside a pen's has samples without pressure, and the record then has no F.
/// - TX and TY are a pen's tilt in hundredths of a degree (scale 100 per degree), where every
///   sample has it, as F is.
/// - S is 1 on every sample; after each stroke one more point at its last sample (its X, Y and
///   T) with S 0 marks the lift, so a reader finds the strokes.
/// - The extended data says, in ASCII, what the units are and where the scale came from.
public enum ISOSignatureEncoder {
    public static func record(_ record: SignatureRecord) -> ISOSignatureRecord {
        let samples = record.signature.strokes.joined()
        let first = record.firstSampleTime
        let duration = samples.map(\.time).max().map { $0 - first } ?? 0
        let timeScale = [10_000.0, 1_000, 100, 10, 1].first { (duration * $0).rounded() <= 65_535 } ?? 1
        let shift = pixelShift(max(record.screenWidth, record.screenHeight))
        let unitsPerPixel = Double(sign: .plus, exponent: shift, significand: 1)
        let withPressure = !samples.isEmpty && samples.allSatisfy { $0.pressure != nil }
        let withTilt = !samples.isEmpty && samples.allSatisfy { $0.tilt != nil }

        typealias D = ISOSignatureRecord.ChannelDescription
        let density = record.inputDensity?.density ?? record.pixelDensity
        var channels = [
            D(.x, scale: density.flatMap { ISOScale($0.x * unitsPerPixel) }, minimum: 0, maximum: units(Double(record.screenWidth), unitsPerPixel) - 1),
            D(.y, scale: density.flatMap { ISOScale($0.y * unitsPerPixel) }, minimum: 0, maximum: units(Double(record.screenHeight), unitsPerPixel) - 1),
            D(.t, scale: ISOScale(timeScale)!),
        ]
        if withPressure { channels.append(D(.f, minimum: 0, maximum: 65_535)) }
        channels.append(D(.s))
        if withTilt { channels += [D(.tx, scale: ISOScale(100)!, minimum: -9000, maximum: 9000), D(.ty, scale: ISOScale(100)!, minimum: -9000, maximum: 9000)] }

        var values: [Int] = [], lastTime = 0
        values.reserveCapacity((samples.count + record.signature.strokes.count) * channels.count)
        func point(_ sample: Sample, down: Bool) {
            values.append(min(units(sample.point.x, unitsPerPixel), channels[0].maximum!))
            values.append(min(units(sample.point.y, unitsPerPixel), channels[1].maximum!))
            // Never before the point before it, which a reader would refuse: a spooled record may
            // hold times out of order.
            lastTime = max(lastTime, min(Int(((sample.time - first) * timeScale).rounded()), 65_535))
            values.append(lastTime)
            if withPressure { values.append(Int((min(max(sample.pressure ?? 0, 0), 1) * 65_535).rounded())) }
            values.append(down ? 1 : 0)
            if withTilt, let tilt = sample.tilt { values += [Int(tilt.x), Int(tilt.y)] }
        }
        for stroke in record.signature.strokes {
            for sample in stroke { point(sample, down: true) }
            if let last = stroke.last { point(last, down: false) }
        }

        let step = shift >= 0 ? "1/\(1 << shift)" : "\(1 << -shift)"
        var note = "signpad: X and Y in \(step) screen pixel, screen \(record.screenWidth)x\(record.screenHeight)"
        if let input = record.inputDensity {
            note += ", \(String(printf: "%.2fx%.2f", input.density.x, input.density.y)) px/mm of the surface of \(input.device), from its resolution"
        } else if let density {
            note += ", \(String(printf: "%.2fx%.2f", density.x, density.y)) px/mm from the panel's EDID (the screen's resolution: the input device gives none)"
        } else {
            note += ", its size unknown, so X and Y have no scale"
        }
        note += "; T from the first sample; S 0 marks each lift"
        if !withPressure && samples.contains(where: { $0.pressure != nil }) { note += "; no F, as some strokes were made without pressure" }
        if withTilt { note += "; TX and TY the pen's tilt in 1/100 degree, as its device reports it" }
        if !withTilt && samples.contains(where: { $0.tilt != nil }) { note += "; no TX or TY, as some strokes were made without tilt" }
        return ISOSignatureRecord(channels: channels, values: values, extendedData: Array(note.utf8))
    }

    /// n in 1/2^n px: the finest step at which a coordinate up to `size` pixels fits 0…32767.
    static func pixelShift(_ size: Int) -> Int {
        var shift = 4
        while shift > -8 && Double(max(size, 1)) * Double(sign: .plus, exponent: shift, significand: 1) > 32_767 { shift -= 1 }
        return shift
    }

    private static func units(_ pixels: Double, _ unitsPerPixel: Double) -> Int {
        Int(min(max((pixels * unitsPerPixel).rounded(), 0), 32_767))
    }
}
