import CCrypto

/// An RFC 3161 time-stamp request over a SHA-256 digest, as a kiosk sends it to a time-stamp
/// authority (TSA): version 1, the imprint, a random 64-bit nonce, and the authority's
/// certificate asked for, so the token can be verified with only the authority's CA.
public struct TimeStampRequest: Sendable {
    /// DER, the body of the `application/timestamp-query` POST.
    public let der: [UInt8]
    public let digest: [UInt8]

    public init(sha256 digest: [UInt8]) throws(CryptoError) {
        guard digest.count == 32 else { throw CryptoError("making a time-stamp request", reason: "expected a SHA-256 digest of 32 bytes, got \(digest.count)") }
        self.digest = digest
        guard let request = TS_REQ_new() else { throw .openSSL("making a time-stamp request") }
        defer { TS_REQ_free(request) }
        guard TS_REQ_set_version(request, 1) == 1, let imprint = TS_MSG_IMPRINT_new() else { throw .openSSL("making a time-stamp request") }
        defer { TS_MSG_IMPRINT_free(imprint) }
        guard let algorithm = X509_ALGOR_new() else { throw .openSSL("making a time-stamp request") }
        defer { X509_ALGOR_free(algorithm) }
        X509_ALGOR_set_md(algorithm, EVP_sha256())
        guard TS_MSG_IMPRINT_set_algo(imprint, algorithm) == 1,
              digest.withUnsafeBufferPointer({ TS_MSG_IMPRINT_set_msg(imprint, UnsafeMutablePointer(mutating: $0.baseAddress), Int32($0.count)) }) == 1,
              TS_REQ_set_msg_imprint(request, imprint) == 1 else { throw .openSSL("making a time-stamp request") }
        guard let random = BN_new() else { throw .openSSL("making a time-stamp request's nonce") }
        defer { BN_free(random) }
        guard BN_rand(random, 64, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY) == 1, let nonce = BN_to_ASN1_INTEGER(random, nil) else {
            throw .openSSL("making a time-stamp request's nonce")
        }
        defer { ASN1_INTEGER_free(nonce) }
        guard TS_REQ_set_nonce(request, nonce) == 1, TS_REQ_set_cert_req(request, 1) == 1 else { throw .openSSL("making a time-stamp request") }
        var out: UnsafeMutablePointer<UInt8>?
        let count = i2d_TS_REQ(request, &out)
        guard count > 0, let out else { throw .openSSL("encoding a time-stamp request") }
        der = Array(UnsafeBufferPointer(start: out, count: Int(count)))
        CRYPTO_free(out, #fileID, #line)
    }

    /// The authority's reply (`application/timestamp-reply`, DER) checked against this request:
    /// granted, a token over this digest with SHA-256, with this nonce. Its signature is not
    /// checked here (the kiosk need not hold the authority's CA): `TimeStampReply.verify` does that.
    public func accept(_ reply: [UInt8]) throws(CryptoError) -> TimeStampReply {
        let response = try TimeStampReply.decode(reply)
        defer { TS_RESP_free(response) }
        let request: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var p: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_TS_REQ(nil, &p, buffer.count)
        }
        guard let request else { throw .openSSL("reading the time-stamp request") }
        defer { TS_REQ_free(request) }
        // The request's imprint, nonce and version; not its signature, nor the authority's name.
        guard let context = TS_REQ_to_TS_VERIFY_CTX(request, nil) else { throw .openSSL("checking the time-stamp reply") }
        defer { TS_VERIFY_CTX_free(context) }
        TS_VERIFY_CTX_set_flags(context, Int32(TS_VFY_VERSION | TS_VFY_IMPRINT | TS_VFY_NONCE))
        guard TS_RESP_verify_response(context, response) == 1 else { throw .openSSL("checking the time-stamp reply against its request") }
        return try TimeStampReply(der: reply, response: response)
    }
}

/// A time-stamp authority's granted reply, as signpad keeps it (`<id>.meta.json.tsr`, the
/// TimeStampResp that `openssl ts -reply` writes and `openssl ts -verify -in` reads).
public struct TimeStampReply: Sendable, Equatable, CustomStringConvertible {
    public let der: [UInt8]
    /// The time the authority gives (genTime), seconds since 1970.
    public let time: Double

    public var description: String { "a time-stamp reply of \(der.count) bytes at \(time)" }

    public init(der: [UInt8]) throws(CryptoError) {
        let response = try Self.decode(der)
        defer { TS_RESP_free(response) }
        try self.init(der: der, response: response)
    }

    /// A token alone (as a PDF signature carries it), as the granted reply that holds it.
    public init(token: [UInt8]) throws(CryptoError) {
        try self.init(der: DER.sequence([DER.sequence([DER.integer(0)]), token]))
    }

    /// The TimeStampToken the reply holds: the ContentInfo that a signature-time-stamp
    /// attribute carries, encoded anew by OpenSSL in DER (an authority's reply may use longer
    /// lengths than DER's, which a CMS must not carry).
    public var token: [UInt8] {
        get throws(CryptoError) {
            let response = try Self.decode(der)
            defer { TS_RESP_free(response) }
            guard let token = TS_RESP_get_token(response) else { throw CryptoError("reading the time-stamp reply", reason: "it holds no token") }
            var out: UnsafeMutablePointer<UInt8>?
            let count = i2d_PKCS7(token, &out)
            guard count > 0, let out else { throw .openSSL("encoding the time-stamp token") }
            defer { CRYPTO_free(out, #fileID, #line) }
            return Array(UnsafeBufferPointer(start: out, count: Int(count)))
        }
    }

    fileprivate init(der: [UInt8], response: OpaquePointer) throws(CryptoError) {
        guard let info = TS_RESP_get_tst_info(response), let generalized = TS_TST_INFO_get_time(info) else {
            throw CryptoError("reading the time-stamp reply", reason: "it holds no token")
        }
        var tm = tm()
        guard ASN1_TIME_to_tm(generalized, &tm) == 1 else { throw .openSSL("reading the time-stamp token's time") }
        self.der = der
        time = Double(timegm(&tm))
    }

    /// Checks the token against `digest` (its imprint) and the authority's CA certificates
    /// (PEM): its signature, the authority's certificate chain to one of them, and that the
    /// certificate is for time stamping, all as at the token's own time: a token stays good
    /// after the authority's certificate has ended. Returns the token's time.
    public func verify(sha256 digest: [UInt8], caPEM: [UInt8]) throws(CryptoError) -> Double {
        let response = try Self.decode(der)
        defer { TS_RESP_free(response) }
        guard let context = TS_VERIFY_CTX_new() else { throw .openSSL("verifying the time-stamp token") }
        defer { TS_VERIFY_CTX_free(context) }
        guard let store = X509_STORE_new() else { throw .openSSL("verifying the time-stamp token") }
        // The context frees the store and the imprint copy.
        TS_VERIFY_CTX_set_store(context, store)
        let authorities = try withReadBIO(caPEM) { bio in PEM_X509_INFO_read_bio(bio, nil, nil, nil) }
        guard let authorities else { throw .openSSL("reading the time-stamp authority's CA certificates") }
        defer { signpad_x509_infos_free(authorities) }
        var added = 0
        for i in 0..<signpad_x509_infos_count(authorities) {
            if let certificate = signpad_x509_info_certificate(authorities, i), X509_STORE_add_cert(store, certificate) == 1 { added += 1 }
        }
        guard added > 0 else { throw CryptoError("reading the time-stamp authority's CA certificates", reason: "expected PEM certificates, found none") }
        if let parameters = X509_STORE_get0_param(store) { X509_VERIFY_PARAM_set_time(parameters, time_t(time)) }
        guard let copy = digest.withUnsafeBufferPointer({ signpad_openssl_copy($0.baseAddress, $0.count) }) else { throw .openSSL("verifying the time-stamp token") }
        TS_VERIFY_CTX_set_imprint(context, copy, digest.count)
        TS_VERIFY_CTX_set_flags(context, Int32(TS_VFY_VERSION | TS_VFY_SIGNATURE | TS_VFY_IMPRINT))
        guard TS_RESP_verify_response(context, response) == 1 else { throw .openSSL("verifying the time-stamp token") }
        return time
    }

    /// Whether the token is over `digest` (its imprint), as a well-formed token: what can be
    /// checked without the authority's CA.
    public func covers(sha256 digest: [UInt8]) -> Bool {
        guard let response = try? Self.decode(der) else { return false }
        defer { TS_RESP_free(response) }
        guard let context = TS_VERIFY_CTX_new() else { return false }
        defer { TS_VERIFY_CTX_free(context) }
        // The context frees the copy.
        guard let copy = digest.withUnsafeBufferPointer({ signpad_openssl_copy($0.baseAddress, $0.count) }) else { return false }
        TS_VERIFY_CTX_set_imprint(context, copy, digest.count)
        TS_VERIFY_CTX_set_flags(context, Int32(TS_VFY_VERSION | TS_VFY_IMPRINT))
        let ok = TS_RESP_verify_response(context, response) == 1
        ERR_clear_error()
        return ok
    }

    /// How many certificates a PEM file of an authority's CA holds; throws when it holds none.
    public static func authorityCertificates(_ pem: [UInt8]) throws(CryptoError) -> Int {
        let infos = try withReadBIO(pem) { bio in PEM_X509_INFO_read_bio(bio, nil, nil, nil) }
        guard let infos else { throw .openSSL("reading the time-stamp authority's CA certificates") }
        defer { signpad_x509_infos_free(infos) }
        let count = (0..<signpad_x509_infos_count(infos)).filter { signpad_x509_info_certificate(infos, $0) != nil }.count
        guard count > 0 else { throw CryptoError("reading the time-stamp authority's CA certificates", reason: "expected PEM certificates, found none") }
        ERR_clear_error()
        return count
    }

    fileprivate static func decode(_ der: [UInt8]) throws(CryptoError) -> OpaquePointer {
        let response: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var p: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_TS_RESP(nil, &p, buffer.count)
        }
        guard let response else { throw .openSSL("reading the time-stamp reply (expected a DER TimeStampResp)") }
        return response
    }
}
