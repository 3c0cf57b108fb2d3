import CCrypto

/// A kiosk's signing key: from a file, Ed25519 (its 32-byte seed) or ECDSA P-256 (its PKCS #8
/// DER); or ECDSA P-256 held by a TPM, whose private half never leaves it. PDF readers accept
/// P-256 and not Ed25519, so a kiosk that signs documents has a P-256 key.
public struct SigningKey: Sendable {
    public let publicKey: PublicKey
    private let holder: Holder

    private enum Holder: Sendable {
        case seed([UInt8])
        case p256([UInt8])
        case tpm(TPMKey)
    }

    public enum FileAlgorithm: String, CaseIterable, Sendable {
        case ed25519
        case p256
    }

    private init(publicKey: PublicKey, holder: Holder) {
        self.publicKey = publicKey
        self.holder = holder
    }

    private init(seed: [UInt8]) throws(CryptoError) {
        guard let key = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nil, seed, seed.count) else { throw .openSSL("loading the signing key") }
        defer { EVP_PKEY_free(key) }
        publicKey = try PublicKey(key)
        holder = .seed(seed)
    }

    private init(_ key: OpaquePointer) throws(CryptoError) {
        if EVP_PKEY_get_base_id(key) == EVP_PKEY_EC {
            let publicKey = try PublicKey(key, reading: "reading the signing key")
            guard let info = EVP_PKEY2PKCS8(key) else { throw .openSSL("reading the signing key") }
            defer { PKCS8_PRIV_KEY_INFO_free(info) }
            var out: UnsafeMutablePointer<UInt8>?
            let count = i2d_PKCS8_PRIV_KEY_INFO(info, &out)
            guard count > 0, let out else { throw .openSSL("reading the signing key") }
            defer { CRYPTO_free(out, #fileID, #line) }
            self.init(publicKey: publicKey, holder: .p256(Array(UnsafeBufferPointer(start: out, count: Int(count)))))
            return
        }
        var seed = [UInt8](repeating: 0, count: 32), count = 32
        guard EVP_PKEY_get_raw_private_key(key, &seed, &count) == 1, count == 32 else { throw .openSSL("reading the signing key") }
        try self.init(seed: seed)
    }

    /// The key a TPM holds at `handle`, through OpenSSL's tpm2 provider.
    public init(tpm handle: TPMHandle) throws(CryptoError) {
        let key = try TPMKey(handle)
        publicKey = key.publicKey
        holder = .tpm(key)
    }

    /// A new key from the system's random source.
    public static func generate(_ algorithm: FileAlgorithm = .ed25519) throws(CryptoError) -> SigningKey {
        var key: OpaquePointer?
        switch algorithm {
        case .ed25519:
            guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_ED25519, nil) else { throw .openSSL("making a signing key") }
            defer { EVP_PKEY_CTX_free(context) }
            guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_keygen(context, &key) == 1 else { throw .openSSL("making a signing key") }
        case .p256:
            key = signpad_ec_generate("P-256")
        }
        guard let key else { throw .openSSL("making a signing key") }
        defer { EVP_PKEY_free(key) }
        return try SigningKey(key)
    }

    /// PKCS #8, PEM (`-----BEGIN PRIVATE KEY-----`), unencrypted: the file `openssl genpkey
    /// -algorithm ed25519` (or `EC -pkeyopt ec_paramgen_curve:P-256`) writes. nil for a TPM's
    /// key, which has no file.
    public var pem: [UInt8]? {
        if case .tpm = holder { return nil }
        return try? withPrivateKey { key, _, _ in writtenBytes { PEM_write_bio_PrivateKey($0, key, nil, nil, 0, nil, nil) == 1 } }
    }

    public init(pem: [UInt8]) throws(CryptoError) {
        guard let loaded = try withReadBIO(pem, { PEM_read_bio_PrivateKey($0, nil, nil, nil) }) else {
            throw .openSSL("reading the signing key (expected PEM \"-----BEGIN PRIVATE KEY-----\" of an Ed25519 or ECDSA P-256 key)")
        }
        defer { EVP_PKEY_free(loaded) }
        guard EVP_PKEY_get_base_id(loaded) == EVP_PKEY_ED25519 || EVP_PKEY_get_base_id(loaded) == EVP_PKEY_EC else {
            throw CryptoError("reading the signing key", reason: "expected an Ed25519 or ECDSA P-256 key, found another kind")
        }
        try self.init(loaded)
    }

    /// The signature of `message` by the key's algorithm: Ed25519's 64 bytes (deterministic), or
    /// ECDSA's DER over its SHA-256.
    public func sign(_ message: [UInt8]) throws(CryptoError) -> [UInt8] {
        switch holder {
        case .tpm(let key):
            return try key.sign(digest: SHA256.digest(message))
        case .p256:
            return try withPrivateKey { key, _, _ throws(CryptoError) in
                guard let context = EVP_MD_CTX_new() else { throw .openSSL("signing") }
                defer { EVP_MD_CTX_free(context) }
                var count = 0
                guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1,
                      EVP_DigestSign(context, nil, &count, message, message.count) == 1 else { throw .openSSL("signing") }
                var signature = [UInt8](repeating: 0, count: count)
                guard EVP_DigestSign(context, &signature, &count, message, message.count) == 1 else { throw .openSSL("signing") }
                return Array(signature.prefix(count))
            }
        case .seed:
            return try withPrivateKey { key, _, _ throws(CryptoError) in
                guard let context = EVP_MD_CTX_new() else { throw .openSSL("signing") }
                defer { EVP_MD_CTX_free(context) }
                var signature = [UInt8](repeating: 0, count: 64), count = signature.count
                guard EVP_DigestSignInit(context, nil, nil, nil, key) == 1,
                      EVP_DigestSign(context, &signature, &count, message, message.count) == 1, count == 64 else { throw .openSSL("signing") }
                return signature
            }
        }
    }

    /// Runs `body` with the private key as OpenSSL holds it, its library context and the
    /// properties that pick its provider (nil, nil for a key from a file).
    func withPrivateKey<T: Sendable>(_ body: (OpaquePointer, OpaquePointer?, String?) throws(CryptoError) -> T) throws(CryptoError) -> T {
        switch holder {
        case .tpm(let key):
            return try key.withKey { loaded throws(CryptoError) in try body(loaded.key, loaded.context, LoadedTPMKey.properties) }
        case .seed(let seed):
            guard let key = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nil, seed, seed.count) else { throw .openSSL("loading the signing key") }
            defer { EVP_PKEY_free(key) }
            return try body(key, nil, nil)
        case .p256(let der):
            let loaded: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
                var start = buffer.baseAddress
                return d2i_AutoPrivateKey(nil, &start, buffer.count)
            }
            guard let loaded else { throw .openSSL("loading the signing key") }
            defer { EVP_PKEY_free(loaded) }
            return try body(loaded, nil, nil)
        }
    }
}
