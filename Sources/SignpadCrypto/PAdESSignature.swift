/// The CMS SignedData of a PAdES baseline signature (ETSI EN 319 142-1, B-B): detached, over the
/// SHA-256 of the PDF's /ByteRange, its signed attributes content-type, message-digest and
/// ESS signing-certificate-v2 and nothing else; the claimed time is the PDF's /M, not a
/// signing-time attribute.
public enum PAdESSignature {
    public static func signedData(digest: [UInt8], key: SigningKey, certificate: SigningCertificate) throws(CryptoError) -> [UInt8] {
        guard key.publicKey == certificate.publicKey, key.publicKey.algorithm == .ecdsaP256 else {
            throw CryptoError("signing the document", reason: "the key is not the certificate's ECDSA P-256 key")
        }
        let sha256 = DER.sequence([DER.oid(OID.sha256)])
        let signer = certificate.chain[0]
        let issuerSerial = DER.sequence([DER.sequence([DER.context(4, certificate.issuer)]), certificate.serialNumber])
        // ESSCertIDv2 with the hash algorithm left at its default, SHA-256 (RFC 5035).
        let signingCertificate = DER.sequence([DER.sequence([DER.sequence([DER.octetString(SHA256.digest(signer)), issuerSerial])])])
        let attributes = [
            DER.sequence([DER.oid(OID.contentType), DER.set([DER.oid(OID.data)])]),
            DER.sequence([DER.oid(OID.messageDigest), DER.set([DER.octetString(digest)])]),
            DER.sequence([DER.oid(OID.signingCertificateV2), DER.set([signingCertificate])]),
        ]
        // The signature is over the attributes as a SET OF; they sit in the SignerInfo as [0].
        let signedSet = DER.set(attributes)
        let signature = try key.sign(signedSet)
        let signerInfo = DER.sequence([
            DER.integer(1),
            DER.sequence([certificate.issuer, certificate.serialNumber]),
            sha256,
            DER.context(0, Array(DER.contents(signedSet)!)),
            DER.sequence([DER.oid(OID.ecdsaWithSHA256)]),
            DER.octetString(signature),
        ])
        let signedData = DER.sequence([
            DER.integer(1),
            DER.set([sha256]),
            DER.sequence([DER.oid(OID.data)]),
            DER.context(0, certificate.chain.flatMap { $0 }),
            DER.set([signerInfo]),
        ])
        return DER.sequence([DER.oid(OID.signedData), DER.context(0, signedData)])
    }
}
