/// PAdES B-T (ETSI EN 319 142-1): an RFC 3161 token over a PAdES signature's value, carried in
/// its SignerInfo as the unsigned attribute signature-time-stamp (RFC 3161 appendix A). Being
/// unsigned, it is added after the signature and taken off again without touching what was
/// signed: `split` gives back the CMS exactly as `PAdESSignature` made it.
public enum PAdESTimeStamp {
    /// The signer's signature value: a signature-time-stamp token's imprint is its SHA-256.
    public static func signatureValue(of cms: [UInt8]) throws(CryptoError) -> [UInt8] {
        let signer = try signerInfo(cms)
        guard let value = signer.fields.last(where: { $0.tag == 0x04 }) else { throw malformed("the signer has no signature value") }
        return Array(value.contents)
    }

    /// The CMS as it was signed, and the token its signer carries, if any.
    public static func split(_ cms: [UInt8]) throws(CryptoError) -> (signed: [UInt8], token: [UInt8]?) {
        let signer = try signerInfo(cms)
        guard let last = signer.fields.last, last.tag == 0xA1 else { return (Array(signer.cms), nil) }
        guard let attributes = DER.children(last.contents), attributes.count == 1, attributes[0].tag == 0x30,
              let parts = DER.children(attributes[0].contents), parts.count == 2, parts[0].whole.elementsEqual(DER.oid(OID.signatureTimeStampToken)),
              parts[1].tag == 0x31, let tokens = DER.children(parts[1].contents), tokens.count == 1, tokens[0].tag == 0x30 else {
            throw malformed("its unsigned attributes are not one signature-time-stamp token")
        }
        return (signer.rebuilt(signer.fields.dropLast().map { Array($0.whole) }), Array(tokens[0].whole))
    }

    /// The CMS with `token` (a TimeStampToken: the ContentInfo of a TimeStampResp) as its
    /// signer's signature-time-stamp.
    public static func adding(token: [UInt8], to cms: [UInt8]) throws(CryptoError) -> [UInt8] {
        let signer = try signerInfo(cms)
        guard signer.fields.last?.tag == 0x04 else { throw malformed("it has unsigned attributes already") }
        let attribute = DER.sequence([DER.oid(OID.signatureTimeStampToken), DER.set([token])])
        return signer.rebuilt(signer.fields.map { Array($0.whole) } + [DER.tagged(0xA1, attribute)])
    }

    /// The one SignerInfo of a ContentInfo holding a SignedData, and how to put the CMS back
    /// together around other fields of it.
    private struct SignerPath {
        var cms: ArraySlice<UInt8>
        var outer: [DER.Element]          // ContentInfo: contentType, [0]
        var signedData: [DER.Element]     // its fields, signerInfos last
        var fields: [DER.Element]         // the SignerInfo's

        func rebuilt(_ signerFields: [[UInt8]]) -> [UInt8] {
            let signerInfos = DER.tagged(0x31, DER.sequence(signerFields))
            let signed = DER.sequence(signedData.dropLast().map { Array($0.whole) } + [signerInfos])
            return DER.sequence([Array(outer[0].whole), DER.context(0, signed)])
        }
    }

    private static func signerInfo(_ bytes: [UInt8]) throws(CryptoError) -> SignerPath {
        guard let info = DER.element(bytes[...]), info.tag == 0x30, let outer = DER.children(info.contents), outer.count == 2,
              outer[0].whole.elementsEqual(DER.oid(OID.signedData)), outer[1].tag == 0xA0,
              let wrapped = DER.children(outer[1].contents), wrapped.count == 1, wrapped[0].tag == 0x30,
              let signedData = DER.children(wrapped[0].contents), let infos = signedData.last, infos.tag == 0x31 else {
            throw malformed("expected a DER ContentInfo holding a SignedData")
        }
        guard let signers = DER.children(infos.contents), signers.count == 1, signers[0].tag == 0x30, let fields = DER.children(signers[0].contents) else {
            throw malformed("expected one signer")
        }
        return SignerPath(cms: info.whole, outer: outer, signedData: signedData, fields: fields)
    }

    private static func malformed(_ reason: String) -> CryptoError {
        CryptoError("reading the document signature's CMS", reason: reason)
    }
}
