import CZlib

/// Why a zlib stream could not be read back.
public enum InflateError: Error, Equatable, Sendable {
    /// zlib's own reason, such as "invalid stored block lengths".
    case corrupt(String)
    /// The stream ended before its end.
    case truncated
    /// It holds more than the reader allows: a small stream can stand for gigabytes.
    case tooLarge(limit: Int)
}

extension Zlib {
    /// The bytes a zlib stream (RFC 1950) holds, at most `limit` of them.
    public static func inflate(_ bytes: ArraySlice<UInt8>, limit: Int) throws(InflateError) -> [UInt8] {
        var stream = z_stream()
        guard signpad_inflate_init(&stream) == Z_OK else { throw .corrupt("zlib could not start") }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        let overLimit = Int32.min
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let status: Int32 = bytes.withUnsafeBufferPointer { input in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.avail_in = uInt(input.count)
            while true {
                let step: Int32 = buffer.withUnsafeMutableBufferPointer { out in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(out.count)
                    let status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    output.append(contentsOf: out[0..<(out.count - Int(stream.avail_out))])
                    return status
                }
                if output.count > limit { return overLimit }
                if step == Z_STREAM_END { return step }
                if step == Z_BUF_ERROR, stream.avail_in == 0 { return step }
                if step != Z_OK { return step }
            }
        }
        switch status {
        case Z_STREAM_END: return output
        case overLimit: throw .tooLarge(limit: limit)
        case Z_BUF_ERROR: throw .truncated
        default: throw .corrupt(stream.msg.map { String(cString: $0) } ?? "status \(status)")
        }
    }
}
