import CCrypto

/// What libcrypto refused, with what signpad was doing and OpenSSL's own reason.
public struct CryptoError: Error, CustomStringConvertible, Equatable, Sendable {
    /// What was being done ("reading the public key").
    public var operation: String
    /// OpenSSL's error queue (emptied), or signpad's own reason.
    public var reason: String

    public var description: String { "\(operation): \(reason)" }

    public init(_ operation: String, reason: String) {
        self.operation = operation
        self.reason = reason
    }

    /// The error with OpenSSL's queued reasons, which it takes (so none is left for the next call).
    static func openSSL(_ operation: String) -> CryptoError {
        var reasons: [String] = []
        var data: UnsafePointer<CChar>?, flags: Int32 = 0
        while case let code = ERR_get_error_all(nil, nil, nil, &data, &flags), code != 0 {
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            var reason = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            // A provider's own words (the TPM's "tcti:IO failure") come as the error's data.
            if flags & ERR_TXT_STRING != 0, let data, data.pointee != 0 { reason += " (\(String(cString: data)))" }
            reasons.append(reason)
        }
        return CryptoError(operation, reason: reasons.isEmpty ? "libcrypto gave no reason" : reasons.joined(separator: "; "))
    }
}

/// A memory BIO's contents as bytes.
func bioBytes(_ bio: OpaquePointer) -> [UInt8] {
    var data: UnsafePointer<UInt8>?
    let count = signpad_bio_contents(bio, &data)
    guard let data, count > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: count))
}

/// Runs `body` with a read-only memory BIO over `bytes`.
func withReadBIO<T>(_ bytes: [UInt8], _ body: (OpaquePointer) throws(CryptoError) -> T) throws(CryptoError) -> T {
    let result: Result<T, CryptoError> = bytes.withUnsafeBytes { buffer in
        guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return .failure(.openSSL("reading")) }
        defer { BIO_free(bio) }
        do throws(CryptoError) { return .success(try body(bio)) } catch { return .failure(error) }
    }
    return try result.get()
}

/// Runs `write` on an empty memory BIO and returns what it wrote, or nil when `write` fails.
func writtenBytes(_ write: (OpaquePointer) -> Bool) -> [UInt8]? {
    guard let bio = BIO_new(BIO_s_mem()) else { return nil }
    defer { BIO_free(bio) }
    guard write(bio) else { return nil }
    return bioBytes(bio)
}
