import SignpadZlib

/// `N G obj … endobj` at a byte offset.
enum PDFFileReader {
    /// The object at `offset`. `length` resolves a stream's indirect /Length (nil when it cannot,
    /// and the stream is then read up to its `endstream`).
    static func indirectObject(_ bytes: [UInt8], at offset: Int, work: PDFWork? = nil, length: (PDFObject) throws(PDFError) -> Int?) throws(PDFError) -> (PDFReference, PDFObject) {
        guard offset >= 0, offset < bytes.count else { throw PDFError("an object is said to be at byte \(offset), past the file's end") }
        var parser = PDFParser(bytes, at: offset)
        guard let number = parser.unsignedInteger(), let generation = parser.unsignedInteger(), parser.take("obj") else {
            throw PDFError("no \"N G obj\" where the cross-reference points", at: offset)
        }
        let object = try parser.object()
        guard case .dictionary(let dictionary) = object, parser.take("stream") else {
            return (PDFReference(number, generation), object)
        }
        // The keyword is followed by CRLF or LF (a lone CR is tolerated).
        if parser.position < bytes.count, bytes[parser.position] == 13 { parser.position += 1 }
        if parser.position < bytes.count, bytes[parser.position] == 10 { parser.position += 1 }
        let dataStart = parser.position
        var dataEnd: Int?
        if let declared = dictionary["Length"], let count = try length(declared), count >= 0, dataStart + count <= bytes.count {
            var after = PDFParser(bytes, at: dataStart + count)
            if after.take("endstream") { dataEnd = dataStart + count }
        }
        if dataEnd == nil {
            let found = find(Array("endstream".utf8), in: bytes, from: dataStart)
            try work?.spend(scanned: (found ?? bytes.count) - dataStart)
            guard let end = found else { throw PDFError("a stream has no \"endstream\"", at: dataStart) }
            var trimmed = end
            if trimmed > dataStart, bytes[trimmed - 1] == 10 { trimmed -= 1 }
            if trimmed > dataStart, bytes[trimmed - 1] == 13 { trimmed -= 1 }
            dataEnd = trimmed
        }
        return (PDFReference(number, generation), .stream(dictionary, Array(bytes[dataStart..<dataEnd!])))
    }

    static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, bytes.count >= needle.count else { return nil }
        var i = start
        while i + needle.count <= bytes.count {
            if bytes[i] == needle[0], bytes[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }
}

/// A stream's bytes decoded: FlateDecode with PNG predictors, as cross-reference and object
/// streams use it; nothing else is needed to find a document's fields and pages.
enum PDFStreamDecoder {
    static func decode(_ stream: PDFObject, limit: Int) throws(PDFError) -> [UInt8] {
        guard case .stream(let dictionary, let raw) = stream else { throw PDFError("not a stream") }
        let filters: [PDFName] = dictionary["Filter"].map { $0.array?.compactMap(\.name) ?? ($0.name.map { [$0] } ?? []) } ?? []
        let parameters = dictionary["DecodeParms"].flatMap { $0.dictionary ?? $0.array?.first?.dictionary }
        var data = raw
        for filter in filters {
            guard filter == "FlateDecode" || filter == "Fl" else { throw PDFError("a stream this reader needs is encoded with \(filter)") }
            do { data = try Zlib.inflate(data[...], limit: limit) } catch {
                throw PDFError("a stream's FlateDecode data is broken: \(error)")
            }
        }
        if let predictor = parameters?["Predictor"]?.integer, predictor >= 10 {
            let columns = parameters?["Columns"]?.integer ?? 1
            data = try unpredict(data, columns: columns)
        }
        return data
    }

    /// PNG's row filters (RFC 2083 §6), one byte per sample.
    static func unpredict(_ data: [UInt8], columns: Int) throws(PDFError) -> [UInt8] {
        guard columns > 0, columns <= 1 << 16 else { throw PDFError("a stream's predictor has \(columns) columns") }
        var out: [UInt8] = []
        out.reserveCapacity(data.count)
        var previous = [UInt8](repeating: 0, count: columns)
        var at = 0
        while at + columns + 1 <= data.count {
            let filter = data[at]
            var row = Array(data[(at + 1)...(at + columns)])
            for i in 0..<columns {
                let left = i > 0 ? Int(row[i - 1]) : 0, up = Int(previous[i]), upLeft = i > 0 ? Int(previous[i - 1]) : 0
                let add: Int
                switch filter {
                case 0: add = 0
                case 1: add = left
                case 2: add = up
                case 3: add = (left + up) / 2
                case 4:
                    let p = left + up - upLeft, pa = abs(p - left), pb = abs(p - up), pc = abs(p - upLeft)
                    add = pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft
                default: throw PDFError("a stream's PNG predictor row has filter \(filter)")
                }
                row[i] = UInt8(truncatingIfNeeded: Int(row[i]) + add)
            }
            out.append(contentsOf: row)
            previous = row
            at += columns + 1
        }
        return out
    }
}
