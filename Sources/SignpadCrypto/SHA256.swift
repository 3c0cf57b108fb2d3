import CCrypto

/// SHA-256 through OpenSSL's libcrypto, which the distribution keeps patched and which the
/// signing and encryption of signatures use too.
public enum SHA256 {
    public static let byteCount = 32

    public static func digest(_ data: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: byteCount)
        var length: UInt32 = 0
        let ok = data.withUnsafeBytes { input in
            EVP_Digest(input.baseAddress, input.count, &out, &length, EVP_sha256(), nil)
        }
        // Only an allocation failure inside libcrypto makes a one-shot digest fail.
        precondition(ok == 1 && length == UInt32(byteCount), "libcrypto could not compute SHA-256")
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
}
