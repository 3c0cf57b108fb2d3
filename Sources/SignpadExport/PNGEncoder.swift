/// A PNG writer in plain Swift: 8-bit RGB or RGBA, each row filtered with Sub, compressed with
/// DEFLATE using fixed Huffman codes and run-length matches (signatures are mostly flat runs).
public enum PNGEncoder {
    public enum Channels { case rgb, rgba }

    /// `pixel(x, y)` gives 0xAARRGGBB (alpha ignored for .rgb). Each of `text` becomes an iTXt
    /// chunk (UTF-8, uncompressed) with that keyword, which image tools show (`exiftool`,
    /// `identify -verbose`), so a PNG kept apart from its metadata still says what it is.
    public static func encode(width: Int, height: Int, channels: Channels, text: [(keyword: String, value: String)] = [],
                              pixel: (Int, Int) -> UInt32) -> [UInt8] {
        let bpp = channels == .rgb ? 3 : 4
        var raw: [UInt8] = []
        raw.reserveCapacity((width * bpp + 1) * height)
        var row = [UInt8](repeating: 0, count: width * bpp)
        for y in 0..<height {
            for x in 0..<width {
                let p = pixel(x, y)
                row[x * bpp] = UInt8((p >> 16) & 0xff)
                row[x * bpp + 1] = UInt8((p >> 8) & 0xff)
                row[x * bpp + 2] = UInt8(p & 0xff)
                if bpp == 4 { row[x * bpp + 3] = UInt8(p >> 24) }
            }
            raw.append(1)  // filter type Sub
            for i in 0..<row.count { raw.append(i >= bpp ? row[i] &- row[i - bpp] : row[i]) }
        }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        header += [8, channels == .rgb ? 2 : 6, 0, 0, 0]
        chunk("IHDR", header, into: &png)
        for (keyword, value) in text { chunk("iTXt", internationalText(keyword: keyword, value), into: &png) }
        chunk("IDAT", zlib(raw), into: &png)
        chunk("IEND", [], into: &png)
        return png
    }

    /// Keyword, NUL, compression flag and method 0, an empty language tag and translated keyword
    /// (each NUL-ended), then the text. Keywords are signpad's own: 1–79 Latin-1 characters.
    static func internationalText(keyword: String, _ value: String) -> [UInt8] {
        Array(keyword.utf8) + [0, 0, 0, 0, 0] + Array(FileText.withoutControlCharacters(value).utf8)
    }

    static func chunk(_ type: String, _ data: [UInt8], into png: inout [UInt8]) {
        png.appendBigEndian(UInt32(data.count))
        let typed = Array(type.utf8) + data
        png += typed
        png.appendBigEndian(CRC32.checksum(typed))
    }

    static func zlib(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        out += Deflate.fixedHuffman(data)
        out.appendBigEndian(Adler32.checksum(data))
        return out
    }
}

enum CRC32 {
    static let table: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB88320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func checksum(_ data: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xffffffff
        for byte in data { c = table[Int((c ^ UInt32(byte)) & 0xff)] ^ (c >> 8) }
        return c ^ 0xffffffff
    }
}

enum Adler32 {
    static func checksum(_ data: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for chunk in stride(from: 0, to: data.count, by: 5552) {
            for byte in data[chunk..<min(chunk + 5552, data.count)] {
                a += UInt32(byte)
                b += a
            }
            a %= 65521
            b %= 65521
        }
        return b << 16 | a
    }
}

/// DEFLATE (RFC 1951), one final block with the fixed Huffman codes. Matches are runs of the byte
/// `bpp`-agnostic distance 1 (repeats), which is where a filtered signature image is redundant.
enum Deflate {
    struct BitWriter {
        var bytes: [UInt8] = []
        var current: UInt32 = 0
        var count: UInt32 = 0

        mutating func write(_ value: UInt32, bits: UInt32) {
            current |= value << count
            count += bits
            while count >= 8 {
                bytes.append(UInt8(current & 0xff))
                current >>= 8
                count -= 8
            }
        }

        /// Huffman codes are sent most significant bit first.
        mutating func writeCode(_ code: UInt32, bits: UInt32) {
            var reversed: UInt32 = 0
            for i in 0..<bits where code & (1 << i) != 0 { reversed |= 1 << (bits - 1 - i) }
            write(reversed, bits: bits)
        }

        mutating func finish() -> [UInt8] {
            if count > 0 { bytes.append(UInt8(current & 0xff)) }
            return bytes
        }
    }

    static func literal(_ value: Int, _ w: inout BitWriter) {
        switch value {
        case 0...143: w.writeCode(UInt32(0x30 + value), bits: 8)
        case 144...255: w.writeCode(UInt32(0x190 + value - 144), bits: 9)
        case 256...279: w.writeCode(UInt32(value - 256), bits: 7)
        default: w.writeCode(UInt32(0xC0 + value - 280), bits: 8)
        }
    }

    static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]

    static func fixedHuffman(_ data: [UInt8]) -> [UInt8] {
        var w = BitWriter()
        w.write(1, bits: 1)  // final block
        w.write(1, bits: 2)  // fixed Huffman
        var i = 0
        while i < data.count {
            var run = 0
            if i > 0 {
                while i + run < data.count && run < 258 && data[i + run] == data[i - 1] { run += 1 }
            }
            if run >= 3 {
                var code = lengthBase.count - 1
                while lengthBase[code] > run { code -= 1 }
                literal(257 + code, &w)
                w.write(UInt32(run - lengthBase[code]), bits: UInt32(lengthExtra[code]))
                w.writeCode(0, bits: 5)  // distance code 0: distance 1
                i += run
            } else {
                literal(Int(data[i]), &w)
                i += 1
            }
        }
        literal(256, &w)
        return w.finish()
    }
}

extension Array where Element == UInt8 {
    mutating func appendBigEndian(_ v: UInt32) {
        append(UInt8(v >> 24)); append(UInt8((v >> 16) & 0xff)); append(UInt8((v >> 8) & 0xff)); append(UInt8(v & 0xff))
    }
}
