import SignpadCrypto
import SignpadPDF

/// A signed document made PAdES B-T after it is written: the authority's token over the kiosk's
/// signature goes into that signature's /Contents, outside the bytes it signs. The manifest
/// lists the document as signed, before its token; `asSigned` takes the token off again to
/// compare the file with it, and only from a file exactly as `adding` writes it.
public enum DocumentTimeStamp {
    /// Why a document's signature cannot take a token, or give its own back.
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public var reason: String
        public var description: String { reason }
    }

    /// SHA-256 of the newest signature's value: the imprint its token must have.
    public static func imprint(of pdf: [UInt8]) throws(Failure) -> [UInt8] {
        do {
            return SHA256.digest(try PAdESTimeStamp.signatureValue(of: PDFSignatureContents(of: pdf).der))
        } catch {
            throw Failure(reason: "\(error)")
        }
    }

    /// The document with `token` in its newest signature. Throws when that signature has one,
    /// or when the token does not fit the room kept for it.
    public static func adding(_ token: [UInt8], to pdf: [UInt8]) throws(Failure) -> [UInt8] {
        do {
            let contents = try PDFSignatureContents(of: pdf)
            return try contents.replacing(with: PAdESTimeStamp.adding(token: token, to: contents.der), in: pdf)
        } catch {
            throw Failure(reason: "\(error)")
        }
    }

    /// The document as it was signed, and the token its newest signature carries, if any. A
    /// file with a token must be byte for byte what `adding` makes of the one without: the
    /// CMS in its shortest encoding, upper-case hex, zeros after it; anything else in
    /// /Contents is refused, not tidied away. Whether the token is over this signature is the
    /// caller's to check (`TimeStampReply.covers`).
    public static func asSigned(_ pdf: [UInt8]) throws(Failure) -> (signed: [UInt8], token: [UInt8]?) {
        let signed: [UInt8], token: [UInt8]
        do {
            let contents = try PDFSignatureContents(of: pdf)
            let (cms, found) = try PAdESTimeStamp.split(contents.der)
            guard let found else { return (pdf, nil) }
            (signed, token) = (try contents.replacing(with: cms, in: pdf), found)
        } catch {
            throw Failure(reason: "\(error)")
        }
        guard try adding(token, to: signed) == pdf else {
            throw Failure(reason: "its signature's /Contents is not the signed CMS and one time-stamp token as signpad puts them there")
        }
        return (signed, token)
    }
}
