import CCrypto

/// The certificate a PDF signature names its signer by (`export.document_certificate`), with
/// the chain up to its CA: the signer's first, as a CA issues them.
public struct SigningCertificate: Sendable {
    /// DER, the signer's first.
    public let chain: [[UInt8]]
    public let subject: String
    /// Seconds since 1970 when it ends.
    public let notAfter: Double
    public let publicKey: PublicKey
    /// The signer's issuer `Name` and its serial number's INTEGER, DER: how CMS names a signer.
    let issuer: [UInt8]
    let serialNumber: [UInt8]

    /// The certificates of a PEM file, the signer's first; its key must be `signer`.
    public init(pem: [UInt8], of signer: PublicKey) throws(CryptoError) {
        let doing = "reading the document certificate"
        guard let infos = try withReadBIO(pem, { PEM_X509_INFO_read_bio($0, nil, nil, nil) }) else { throw .openSSL(doing) }
        defer { signpad_x509_infos_free(infos) }
        var chain: [[UInt8]] = []
        var first: OpaquePointer?
        for i in 0..<signpad_x509_infos_count(infos) {
            guard let certificate = signpad_x509_info_certificate(infos, i) else { continue }
            if first == nil { first = certificate }
            chain.append(try Self.der(doing) { i2d_X509(certificate, &$0) })
        }
        guard let first else { throw CryptoError(doing, reason: "no \"-----BEGIN CERTIFICATE-----\" in the file") }
        guard let certifiedKey = X509_get0_pubkey(first) else { throw .openSSL(doing) }
        publicKey = try PublicKey(certifiedKey, reading: doing)
        guard publicKey == signer else {
            throw CryptoError(doing, reason: "its first certificate is for key \(publicKey.fingerprint.prefix(16))…, not the kiosk's \(signer.fingerprint.prefix(16))…")
        }
        guard publicKey.algorithm == .ecdsaP256 else {
            throw CryptoError(doing, reason: "its key is Ed25519, which PDF readers do not accept; a document key is ECDSA P-256 (signpad key create --algorithm p256, or --tpm)")
        }
        self.chain = chain
        subject = Self.commonName(first)
        issuer = try Self.der(doing) { i2d_X509_NAME(X509_get_issuer_name(first), &$0) }
        serialNumber = try Self.der(doing) { i2d_ASN1_INTEGER(X509_get0_serialNumber(first), &$0) }
        var end = tm()
        guard ASN1_TIME_to_tm(X509_get0_notAfter(first), &end) == 1 else { throw .openSSL(doing) }
        notAfter = Double(timegm(&end))
    }

    private static func der(_ doing: String, _ encode: (inout UnsafeMutablePointer<UInt8>?) -> Int32) throws(CryptoError) -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>?
        let count = encode(&out)
        guard count > 0, let out else { throw .openSSL(doing) }
        defer { CRYPTO_free(out, #fileID, #line) }
        return Array(UnsafeBufferPointer(start: out, count: Int(count)))
    }

    private static func commonName(_ certificate: OpaquePointer) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        let count = X509_NAME_get_text_by_NID(X509_get_subject_name(certificate), NID_commonName, &buffer, Int32(buffer.count))
        return count > 0 ? String(decoding: buffer.prefix(Int(count)).map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
    }
}
