import SignpadCrypto
import SignpadPDF

/// A signed document made PAdES B-T after it is written: the authority's token over the kiosk's
/// signature goes into that signature's /Contents, outside the bytes it signs. The manifest
/// lists the document as signed, before its token; `asSigned` takes the token off again to
/// compare the file with it.
public enum DocumentTimeStamp {
    /// SHA-256 of the newest signature's value: the imprint its token must have.
    public static func imprint(of pdf: [UInt8]) throws -> [UInt8] {
        SHA256.digest(try PAdESTimeStamp.signatureValue(of: PDFSignatureContents(of: pdf).der))
    }

    /// The document with `token` in its newest signature. Throws when that signature has one.
    public static func adding(_ token: [UInt8], to pdf: [UInt8]) throws -> [UInt8] {
        let contents = try PDFSignatureContents(of: pdf)
        return try contents.replacing(with: PAdESTimeStamp.adding(token: token, to: contents.der), in: pdf)
    }

    /// The document as it was signed, and the token its newest signature carries, if any.
    public static func asSigned(_ pdf: [UInt8]) throws -> (signed: [UInt8], token: [UInt8]?) {
        let contents = try PDFSignatureContents(of: pdf)
        let (cms, token) = try PAdESTimeStamp.split(contents.der)
        guard token != nil else { return (pdf, nil) }
        return (try contents.replacing(with: cms, in: pdf), token)
    }
}
