import CCrypto

/// The back office's X.509 certificate, to which biometric data is encrypted (CMS EnvelopedData,
/// RFC 5652): only the holder of its private key can read what is sealed to it.
public struct RecipientCertificate: Equatable, Sendable {
    /// The certificate, DER.
    public let der: [UInt8]
    /// Its subject, as `openssl x509 -noout -subject -nameopt RFC2253` prints it.
    public let subject: String
    /// The SHA-256 of `der` in hexadecimal (`openssl x509 -noout -fingerprint -sha256` prints it
    /// in upper case with colons).
    public let fingerprint: String
    /// Seconds since 1970 after which it is no longer valid.
    public let notAfter: Double

    /// Reads a PEM certificate and checks that it can be used now: valid at `now` (seconds since
    /// 1970), an RSA or EC key, and a key usage (when it has one) that allows encryption to it.
    public init(pem: [UInt8], now: Double) throws(CryptoError) {
        guard let certificate = try withReadBIO(pem, { PEM_read_bio_X509($0, nil, nil, nil) }) else {
            throw .openSSL("reading the certificate (expected PEM \"-----BEGIN CERTIFICATE-----\")")
        }
        defer { X509_free(certificate) }
        var out: UnsafeMutablePointer<UInt8>?
        let count = i2d_X509(certificate, &out)
        guard count > 0, let out else { throw .openSSL("encoding the certificate") }
        der = Array(UnsafeBufferPointer(start: out, count: Int(count)))
        CRYPTO_free(out, #fileID, #line)
        fingerprint = SHA256.hex(der)
        subject = String(decoding: writtenBytes { X509_NAME_print_ex($0, X509_get_subject_name(certificate), 0, signpad_name_format_rfc2253()) >= 0 } ?? [], as: UTF8.self)
        notAfter = Self.seconds(X509_get0_notAfter(certificate)) ?? 0
        var at = time_t(now)
        if X509_cmp_time(X509_get0_notAfter(certificate), &at) < 0 {
            throw CryptoError("checking the certificate \(subject)", reason: "it expired on \(Self.text(X509_get0_notAfter(certificate))); ask the back office for a new one")
        }
        if X509_cmp_time(X509_get0_notBefore(certificate), &at) > 0 {
            throw CryptoError("checking the certificate \(subject)", reason: "it is not valid before \(Self.text(X509_get0_notBefore(certificate))); check the kiosk's clock")
        }
        guard let key = X509_get0_pubkey(certificate) else { throw .openSSL("reading the certificate's key") }
        let usage = X509_get_key_usage(certificate)
        let limited = X509_get_extension_flags(certificate) & UInt32(EXFLAG_KUSAGE) != 0
        switch EVP_PKEY_get_base_id(key) {
        case EVP_PKEY_RSA:
            if limited && usage & UInt32(KU_KEY_ENCIPHERMENT) == 0 {
                throw CryptoError("checking the certificate \(subject)", reason: "its key usage does not allow keyEncipherment, which encryption to an RSA key needs")
            }
        case EVP_PKEY_EC:
            if limited && usage & UInt32(KU_KEY_AGREEMENT) == 0 {
                throw CryptoError("checking the certificate \(subject)", reason: "its key usage does not allow keyAgreement, which encryption to an EC key needs")
            }
        default:
            throw CryptoError("checking the certificate \(subject)", reason: "expected an RSA or EC key, which CMS can encrypt to")
        }
        ERR_clear_error()
    }

    private static func seconds(_ time: UnsafePointer<ASN1_TIME>?) -> Double? {
        var tm = tm()
        guard let time, ASN1_TIME_to_tm(time, &tm) == 1 else { return nil }
        return Double(timegm(&tm))
    }

    private static func text(_ time: UnsafePointer<ASN1_TIME>?) -> String {
        String(decoding: writtenBytes { ASN1_TIME_print($0, time) == 1 } ?? [], as: UTF8.self)
    }

    /// `content` as CMS EnvelopedData (DER) to this certificate, its content encrypted with
    /// AES-256-CBC under a random key: `openssl cms -decrypt -inform DER -recip CERT -inkey KEY`
    /// opens it. Each call gives other bytes (the key is new each time).
    public func envelope(_ content: [UInt8]) throws(CryptoError) -> [UInt8] {
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var start = buffer.baseAddress
            return d2i_X509(nil, &start, buffer.count)
        }
        guard let certificate = parsed else { throw .openSSL("loading the recipient certificate") }
        defer { X509_free(certificate) }
        guard let recipients = signpad_certificates_one(certificate) else { throw .openSSL("encrypting") }
        defer { signpad_certificates_free(recipients) }
        let sealed = try withReadBIO(content) { input throws(CryptoError) -> [UInt8]? in
            guard let cms = CMS_encrypt(recipients, input, EVP_aes_256_cbc(), UInt32(CMS_BINARY)) else { throw .openSSL("encrypting to \(subject)") }
            defer { CMS_ContentInfo_free(cms) }
            return writtenBytes { i2d_CMS_bio($0, cms) == 1 }
        }
        guard let bytes = sealed, !bytes.isEmpty else { throw .openSSL("encoding the envelope") }
        return bytes
    }
}
