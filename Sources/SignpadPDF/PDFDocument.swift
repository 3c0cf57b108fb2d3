/// A PDF file as its cross-reference describes it: enough of it read to find its pages and its
/// form's fields, and to append an update to it. Encrypted files are refused.
public struct PDFDocument {
    public let bytes: [UInt8]
    let crossReference: PDFCrossReference
    /// Object streams decoded once: a page tree in one would otherwise inflate it for each page.
    private let objectStreams = ObjectStreamCache()
    /// Objects read once, and the work reading may take: a crafted file otherwise makes the
    /// same objects, or a stream with no usable /Length, be read over and over.
    private let work = PDFWork()

    /// Objects followed through references before a chain is called a loop.
    static let maxReferenceChain = 32
    static let maxStreamBytes = 64 * 1024 * 1024

    public init(bytes: [UInt8]) throws(PDFError) {
        guard bytes.starts(with: Array("%PDF-".utf8)) || PDFFileReader.find(Array("%PDF-".utf8), in: Array(bytes.prefix(1024)), from: 0) != nil else {
            throw PDFError("the file does not start with \"%PDF-\"", at: 0)
        }
        self.bytes = bytes
        crossReference = try PDFCrossReference(bytes)
        if trailer["Encrypt"] != nil { throw PDFError("the document is encrypted; signpad signs only unencrypted documents") }
        guard trailer["Root"]?.reference != nil else { throw PDFError("the trailer has no /Root") }
    }

    public var trailer: PDFDictionary { crossReference.trailer }
    public var usesCrossReferenceStreams: Bool { crossReference.usesStreams }
    /// One past the highest object number: the first an update may take.
    public var size: Int { max(trailer["Size"]?.integer ?? 0, (crossReference.entries.keys.max() ?? 0) + 1) }
    public var rootReference: PDFReference { trailer["Root"]!.reference! }

    /// The object a reference names; a free or missing one is null, as §7.3.10 says.
    public func object(_ reference: PDFReference) throws(PDFError) -> PDFObject {
        try object(reference, depth: 0)
    }

    private func object(_ reference: PDFReference, depth: Int) throws(PDFError) -> PDFObject {
        guard depth < Self.maxReferenceChain else { throw PDFError("references to \(reference) go round or nest too deep") }
        switch crossReference.entries[reference.number] {
        case nil, .free?:
            return .null
        case .offset(_, let generation)? where generation != reference.generation:
            return .null
        case .offset(let offset, _)?:
            if let known = work.objects[reference.number] { return known }
            try work.spend(objects: 1)
            let (found, object) = try PDFFileReader.indirectObject(bytes, at: offset, work: work) { length throws(PDFError) in
                try self.resolve(length, depth: depth + 1).integer
            }
            guard found.number == reference.number else { throw PDFError("object \(reference.number) is listed at byte \(offset), where object \(found.number) is", at: offset) }
            if case .stream = object {} else { work.objects[reference.number] = object }
            return object
        case .compressed? where reference.generation != 0:
            return .null
        case .compressed(let streamNumber, _)?:
            if let known = work.objects[reference.number] { return known }
            let stream = try object(PDFReference(streamNumber), depth: depth + 1)
            guard let dictionary = stream.dictionary, dictionary["Type"]?.name == "ObjStm", let count = dictionary["N"]?.integer, let first = dictionary["First"]?.integer else {
                throw PDFError("object \(reference.number) is said to be in object \(streamNumber), which is not an object stream")
            }
            let (data, offsets) = try objectStreams.contents(of: streamNumber) { () throws(PDFError) in
                let data = try PDFStreamDecoder.decode(stream, limit: Self.maxStreamBytes)
                var header = PDFParser(data, at: 0)
                var offsets: [Int: Int] = [:]
                for _ in 0..<max(count, 0) {
                    guard let number = header.unsignedInteger(), let offset = header.unsignedInteger() else {
                        throw PDFError("object stream \(streamNumber)'s header is broken")
                    }
                    guard first >= 0, first + offset < data.count else { throw PDFError("object stream \(streamNumber) puts object \(number) past its end") }
                    if offsets[number] == nil { offsets[number] = first + offset }
                }
                return (data, offsets)
            }
            if let at = offsets[reference.number] {
                try work.spend(objects: 1)
                var parser = PDFParser(data, at: at)
                let object = try parser.object()
                work.objects[reference.number] = object
                return object
            }
            throw PDFError("object \(reference.number) is not in object stream \(streamNumber)")
        }
    }

    /// `object` with references followed.
    public func resolve(_ object: PDFObject?) throws(PDFError) -> PDFObject {
        try resolve(object ?? .null, depth: 0)
    }

    private func resolve(_ object: PDFObject, depth: Int) throws(PDFError) -> PDFObject {
        var current = object, hops = depth
        while case .reference(let r) = current {
            hops += 1
            guard hops < Self.maxReferenceChain else { throw PDFError("references to \(r) go round or nest too deep") }
            current = try self.object(r, depth: hops)
        }
        return current
    }

    public func catalog() throws(PDFError) -> PDFDictionary {
        guard let catalog = try object(rootReference).dictionary else { throw PDFError("the document's catalog (\(rootReference)) is not a dictionary") }
        return catalog
    }
}

/// Decoded object streams by number, with where each object starts, up to a total size.
private final class ObjectStreamCache {
    private var streams: [Int: (data: [UInt8], offsets: [Int: Int])] = [:]
    private var bytes = 0
    static let maxBytes = 64 * 1024 * 1024

    func contents(of number: Int, decode: () throws(PDFError) -> (data: [UInt8], offsets: [Int: Int])) throws(PDFError) -> (data: [UInt8], offsets: [Int: Int]) {
        if let found = streams[number] { return found }
        let decoded = try decode()
        if bytes + decoded.data.count <= Self.maxBytes {
            streams[number] = decoded
            bytes += decoded.data.count
        }
        return decoded
    }
}

/// What reading one document may cost: objects parsed, and bytes searched for a stream's end.
final class PDFWork {
    var objects: [Int: PDFObject] = [:]
    private var parsed = 0
    private var scanned = 0
    static let maxParsed = 1_000_000
    static let maxScanned = 256 << 20

    func spend(objects count: Int = 0, scanned bytes: Int = 0) throws(PDFError) {
        parsed += count
        scanned += bytes
        guard parsed <= Self.maxParsed else { throw PDFError("reading the document takes more than \(Self.maxParsed) objects") }
        guard scanned <= Self.maxScanned else { throw PDFError("the document's streams lack a usable /Length too often: finding their ends takes more than \(Self.maxScanned >> 20) MiB of searching") }
    }
}
