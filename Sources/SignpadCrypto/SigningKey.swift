import CCrypto

/// A kiosk's signing key: Ed25519 from a file (its 32-byte seed), or ECDSA P-256 held by a TPM,
/// whose private half never leaves it.
public struct SigningKey: Sendable {
    public let publicKey: PublicKey
    private let holder: Holder

    private enum Holder: Sendable {
        case seed([UInt8])
        case tpm(TPMKey)
    }

    private init(seed: [UInt8]) throws(CryptoError) {
        guard let key = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nil, seed, seed.count) else { throw .openSSL("loading the signing key") }
        defer { EVP_PKEY_free(key) }
        publicKey = try PublicKey(key)
        holder = .seed(seed)
    }

    private init(_ key: OpaquePointer) throws(CryptoError) {
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

    /// A new Ed25519 key from the system's random source.
    public static func generate() throws(CryptoError) -> SigningKey {
        guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_ED25519, nil) else { throw .openSSL("making a signing key") }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_keygen(context, &key) == 1, let key else { throw .openSSL("making a signing key") }
        defer { EVP_PKEY_free(key) }
        return try SigningKey(key)
    }

    /// PKCS #8, PEM (`-----BEGIN PRIVATE KEY-----`), unencrypted: the file `openssl genpkey
    /// -algorithm ed25519` writes. nil for a TPM's key, which has no file.
    public var pem: [UInt8]? {
        guard case .seed(let seed) = holder, let key = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nil, seed, seed.count) else { return nil }
        defer { EVP_PKEY_free(key) }
        return writtenBytes { PEM_write_bio_PrivateKey($0, key, nil, nil, 0, nil, nil) == 1 }
    }

    public init(pem: [UInt8]) throws(CryptoError) {
        guard let loaded = try withReadBIO(pem, { PEM_read_bio_PrivateKey($0, nil, nil, nil) }) else {
            throw .openSSL("reading the signing key (expected PEM \"-----BEGIN PRIVATE KEY-----\" of an Ed25519 key)")
        }
        defer { EVP_PKEY_free(loaded) }
        guard EVP_PKEY_get_base_id(loaded) == EVP_PKEY_ED25519 else {
            throw CryptoError("reading the signing key", reason: "expected an Ed25519 key, found another kind (a P-256 key belongs in a TPM: signpad key create --tpm)")
        }
        try self.init(loaded)
    }

    /// The signature of `message` by the key's algorithm: Ed25519's 64 bytes (deterministic), or
    /// ECDSA's DER over its SHA-256.
    public func sign(_ message: [UInt8]) throws(CryptoError) -> [UInt8] {
        switch holder {
        case .tpm(let key):
            return try key.sign(digest: SHA256.digest(message))
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
        }
    }
}
