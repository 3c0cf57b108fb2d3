import SignpadZlib

/// Where each object is: the newest section's entry for each number wins, as readers merge an
/// incrementally updated file's sections (ISO 32000-1 §7.5.4, §7.5.8).
struct PDFCrossReference {
    enum Entry: Equatable {
        case free
        case offset(Int, generation: Int)
        /// The `index`th object of the object stream numbered `stream`.
        case compressed(stream: Int, index: Int)
    }

    private(set) var entries: [Int: Entry] = [:]
    /// The newest section's trailer (an xref stream's dictionary stands for one).
    private(set) var trailer = PDFDictionary()
    /// Whether the newest section is a stream, which an update must continue with.
    private(set) var usesStreams = false

    static let maxSections = 256
    /// Objects a file of its size can hold: each takes a dozen bytes at least ("1 0 obj" and its
    /// end), even packed in an object stream; more is a file claiming what it does not hold.
    let maxObjects: Int

    /// The sections from the one `startxref` names back through each `/Prev` (and a hybrid
    /// file's `/XRefStm`).
    init(_ bytes: [UInt8]) throws(PDFError) {
        maxObjects = min(4_000_000, max(1024, bytes.count / 8))
        let start = try Self.startXRef(bytes)
        var pending = [start], seen = Set<Int>(), first = true
        while let offset = pending.popLast() {
            guard seen.insert(offset).inserted else { continue }
            guard seen.count <= Self.maxSections else { throw PDFError("more than \(Self.maxSections) cross-reference sections") }
            guard offset >= 0, offset < bytes.count else { throw PDFError("a cross-reference section is said to be at byte \(offset), past the file's end") }
            var parser = PDFParser(bytes, at: offset)
            let section: PDFDictionary
            if parser.take("xref") {
                section = try readTable(&parser)
                if first { usesStreams = false }
                if let hybrid = section["XRefStm"]?.integer { pending.append(hybrid) }
            } else {
                section = try readStream(bytes, at: offset)
                if first { usesStreams = true }
            }
            if first { trailer = section; first = false }
            if let prev = section["Prev"]?.integer { pending.insert(prev, at: 0) }
        }
    }

    static func startXRef(_ bytes: [UInt8]) throws(PDFError) -> Int {
        let keyword = Array("startxref".utf8)
        let tailStart = max(0, bytes.count - 2048)
        var i = bytes.count - keyword.count
        while i >= tailStart {
            if bytes[i] == keyword[0], Array(bytes[i..<(i + keyword.count)]) == keyword {
                var parser = PDFParser(bytes, at: i + keyword.count)
                guard let offset = parser.unsignedInteger() else { throw PDFError("\"startxref\" is not followed by a byte offset", at: i) }
                return offset
            }
            i -= 1
        }
        throw PDFError("no \"startxref\" in the file's last 2 KiB: the file is truncated or not a PDF")
    }

    private mutating func define(_ number: Int, _ entry: Entry) {
        if entries[number] == nil { entries[number] = entry }
    }

    private mutating func readTable(_ parser: inout PDFParser) throws(PDFError) -> PDFDictionary {
        while !parser.take("trailer") {
            guard let first = parser.unsignedInteger(), let count = parser.unsignedInteger() else {
                throw PDFError("a cross-reference table's subsection does not start with two numbers", at: parser.position)
            }
            guard first + count <= maxObjects else { throw PDFError("a cross-reference table names object \(first + count) in a file of \(parser.bytes.count) bytes", at: parser.position) }
            for number in first..<(first + count) {
                guard let offset = parser.unsignedInteger(), let generation = parser.unsignedInteger() else {
                    throw PDFError("a cross-reference entry is not two numbers and n or f", at: parser.position)
                }
                guard generation <= PDFReference.maxGeneration else { throw PDFError("a cross-reference entry has generation \(generation)", at: parser.position) }
                if parser.take("n") {
                    define(number, .offset(offset, generation: generation))
                } else if parser.take("f") {
                    define(number, .free)
                } else {
                    throw PDFError("a cross-reference entry is neither n nor f", at: parser.position)
                }
            }
        }
        guard case .dictionary(let trailer) = try parser.object() else { throw PDFError("\"trailer\" is not followed by a dictionary", at: parser.position) }
        return trailer
    }

    private mutating func readStream(_ bytes: [UInt8], at offset: Int) throws(PDFError) -> PDFDictionary {
        // An xref stream's /Length is a direct integer (ISO 32000-1 §7.5.8.2), so no resolver.
        let (_, object) = try PDFFileReader.indirectObject(bytes, at: offset, length: { _ throws(PDFError) in nil })
        guard case .stream(let dictionary, _) = object, dictionary["Type"]?.name == "XRef" else {
            throw PDFError("no cross-reference table or stream where startxref or /Prev points", at: offset)
        }
        let data = try PDFStreamDecoder.decode(object, limit: 64 * 1024 * 1024)
        guard let widths = dictionary["W"]?.array?.compactMap(\.integer), widths.count == 3, widths.allSatisfy({ (0...8).contains($0) }) else {
            throw PDFError("a cross-reference stream's /W is not three widths", at: offset)
        }
        let size = dictionary["Size"]?.integer ?? 0
        let index = dictionary["Index"]?.array?.compactMap(\.integer) ?? [0, size]
        guard index.count % 2 == 0 else { throw PDFError("a cross-reference stream's /Index is not pairs", at: offset) }
        let rowWidth = widths.reduce(0, +)
        guard rowWidth > 0 else { throw PDFError("a cross-reference stream's /W is all zero", at: offset) }
        var row = 0
        func field(_ at: Int, _ width: Int) -> Int {
            var v = 0
            for i in at..<(at + width) { v = v << 8 | Int(data[i]) }
            return v
        }
        for pair in stride(from: 0, to: index.count, by: 2) {
            let first = index[pair], count = index[pair + 1]
            guard first >= 0, count >= 0, first + count <= maxObjects else { throw PDFError("a cross-reference stream's /Index names object \(first + count) in a file of \(bytes.count) bytes", at: offset) }
            for number in first..<(first + count) {
                let at = row * rowWidth
                guard at + rowWidth <= data.count else { throw PDFError("a cross-reference stream is shorter than its /Index", at: offset) }
                let type = widths[0] == 0 ? 1 : field(at, widths[0])
                let second = field(at + widths[0], widths[1]), third = field(at + widths[0] + widths[1], widths[2])
                switch type {
                case 0: define(number, .free)
                case 1:
                    guard third <= PDFReference.maxGeneration else { throw PDFError("a cross-reference stream gives object \(number) generation \(third)", at: offset) }
                    define(number, .offset(second, generation: third))
                case 2: define(number, .compressed(stream: second, index: third))
                default: break  // unknown types are null references (§7.5.8.3)
                }
                row += 1
            }
        }
        return dictionary
    }
}
