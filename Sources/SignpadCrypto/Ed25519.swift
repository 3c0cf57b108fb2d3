import CCrypto

/// An Ed25519 public key: what a back office pins to check a kiosk's signatures.
public struct PublicKey: Equatable, Hashable, Sendable {
    /// The 32 raw bytes.
    public let raw: [UInt8]

    public init(raw: [UInt8]) throws(CryptoError) {
        guard raw.count == 32 else { throw CryptoError("reading an Ed25519 public key", reason: "expected 32 bytes, got \(raw.count)") }
        self.raw = raw
    }

    fileprivate init(_ key: OpaquePointer) throws(CryptoError) {
        var raw = [UInt8](repeating: 0, count: 32), count = 32
        guard EVP_PKEY_get_raw_public_key(key, &raw, &count) == 1, count == 32 else { throw .openSSL("reading an Ed25519 public key") }
        self.raw = raw
    }

    private func withKey<T>(_ body: (OpaquePointer) throws(CryptoError) -> T) throws(CryptoError) -> T {
        guard let key = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nil, raw, raw.count) else { throw .openSSL("loading an Ed25519 public key") }
        defer { EVP_PKEY_free(key) }
        return try body(key)
    }

    /// SubjectPublicKeyInfo, DER: what `openssl pkey -pubin -outform DER` writes.
    public var der: [UInt8] {
        // Encoding 32 known bytes fails only when libcrypto cannot allocate.
        (try? withKey { key throws(CryptoError) in
            var out: UnsafeMutablePointer<UInt8>?
            let count = i2d_PUBKEY(key, &out)
            guard count > 0, let out else { throw .openSSL("encoding the public key") }
            defer { CRYPTO_free(out, #fileID, #line) }
            return Array(UnsafeBufferPointer(start: out, count: Int(count)))
        }) ?? []
    }

    /// SubjectPublicKeyInfo, PEM (`-----BEGIN PUBLIC KEY-----`).
    public var pem: String {
        let bytes = (try? withKey { key throws(CryptoError) in writtenBytes { PEM_write_bio_PUBKEY($0, key) == 1 } }) ?? nil
        return String(decoding: bytes ?? [], as: UTF8.self)
    }

    /// The SHA-256 of `der`, in hexadecimal: what `openssl pkey -pubin -in KEY.pem -outform DER | sha256sum` prints.
    public var fingerprint: String { SHA256.hex(der) }

    /// Whether `signature` is this key's Ed25519 signature of exactly `message`.
    public func verifies(_ signature: [UInt8], of message: [UInt8]) -> Bool {
        guard signature.count == Ed25519.signatureBytes else { return false }
        return (try? withKey { key throws(CryptoError) -> Bool in
            guard let context = EVP_MD_CTX_new() else { return false }
            defer { EVP_MD_CTX_free(context) }
            guard EVP_DigestVerifyInit(context, nil, nil, nil, key) == 1 else { return false }
            let ok = EVP_DigestVerify(context, signature, signature.count, message, message.count) == 1
            ERR_clear_error()
            return ok
        }) ?? false
    }

    /// Every public key in a PEM text (several `PUBLIC KEY` blocks may follow one another: a
    /// back office's pinned keys in one file). Keys of other kinds than Ed25519 are refused.
    public static func all(inPEM text: [UInt8]) throws(CryptoError) -> [PublicKey] {
        try withReadBIO(text) { bio throws(CryptoError) in
            var keys: [PublicKey] = []
            while let key = PEM_read_bio_PUBKEY(bio, nil, nil, nil) {
                defer { EVP_PKEY_free(key) }
                guard EVP_PKEY_get_base_id(key) == EVP_PKEY_ED25519 else {
                    throw CryptoError("reading public key \(keys.count + 1)", reason: "expected an Ed25519 key (signpad key show prints one), found another kind")
                }
                keys.append(try PublicKey(key))
            }
            ERR_clear_error()
            // Reading stops at the first block that does not parse, or at the end.
            let marker = Array("-----BEGIN PUBLIC KEY-----".utf8)
            let blocks = text.indices.filter { text[$0...].starts(with: marker) }.count
            if keys.isEmpty || keys.count < blocks {
                throw CryptoError("reading public keys", reason: keys.isEmpty ? "expected PEM blocks \"-----BEGIN PUBLIC KEY-----\", found none"
                                                                             : "public key \(keys.count + 1) is damaged")
            }
            return keys
        }
    }
}

/// A kiosk's Ed25519 signing key, held as its 32-byte seed.
public struct SigningKey: Sendable {
    private let seed: [UInt8]
    public let publicKey: PublicKey

    private init(seed: [UInt8]) throws(CryptoError) {
        self.seed = seed
        guard let key = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nil, seed, seed.count) else { throw .openSSL("loading the signing key") }
        defer { EVP_PKEY_free(key) }
        publicKey = try PublicKey(key)
    }

    private init(_ key: OpaquePointer) throws(CryptoError) {
        var seed = [UInt8](repeating: 0, count: 32), count = 32
        guard EVP_PKEY_get_raw_private_key(key, &seed, &count) == 1, count == 32 else { throw .openSSL("reading the signing key") }
        try self.init(seed: seed)
    }

    /// A new key from the system's random source.
    public static func generate() throws(CryptoError) -> SigningKey {
        guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_ED25519, nil) else { throw .openSSL("making a signing key") }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_keygen(context, &key) == 1, let key else { throw .openSSL("making a signing key") }
        defer { EVP_PKEY_free(key) }
        return try SigningKey(key)
    }

    /// PKCS #8, PEM (`-----BEGIN PRIVATE KEY-----`), unencrypted: the file `openssl genpkey -algorithm ed25519` writes.
    public var pem: [UInt8] {
        guard let key = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nil, seed, seed.count) else { return [] }
        defer { EVP_PKEY_free(key) }
        return writtenBytes { PEM_write_bio_PrivateKey($0, key, nil, nil, 0, nil, nil) == 1 } ?? []
    }

    public init(pem: [UInt8]) throws(CryptoError) {
        guard let loaded = try withReadBIO(pem, { PEM_read_bio_PrivateKey($0, nil, nil, nil) }) else {
            throw .openSSL("reading the signing key (expected PEM \"-----BEGIN PRIVATE KEY-----\" of an Ed25519 key)")
        }
        defer { EVP_PKEY_free(loaded) }
        guard EVP_PKEY_get_base_id(loaded) == EVP_PKEY_ED25519 else {
            throw CryptoError("reading the signing key", reason: "expected an Ed25519 key, found another kind")
        }
        try self.init(loaded)
    }

    /// The 64-byte Ed25519 signature of `message` (deterministic: the same message, the same signature).
    public func sign(_ message: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard let key = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nil, seed, seed.count) else { throw .openSSL("loading the signing key") }
        defer { EVP_PKEY_free(key) }
        guard let context = EVP_MD_CTX_new() else { throw .openSSL("signing") }
        defer { EVP_MD_CTX_free(context) }
        var signature = [UInt8](repeating: 0, count: Ed25519.signatureBytes), count = signature.count
        guard EVP_DigestSignInit(context, nil, nil, nil, key) == 1,
              EVP_DigestSign(context, &signature, &count, message, message.count) == 1, count == Ed25519.signatureBytes else { throw .openSSL("signing") }
        return signature
    }
}

public enum Ed25519 {
    public static let signatureBytes = 64
}
