/// Objects as bytes. Strings are written in hex, which no byte can break; names escape every
/// byte outside the regular printable ones.
enum PDFWriter {
    static func number(_ v: Double) -> PDFObject {
        v == v.rounded() && abs(v) < 1e12 ? .integer(Int(v)) : .real(v)
    }

    static func write(_ object: PDFObject, to out: inout [UInt8]) {
        switch object {
        case .null: out += Array("null".utf8)
        case .boolean(let v): out += Array((v ? "true" : "false").utf8)
        case .integer(let v): out += Array(String(v).utf8)
        case .real(let v): out += Array(real(v).utf8)
        case .string(let bytes):
            out.append(UInt8(ascii: "<"))
            for b in bytes { out.append(hexDigit(b >> 4)); out.append(hexDigit(b & 15)) }
            out.append(UInt8(ascii: ">"))
        case .name(let name): write(name, to: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(32) }
                write(item, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .dictionary(let dictionary): write(dictionary, to: &out)
        case .reference(let r): out += Array("\(r.number) \(r.generation) R".utf8)
        case .stream(var dictionary, let data):
            dictionary["Length"] = .integer(data.count)
            write(dictionary, to: &out)
            out += Array("\nstream\n".utf8)
            out += data
            out += Array("\nendstream".utf8)
        }
    }

    static func write(_ dictionary: PDFDictionary, to out: inout [UInt8]) {
        out += Array("<<".utf8)
        for (key, value) in dictionary.entries {
            write(key, to: &out)
            out.append(32)
            write(value, to: &out)
        }
        out += Array(">>".utf8)
    }

    static func write(_ name: PDFName, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "/"))
        for b in name.bytes {
            if b > 0x20, b < 0x7F, PDFParser.isRegular(b), b != UInt8(ascii: "#") { out.append(b) } else {
                out.append(UInt8(ascii: "#")); out.append(hexDigit(b >> 4)); out.append(hexDigit(b & 15))
            }
        }
    }

    /// At most four decimals, no exponent: what §7.3.3 allows a real to be.
    static func real(_ v: Double) -> String {
        // Beyond ±1e12 four decimals would not fit an Int; no page has such a number.
        guard v.isFinite, abs(v) < 1e12 else { return v > 0 ? "1000000000000" : v < 0 ? "-1000000000000" : "0" }
        let scaled = (v * 10_000).rounded()
        let negative = scaled < 0
        let magnitude = Int(abs(scaled))
        var text = String(magnitude / 10_000)
        let fraction = magnitude % 10_000
        if fraction != 0 {
            var digits = String(fraction)
            digits = String(repeating: "0", count: 4 - digits.count) + digits
            while digits.hasSuffix("0") { digits.removeLast() }
            text += "." + digits
        }
        return (negative && magnitude != 0 ? "-" : "") + text
    }

    static func hexDigit(_ v: UInt8) -> UInt8 { v < 10 ? 48 + v : 55 + v }
}
