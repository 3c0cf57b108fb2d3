import CZlib

/// zlib's DEFLATE, for the PNG's image data.
public enum Zlib {
    /// A zlib stream (RFC 1950) of `data` at the best compression: a signature image is written
    /// once and kept for years.
    public static func compress(_ data: [UInt8]) -> [UInt8] {
        var size = compressBound(uLong(data.count))
        var out = [UInt8](repeating: 0, count: Int(size))
        let status = data.withUnsafeBufferPointer { input in
            compress2(&out, &size, input.baseAddress, uLong(input.count), Z_BEST_COMPRESSION)
        }
        // compressBound is enough by zlib's contract; only a failed allocation inside zlib is left.
        precondition(status == Z_OK, "zlib could not compress \(data.count) bytes: status \(status)")
        out.removeSubrange(Int(size)...)
        return out
    }

    /// CRC-32 as PNG chunks and gzip use it.
    public static func crc32(_ data: [UInt8]) -> UInt32 {
        data.withUnsafeBufferPointer { UInt32(CZlib.crc32(0, $0.baseAddress, uInt($0.count))) }
    }
}
