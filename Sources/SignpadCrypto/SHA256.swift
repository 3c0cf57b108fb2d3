import CCrypto

/// SHA-256 through OpenSSL's libcrypto, which the distribution keeps patched and which the
/// signing and encryption of signatures use too.
public enum SHA256 {
    public static let byteCount = 32

    public static func digest(_ data: [UInt8]) -> [UInt8] { data.withUnsafeBytes { digest($0) } }

    /// The digest of memory in place (a page's pixels, say), not copied into bytes first.
    public static func digest(_ input: UnsafeRawBufferPointer) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: byteCount)
        var length: UInt32 = 0
        let ok = EVP_Digest(input.baseAddress, input.count, &out, &length, EVP_sha256(), nil)
        // Only an allocation failure inside libcrypto makes a one-shot digest fail.
        precondition(ok == 1 && length == UInt32(byteCount), "libcrypto could not compute SHA-256")
        return out
    }

    /// The digest of `parts` one after another, none copied.
    public static func digest(parts: [ArraySlice<UInt8>]) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { preconditionFailure("libcrypto could not compute SHA-256") }
        defer { EVP_MD_CTX_free(context) }
        var ok = EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1
        for part in parts { ok = ok && part.withUnsafeBytes { EVP_DigestUpdate(context, $0.baseAddress, $0.count) } == 1 }
        var out = [UInt8](repeating: 0, count: byteCount)
        var length: UInt32 = 0
        ok = ok && EVP_DigestFinal_ex(context, &out, &length) == 1
        precondition(ok && length == UInt32(byteCount), "libcrypto could not compute SHA-256")
        return out
    }

    /// Lower-case hexadecimal, as `sha256sum` prints it.
    public static func hex(_ data: [UInt8]) -> String { Hex.string(digest(data)) }
}

public enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    public static func string(_ bytes: [UInt8]) -> String {
        var text = [UInt8]()
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xf)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes of even-length hexadecimal text (either case); nil for anything else.
    public static func bytes(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        func value(_ d: UInt8) -> UInt8? {
            switch d {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(digits.count / 2)
        for i in stride(from: 0, to: digits.count, by: 2) {
            guard let high = value(digits[i]), let low = value(digits[i + 1]) else { return nil }
            out.append(high << 4 | low)
        }
        return out
    }
}
