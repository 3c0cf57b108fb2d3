import CCrypto
import Synchronization

/// A P-256 key a TPM 2.0 holds, used through OpenSSL's tpm2 provider (Debian's tpm2-openssl).
/// The provider reaches the TPM by `TPM2OPENSSL_TCTI` (for example `device:/dev/tpmrm0`), read
/// when it loads. It is loaded into a library context of its own, so the rest of signpad's
/// OpenSSL never meets it, and reloaded once when the TPM stops answering (a restarted resource
/// manager leaves the old connection dead for good).
final class TPMKey: Sendable {
    let handle: TPMHandle
    let publicKey: PublicKey
    private let loaded: Mutex<LoadedTPMKey?>

    init(_ handle: TPMHandle) throws(CryptoError) {
        let key = try LoadedTPMKey(handle)
        self.handle = handle
        let expected = "expected an ECDSA P-256 signing key (signpad key create --tpm makes one)"
        let found: PublicKey
        do { found = try PublicKey(key.key, reading: "reading the TPM's key") } catch { throw CryptoError("reading the TPM's key", reason: "\(expected), found another kind") }
        guard found.algorithm == .ecdsaP256 else { throw CryptoError("reading the TPM's key", reason: "\(expected), found another kind") }
        publicKey = found
        loaded = Mutex(key)
        // A key that cannot sign (a storage key, such as the SRK many systems keep at 0x81000001)
        // is refused now, not at the first signature.
        let probe = SHA256.digest(Array("signpad".utf8))
        let signature: [UInt8]
        do { signature = try sign(digest: probe) } catch { throw CryptoError("trying the TPM's key", reason: "it does not sign (\(error.reason)); \(expected)") }
        guard found.verifies(digest: probe, signature: signature) else {
            throw CryptoError("trying the TPM's key", reason: "its signature does not verify with its own public key")
        }
    }

    /// Runs `body` with the loaded key, loading it anew and trying once more if it fails.
    func withKey<T: Sendable>(_ body: (LoadedTPMKey) throws(CryptoError) -> T) throws(CryptoError) -> T {
        try loaded.withLock { (current: inout LoadedTPMKey?) throws(CryptoError) -> T in
            if let key = current {
                do { return try body(key) } catch { current = nil }
            }
            let key = try LoadedTPMKey(handle)
            guard try PublicKey(key.key, reading: "reading the TPM's key") == publicKey else {
                throw CryptoError("signing with the TPM's key", reason: "the TPM now holds another key at \(handle) than at start: restart signpad")
            }
            current = key
            return try body(key)
        }
    }

    /// The ECDSA signature (DER) of a SHA-256 digest. The digest is made in software: the TPM
    /// hashes slowly, and a hash sequence left open in it takes one of its few object slots.
    func sign(digest: [UInt8]) throws(CryptoError) -> [UInt8] {
        try withKey { key throws(CryptoError) in
            guard let context = EVP_PKEY_CTX_new_from_pkey(key.context, key.key, LoadedTPMKey.properties) else { throw .openSSL("signing with the TPM's key") }
            defer { EVP_PKEY_CTX_free(context) }
            var count = 0
            guard EVP_PKEY_sign_init(context) == 1, EVP_PKEY_CTX_set_signature_md(context, EVP_sha256()) == 1,
                  EVP_PKEY_sign(context, nil, &count, digest, digest.count) == 1 else { throw .openSSL("signing with the TPM's key") }
            var signature = [UInt8](repeating: 0, count: count)
            guard EVP_PKEY_sign(context, &signature, &count, digest, digest.count) == 1 else { throw .openSSL("signing with the TPM's key") }
            return Array(signature.prefix(count))
        }
    }
}

/// The provider, its library context and the key, freed together.
final class LoadedTPMKey {
    let context: OpaquePointer
    private let providers: [OpaquePointer]
    let key: OpaquePointer

    /// Operations go to the TPM's key, digests to the default provider's software.
    static let properties = "?provider=tpm2,tpm2.digest!=yes"

    init(_ handle: TPMHandle) throws(CryptoError) {
        let doing = "loading the TPM's key"
        guard let context = OSSL_LIB_CTX_new() else { throw .openSSL(doing) }
        // The tpm2 provider first: with the default one first, its software ECDSA takes the key's public half.
        guard let tpm2 = OSSL_PROVIDER_load(context, "tpm2") else {
            let error = CryptoError.openSSL(doing)
            OSSL_LIB_CTX_free(context)
            if error.reason.contains("tpm2.so") {
                throw CryptoError(doing, reason: "OpenSSL has no tpm2 provider (\(error.reason)); install the tpm2-openssl package")
            }
            throw CryptoError(doing, reason: "OpenSSL's tpm2 provider cannot reach a TPM (\(error.reason)); expected a TPM 2.0 (/dev/tpmrm0), and TPM2OPENSSL_TCTI naming it when it is not the default")
        }
        guard let base = OSSL_PROVIDER_load(context, "default") else {
            let error = CryptoError.openSSL(doing)
            OSSL_PROVIDER_unload(tpm2)
            OSSL_LIB_CTX_free(context)
            throw error
        }
        self.context = context
        providers = [base, tpm2]
        var found: OpaquePointer?
        if let store = OSSL_STORE_open_ex(handle.storeURI, context, Self.properties, nil, nil, nil, nil, nil) {
            while found == nil, OSSL_STORE_eof(store) == 0, let info = OSSL_STORE_load(store) {
                if OSSL_STORE_INFO_get_type(info) == OSSL_STORE_INFO_PKEY { found = OSSL_STORE_INFO_get1_PKEY(info) }
                OSSL_STORE_INFO_free(info)
            }
            OSSL_STORE_close(store)
        }
        guard let found else {
            let error = CryptoError.openSSL(doing)
            for provider in providers { OSSL_PROVIDER_unload(provider) }
            OSSL_LIB_CTX_free(context)
            throw CryptoError(doing, reason: "the TPM holds no key there, or refuses it (\(error.reason)); signpad key create --tpm makes one")
        }
        ERR_clear_error()
        key = found
    }

    deinit {
        EVP_PKEY_free(key)
        for provider in providers { OSSL_PROVIDER_unload(provider) }
        OSSL_LIB_CTX_free(context)
    }
}
