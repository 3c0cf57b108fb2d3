import SignpadZlib

/// A PNG writer: 8-bit RGB or RGBA, each row filtered with Sub, compressed with zlib; the chunks
/// are written here, as the metadata's iTXt chunks need.
public enum PNGEncoder {
    public enum Channels { case rgb, rgba }

    /// `pixel(x, y)` gives 0xAARRGGBB (alpha ignored for .rgb). Each of `text` becomes an iTXt
    /// chunk (UTF-8, uncompressed) with that keyword, which image tools show (`exiftool`,
    /// `identify -verbose`), so a PNG kept apart from its metadata still says what it is.
    public static func encode(width: Int, height: Int, channels: Channels, text: [(keyword: String, value: String)] = [],
                              pixel: (Int, Int) -> UInt32) -> [UInt8] {
        let bpp = channels == .rgb ? 3 : 4
        // Row by row into zlib: a full-screen image is never whole in memory, raw.
        let deflater = Deflater()
        var row = [UInt8](repeating: 0, count: width * bpp)
        var filtered = [UInt8](repeating: 0, count: width * bpp + 1)
        for y in 0..<height {
            for x in 0..<width {
                let p = pixel(x, y)
                row[x * bpp] = UInt8((p >> 16) & 0xff)
                row[x * bpp + 1] = UInt8((p >> 8) & 0xff)
                row[x * bpp + 2] = UInt8(p & 0xff)
                if bpp == 4 { row[x * bpp + 3] = UInt8(p >> 24) }
            }
            filtered[0] = 1  // filter type Sub
            for i in 0..<row.count { filtered[i + 1] = i >= bpp ? row[i] &- row[i - bpp] : row[i] }
            filtered.withUnsafeBufferPointer { deflater.append($0) }
        }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        header += [8, channels == .rgb ? 2 : 6, 0, 0, 0]
        chunk("IHDR", header, into: &png)
        for (keyword, value) in text { chunk("iTXt", internationalText(keyword: keyword, value), into: &png) }
        chunk("IDAT", deflater.finish(), into: &png)
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
        png.appendBigEndian(Zlib.crc32(typed))
    }
}

extension Array where Element == UInt8 {
    mutating func appendBigEndian(_ v: UInt32) {
        append(UInt8(v >> 24)); append(UInt8((v >> 16) & 0xff)); append(UInt8((v >> 8) & 0xff)); append(UInt8(v & 0xff))
    }
}
