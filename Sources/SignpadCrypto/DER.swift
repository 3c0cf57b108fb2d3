/// Distinguished Encoding Rules (ITU-T X.690) for the few structures signpad builds itself:
/// the CMS of a PDF signature, whose signed attributes OpenSSL's CMS_sign would add a
/// signing-time to that PAdES baseline signatures must not carry.
enum DER {
    static func tagged(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        var out = [tag]
        let n = content.count
        if n < 0x80 {
            out.append(UInt8(n))
        } else {
            var length: [UInt8] = []
            var v = n
            while v > 0 { length.insert(UInt8(v & 0xFF), at: 0); v >>= 8 }
            out.append(0x80 | UInt8(length.count))
            out += length
        }
        return out + content
    }

    static func sequence(_ items: [[UInt8]]) -> [UInt8] { tagged(0x30, items.flatMap { $0 }) }
    /// A SET OF, its elements in the order of their encodings (X.690 §11.6).
    static func set(_ items: [[UInt8]]) -> [UInt8] { tagged(0x31, items.sorted { $0.lexicographicallyPrecedes($1) }.flatMap { $0 }) }
    static func octetString(_ bytes: [UInt8]) -> [UInt8] { tagged(0x04, bytes) }
    static func integer(_ v: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var x = v
        repeat { bytes.insert(UInt8(x & 0xFF), at: 0); x >>= 8 } while x > 0
        if bytes[0] & 0x80 != 0 { bytes.insert(0, at: 0) }
        return tagged(0x02, bytes)
    }
    /// `[n]` constructed: EXPLICIT around one element, or IMPLICIT for a SET OF's contents.
    static func context(_ n: UInt8, _ content: [UInt8]) -> [UInt8] { tagged(0xA0 | n, content) }

    static func oid(_ dotted: String) -> [UInt8] {
        let arcs = dotted.split(separator: ".").map { Int($0)! }
        var body = [UInt8(arcs[0] * 40 + arcs[1])]
        for arc in arcs.dropFirst(2) {
            var chunk = [UInt8(arc & 0x7F)]
            var v = arc >> 7
            while v > 0 { chunk.insert(UInt8(v & 0x7F) | 0x80, at: 0); v >>= 7 }
            body += chunk
        }
        return tagged(0x06, body)
    }

    typealias Element = (tag: UInt8, contents: ArraySlice<UInt8>, whole: ArraySlice<UInt8>)

    /// One element read where `bytes` starts: its tag, its contents, and the whole element.
    /// Definite lengths in their shortest form only, of up to four bytes, as DER has them; nil
    /// for anything else, so one value has one encoding.
    static func element(_ bytes: ArraySlice<UInt8>) -> Element? {
        let start = bytes.startIndex
        guard bytes.count >= 2 else { return nil }
        let first = Int(bytes[start + 1])
        var length = first, header = 2
        if first >= 0x80 {
            let count = first & 0x7F
            guard count >= 1, count <= 4, bytes.count >= 2 + count, bytes[start + 2] != 0 else { return nil }
            length = bytes[(start + 2)..<(start + 2 + count)].reduce(0) { $0 << 8 | Int($1) }
            guard length >= 0x80 else { return nil }
            header += count
        }
        guard bytes.count - header >= length else { return nil }
        return (bytes[start], bytes[(start + header)..<(start + header + length)], bytes[start..<(start + header + length)])
    }

    /// The elements that make up `contents`, in order; nil when they do not fill it exactly.
    static func children(_ contents: ArraySlice<UInt8>) -> [Element]? {
        var found: [Element] = []
        var rest = contents
        while !rest.isEmpty {
            guard let next = element(rest) else { return nil }
            found.append(next)
            rest = rest[next.whole.endIndex...]
        }
        return found
    }

    /// The contents of a DER element that starts `bytes` (tag and length skipped).
    static func contents(_ element: [UInt8]) -> ArraySlice<UInt8>? {
        guard element.count >= 2 else { return nil }
        let first = Int(element[1])
        if first < 0x80 { return element.count >= 2 + first ? element[2..<(2 + first)] : nil }
        let count = first & 0x7F
        guard count >= 1, count <= 4, element.count >= 2 + count else { return nil }
        let length = element[2..<(2 + count)].reduce(0) { $0 << 8 | Int($1) }
        return element.count >= 2 + count + length ? element[(2 + count)..<(2 + count + length)] : nil
    }
}

enum OID {
    static let data = "1.2.840.113549.1.7.1"
    static let signedData = "1.2.840.113549.1.7.2"
    static let contentType = "1.2.840.113549.1.9.3"
    static let messageDigest = "1.2.840.113549.1.9.4"
    static let signingCertificateV2 = "1.2.840.113549.1.9.16.2.47"
    static let signatureTimeStampToken = "1.2.840.113549.1.9.16.2.14"
    static let sha256 = "2.16.840.1.101.3.4.2.1"
    static let ecdsaWithSHA256 = "1.2.840.10045.4.3.2"
}
