/// The /Contents of a document's newest signature, the one whose /ByteRange ends at the end of
/// the file: where its hex string lies and the CMS in it. Outside the range the signature
/// covers, it can take a CMS of another length (an unsigned attribute added) within the room
/// reserved, without changing a byte that was signed.
public struct PDFSignatureContents: Sendable, Equatable {
    /// The hex digits between `<` and `>`.
    public let digits: Range<Int>
    /// The bytes the digits hold: the CMS, then the zeros that pad it (a DER reader takes the
    /// CMS by its length; a zero may end the CMS itself).
    public let der: [UInt8]

    public init(of bytes: [UInt8]) throws(PDFError) {
        let key = Array("/ByteRange".utf8)
        var at = bytes.count - key.count
        while at >= 0, !bytes[at..<(at + key.count)].elementsEqual(key) { at -= 1 }
        guard at >= 0 else { throw PDFError("the document has no signature (no /ByteRange)") }
        var numbers: [Int] = []
        var i = at + key.count
        while i < bytes.count, bytes[i] == 32 || bytes[i] == 10 || bytes[i] == 13 { i += 1 }
        guard i < bytes.count, bytes[i] == UInt8(ascii: "[") else { throw PDFError("the /ByteRange is not an array", at: i) }
        i += 1
        while i < bytes.count, bytes[i] != UInt8(ascii: "]"), numbers.count <= 4 {
            if (48...57).contains(bytes[i]) {
                var n = 0
                while i < bytes.count, (48...57).contains(bytes[i]), n < 1 << 40 { n = n * 10 + Int(bytes[i] - 48); i += 1 }
                numbers.append(n)
            } else if bytes[i] == 32 || bytes[i] == 10 || bytes[i] == 13 {
                i += 1
            } else {
                throw PDFError("the /ByteRange holds something other than numbers", at: i)
            }
        }
        guard numbers.count == 4, numbers[0] == 0, numbers[1] < numbers[2], numbers[2] <= bytes.count, numbers[2] + numbers[3] == bytes.count,
              numbers[2] - numbers[1] >= 2, bytes[numbers[1]] == UInt8(ascii: "<"), bytes[numbers[2] - 1] == UInt8(ascii: ">") else {
            throw PDFError("the newest /ByteRange does not cover the whole file but one hex string", at: at)
        }
        digits = (numbers[1] + 1)..<(numbers[2] - 1)
        guard digits.count % 2 == 0 else { throw PDFError("the signature's /Contents has an odd number of digits", at: digits.lowerBound) }
        var der: [UInt8] = []
        der.reserveCapacity(digits.count / 2)
        var d = digits.lowerBound
        while d < digits.upperBound {
            guard let high = Self.value(bytes[d]), let low = Self.value(bytes[d + 1]) else {
                throw PDFError("the signature's /Contents is not hexadecimal", at: d)
            }
            der.append(high << 4 | low)
            d += 2
        }
        self.der = der
    }

    /// The document with `der` in place of the signature's CMS, padded with zeros to the same
    /// width: every signed byte stays as it was.
    public func replacing(with der: [UInt8], in bytes: [UInt8]) throws(PDFError) -> [UInt8] {
        guard der.count * 2 <= digits.count else {
            throw PDFError("the signature's \(der.count) bytes exceed the \(digits.count / 2) reserved for it", at: digits.lowerBound)
        }
        var out = bytes
        var d = digits.lowerBound
        for b in der {
            out[d] = PDFWriter.hexDigit(b >> 4)
            out[d + 1] = PDFWriter.hexDigit(b & 15)
            d += 2
        }
        while d < digits.upperBound { out[d] = UInt8(ascii: "0"); d += 1 }
        return out
    }

    private static func value(_ d: UInt8) -> UInt8? {
        switch d {
        case 48...57: d - 48
        case 65...70: d - 55
        case 97...102: d - 87
        default: nil
        }
    }
}
