/// Where a TPM 2.0 holds a kiosk key: a persistent handle in the owner's range, which
/// `export.signing_key` names as `tpm2:handle:0x81000100`.
public struct TPMHandle: Equatable, Hashable, Sendable, CustomStringConvertible {
    public let value: UInt32

    /// The owner's persistent handles (TPM 2.0 part 2, 7.5); the platform's begin at 0x81800000.
    public static let ownerRange: ClosedRange<UInt32> = 0x8100_0000...0x817F_FFFF
    /// What marks `export.signing_key` as a TPM's key rather than a file's path.
    public static let prefix = "tpm2:"
    /// signpad's own, away from 0x81000001 and 0x81010001, where many systems keep their storage
    /// root key and endorsement key.
    public static let standard = TPMHandle(unchecked: 0x8100_0100)

    private init(unchecked value: UInt32) { self.value = value }

    /// A handle given as hexadecimal, `0x81000100`; nil outside the owner's range.
    public init?(hex text: some StringProtocol) {
        guard text.hasPrefix("0x") || text.hasPrefix("0X"), text.count == 10,
              let value = UInt32(text.dropFirst(2), radix: 16), Self.ownerRange.contains(value) else { return nil }
        self.value = value
    }

    /// The handle `export.signing_key` names (`tpm2:handle:0x81000100`); nil for anything else.
    public init?(configured text: String) {
        let marker = Self.prefix + "handle:"
        guard text.hasPrefix(marker) else { return nil }
        self.init(hex: text.dropFirst(marker.count))
    }

    public var hex: String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// As `export.signing_key` gives it.
    public var configured: String { "\(Self.prefix)handle:\(hex)" }
    /// As OpenSSL's tpm2 provider opens it.
    var storeURI: String { "handle:\(hex)" }
    public var description: String { configured }

    /// What `export.signing_key` expects when it starts with `tpm2:` but names no handle.
    public static let expected = "tpm2:handle: and a persistent handle, 0x81000000 to 0x817fffff (for example \(standard.configured))"
}
