import CCrypto

/// A kiosk's public key: what a back office pins to check its signatures. Ed25519 for a key
/// in a file; ECDSA P-256 for one a TPM holds, as TPMs have no Ed25519.
public struct PublicKey: Equatable, Hashable, Sendable {
    public enum Algorithm: String, Sendable {
        /// Pure Ed25519 over the message (`openssl pkeyutl -verify -rawin`).
        case ed25519 = "Ed25519"
        /// ECDSA over the message's SHA-256, signature DER (`openssl dgst -sha256 -verify`).
        case ecdsaP256 = "ECDSA-P256-SHA256"
    }

    public let algorithm: Algorithm
    /// SubjectPublicKeyInfo, DER: what `openssl pkey -pubin -outform DER` writes.
    public let der: [UInt8]

    /// The public half of a loaded key of either kind; other kinds are refused.
    init(_ key: OpaquePointer, reading what: String = "reading a public key") throws(CryptoError) {
        if EVP_PKEY_get_base_id(key) == EVP_PKEY_ED25519 {
            algorithm = .ed25519
        } else if EVP_PKEY_get_base_id(key) == EVP_PKEY_EC, Self.curve(of: key) == "prime256v1" {
            algorithm = .ecdsaP256
        } else {
            throw CryptoError(what, reason: "expected an Ed25519 or ECDSA P-256 key (signpad key show prints one), found another kind")
        }
        var out: UnsafeMutablePointer<UInt8>?
        let count = i2d_PUBKEY(key, &out)
        guard count > 0, let out else { throw .openSSL(what) }
        defer { CRYPTO_free(out, #fileID, #line) }
        der = Array(UnsafeBufferPointer(start: out, count: Int(count)))
    }

    private static func curve(of key: OpaquePointer) -> String {
        var name = [CChar](repeating: 0, count: 64), length = 0
        guard EVP_PKEY_get_group_name(key, &name, name.count, &length) == 1 else { return "" }
        return String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private func withKey<T>(_ body: (OpaquePointer) throws(CryptoError) -> T) throws(CryptoError) -> T {
        let loaded: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var start = buffer.baseAddress
            return d2i_PUBKEY(nil, &start, buffer.count)
        }
        guard let loaded else { throw .openSSL("loading a public key") }
        defer { EVP_PKEY_free(loaded) }
        return try body(loaded)
    }

    /// SubjectPublicKeyInfo, PEM (`-----BEGIN PUBLIC KEY-----`).
    public var pem: String {
        let bytes = (try? withKey { key throws(CryptoError) in writtenBytes { PEM_write_bio_PUBKEY($0, key) == 1 } }) ?? nil
        return String(decoding: bytes ?? [], as: UTF8.self)
    }

    /// The SHA-256 of `der`, in hexadecimal: what `openssl pkey -pubin -in KEY.pem -outform DER | sha256sum` prints.
    public var fingerprint: String { SHA256.hex(der) }

    /// Whether `signature` is this key's signature of exactly `message`, by its algorithm.
    public func verifies(_ signature: [UInt8], of message: [UInt8]) -> Bool {
        (try? withKey { key throws(CryptoError) -> Bool in
            guard let context = EVP_MD_CTX_new() else { return false }
            defer { EVP_MD_CTX_free(context) }
            let digest = algorithm == .ed25519 ? nil : EVP_sha256()
            guard EVP_DigestVerifyInit(context, nil, digest, nil, key) == 1 else { return false }
            let ok = EVP_DigestVerify(context, signature, signature.count, message, message.count) == 1
            ERR_clear_error()
            return ok
        }) ?? false
    }

    /// Whether `signature` is this ECDSA key's signature of a SHA-256 `digest` made elsewhere.
    func verifies(digest: [UInt8], signature: [UInt8]) -> Bool {
        (try? withKey { key throws(CryptoError) -> Bool in
            guard let context = EVP_PKEY_CTX_new(key, nil) else { return false }
            defer { EVP_PKEY_CTX_free(context) }
            let ok = EVP_PKEY_verify_init(context) == 1 && EVP_PKEY_CTX_set_signature_md(context, EVP_sha256()) == 1
                && EVP_PKEY_verify(context, signature, signature.count, digest, digest.count) == 1
            ERR_clear_error()
            return ok
        }) ?? false
    }

    /// Every public key in a PEM text: `PUBLIC KEY` blocks, and the key each `CERTIFICATE`
    /// certifies (a kiosk's document certificate), one after another (a back office's pinned
    /// keys in one file). A CA's certificate that issued another in the file is passed over,
    /// wherever it stands: the chain of a kiosk's certificate, whose keys sign certificates,
    /// not manifests. A self-signed kiosk certificate that calls itself a CA (as `openssl req
    /// -x509` makes one) issued none other and counts. Keys of other kinds than signpad's are
    /// refused.
    public static func all(inPEM text: [UInt8]) throws(CryptoError) -> [PublicKey] {
        var keys: [PublicKey] = []
        var certificates: [(OpaquePointer, Int)] = []
        defer { for (certificate, _) in certificates { X509_free(certificate) } }
        var blocks = 0
        for block in pemBlocks(text) {
            guard let bytes = block.bytes else {
                throw CryptoError("reading public keys", reason: "block \(blocks + 1) (\(block.label)) has no END line")
            }
            switch block.label {
            case "PUBLIC KEY":
                blocks += 1
                let key = try withReadBIO(bytes) { PEM_read_bio_PUBKEY($0, nil, nil, nil) }
                guard let key else { throw CryptoError("reading public keys", reason: "public key \(blocks) is damaged") }
                defer { EVP_PKEY_free(key) }
                keys.append(try PublicKey(key, reading: "reading public key \(blocks)"))
            case "CERTIFICATE":
                blocks += 1
                let certificate = try withReadBIO(bytes) { PEM_read_bio_X509($0, nil, nil, nil) }
                guard let certificate else { throw CryptoError("reading public keys", reason: "certificate \(blocks) is damaged") }
                certificates.append((certificate, blocks))
            default:
                continue
            }
        }
        for (certificate, block) in certificates {
            let issuedAnother = X509_check_ca(certificate) != 0
                && certificates.contains { $0.0 != certificate && X509_check_issued(certificate, $0.0) == X509_V_OK }
            guard !issuedAnother else { continue }
            guard let key = X509_get_pubkey(certificate) else { throw .openSSL("reading certificate \(block)'s key") }
            defer { EVP_PKEY_free(key) }
            keys.append(try PublicKey(key, reading: "reading certificate \(block)'s key"))
        }
        ERR_clear_error()
        guard !keys.isEmpty else {
            throw CryptoError("reading public keys", reason: "expected PEM blocks \"-----BEGIN PUBLIC KEY-----\" (signpad key show) or \"-----BEGIN CERTIFICATE-----\", found none")
        }
        return keys
    }

    /// The PEM blocks of a text, each with its label and its bytes from BEGIN to END (nil for
    /// a block that never ends, after which nothing more is read).
    private static func pemBlocks(_ text: [UInt8]) -> [(label: String, bytes: [UInt8]?)] {
        let begin = Array("-----BEGIN ".utf8), dashes = Array("-----".utf8)
        var found: [(label: String, bytes: [UInt8]?)] = []
        var i = 0
        while i < text.count {
            guard text[i...].starts(with: begin) else { i += 1; continue }
            let labelStart = i + begin.count
            guard let labelEnd = (labelStart..<text.count).first(where: { text[$0...].starts(with: dashes) }) else {
                found.append(("?", nil))
                break
            }
            let label = Array(text[labelStart..<labelEnd])
            let end = Array("-----END ".utf8) + label + dashes
            guard let close = (labelEnd..<text.count).first(where: { text[$0...].starts(with: end) }) else {
                found.append((String(decoding: label, as: UTF8.self), nil))
                break
            }
            found.append((String(decoding: label, as: UTF8.self), Array(text[i..<(close + end.count)]) + [10]))
            i = close + end.count
        }
        return found
    }
}
