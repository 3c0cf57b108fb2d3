import CCrypto

/// What names the kiosk's key to others: a self-signed X.509 certificate, or a certificate
/// request for the organisation's CA. Both have the kiosk's name as subject and the key usage
/// of a signer whose signatures stand as its own (digitalSignature, nonRepudiation).
public enum KeyCertificate {
    static let keyUsage = "critical,digitalSignature,nonRepudiation"

    /// A certificate for `key`, signed by itself, valid from `now` for `days` days; PEM.
    public static func selfSigned(_ key: SigningKey, subject commonName: String, days: Int, now: Double) throws(CryptoError) -> String {
        let doing = "making the certificate"
        guard let certificate = X509_new() else { throw .openSSL(doing) }
        defer { X509_free(certificate) }
        let name = try subjectName(commonName)
        defer { X509_NAME_free(name) }
        var serial = [UInt8](repeating: 0, count: 16)
        guard RAND_bytes(&serial, Int32(serial.count)) == 1 else { throw .openSSL(doing) }
        serial[0] &= 0x7F // positive, as RFC 5280 asks
        guard let number = BN_bin2bn(serial, Int32(serial.count), nil) else { throw .openSSL(doing) }
        defer { BN_free(number) }
        guard X509_set_version(certificate, 2) == 1, let asn1Serial = BN_to_ASN1_INTEGER(number, nil) else { throw .openSSL(doing) }
        defer { ASN1_INTEGER_free(asn1Serial) }
        let start = time_t(now)
        guard X509_set_serialNumber(certificate, asn1Serial) == 1,
              ASN1_TIME_set(X509_getm_notBefore(certificate), start) != nil,
              ASN1_TIME_set(X509_getm_notAfter(certificate), start + time_t(days) * 86_400) != nil,
              X509_set_subject_name(certificate, name) == 1, X509_set_issuer_name(certificate, name) == 1 else { throw .openSSL(doing) }
        return try key.withPrivateKey { pkey, context, properties throws(CryptoError) in
            guard X509_set_pubkey(certificate, pkey) == 1,
                  signpad_add_extension(certificate, nil, NID_basic_constraints, "critical,CA:FALSE") == 1,
                  signpad_add_extension(certificate, nil, NID_key_usage, keyUsage) == 1,
                  signpad_add_extension(certificate, nil, NID_subject_key_identifier, "hash") == 1 else { throw .openSSL(doing) }
            try sign(with: key, pkey, context, properties) { X509_sign_ctx(certificate, $0) > 0 }
            guard let pem = writtenBytes({ PEM_write_bio_X509($0, certificate) == 1 }) else { throw .openSSL(doing) }
            return String(decoding: pem, as: UTF8.self)
        }
    }

    /// A PKCS #10 request for `key`, asking for the same subject and key usage; PEM.
    public static func request(_ key: SigningKey, subject commonName: String) throws(CryptoError) -> String {
        let doing = "making the certificate request"
        guard let request = X509_REQ_new() else { throw .openSSL(doing) }
        defer { X509_REQ_free(request) }
        let name = try subjectName(commonName)
        defer { X509_NAME_free(name) }
        guard X509_REQ_set_version(request, 0) == 1, X509_REQ_set_subject_name(request, name) == 1 else { throw .openSSL(doing) }
        return try key.withPrivateKey { pkey, context, properties throws(CryptoError) in
            guard X509_REQ_set_pubkey(request, pkey) == 1,
                  signpad_add_extension(nil, request, NID_key_usage, keyUsage) == 1 else { throw .openSSL(doing) }
            try sign(with: key, pkey, context, properties) { X509_REQ_sign_ctx(request, $0) > 0 }
            guard let pem = writtenBytes({ PEM_write_bio_X509_REQ($0, request) == 1 }) else { throw .openSSL(doing) }
            return String(decoding: pem, as: UTF8.self)
        }
    }

    private static func subjectName(_ commonName: String) throws(CryptoError) -> OpaquePointer {
        // RFC 5280's upper bound for a common name, in characters.
        guard !commonName.isEmpty, commonName.unicodeScalars.count <= 64 else {
            throw CryptoError("naming the kiosk", reason: "a certificate's common name takes 1 to 64 characters; the kiosk's name (export.kiosk_name, else the host name) has \(commonName.unicodeScalars.count): give a shorter export.kiosk_name")
        }
        guard let name = X509_NAME_new() else { throw .openSSL("naming the kiosk") }
        guard X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8, commonName, -1, -1, 0) == 1 else {
            X509_NAME_free(name)
            throw .openSSL("naming the kiosk")
        }
        return name
    }

    /// Signs with SHA-256 (Ed25519 takes no digest of its own choosing) through `sign`.
    private static func sign(with key: SigningKey, _ pkey: OpaquePointer, _ context: OpaquePointer?, _ properties: String?,
                             _ sign: (OpaquePointer) -> Bool) throws(CryptoError) {
        guard let digestContext = EVP_MD_CTX_new() else { throw .openSSL("signing the certificate") }
        defer { EVP_MD_CTX_free(digestContext) }
        let digest = key.publicKey.algorithm == .ed25519 ? nil : "SHA256"
        guard EVP_DigestSignInit_ex(digestContext, nil, digest, context, properties, pkey, nil) == 1, sign(digestContext) else {
            throw .openSSL("signing the certificate")
        }
    }
}
