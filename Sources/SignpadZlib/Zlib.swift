import CZlib

/// zlib's DEFLATE, for the PNG's image data.
public enum Zlib {
    /// CRC-32 as PNG chunks and gzip use it.
    public static func crc32(_ data: [UInt8]) -> UInt32 {
        data.withUnsafeBufferPointer { UInt32(CZlib.crc32(0, $0.baseAddress, uInt($0.count))) }
    }
}

/// A zlib stream (RFC 1950) at the best compression (a signature image is written once and kept
/// for years), fed piece by piece: a full-screen image is compressed a row at a time, never
/// whole in memory.
public final class Deflater {
    private let stream: UnsafeMutablePointer<z_stream>
    private var output: [UInt8] = []
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)

    public init() {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let status = signpad_deflate_init(stream, Z_BEST_COMPRESSION)
        // Only a failed allocation inside zlib makes its initialisation fail.
        precondition(status == Z_OK, "zlib could not start a stream: status \(status)")
    }

    deinit {
        deflateEnd(stream)
        stream.deallocate()
    }

    public func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        stream.pointee.next_in = UnsafeMutablePointer(mutating: bytes.baseAddress)
        stream.pointee.avail_in = uInt(bytes.count)
        while stream.pointee.avail_in > 0 { _ = deflateStep(Z_NO_FLUSH) }
    }

    /// The whole stream; the deflater is done.
    public func finish() -> [UInt8] {
        stream.pointee.next_in = nil
        stream.pointee.avail_in = 0
        while deflateStep(Z_FINISH) != Z_STREAM_END {}
        return output
    }

    private func deflateStep(_ flush: Int32) -> Int32 {
        buffer.withUnsafeMutableBufferPointer { out in
            stream.pointee.next_out = out.baseAddress
            stream.pointee.avail_out = uInt(out.count)
            let status = deflate(stream, flush)
            precondition(status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR, "zlib could not compress: status \(status)")
            output.append(contentsOf: out[0..<(out.count - Int(stream.pointee.avail_out))])
            return status
        }
    }
}
