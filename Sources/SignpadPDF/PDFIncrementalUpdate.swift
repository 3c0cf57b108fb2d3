/// Objects appended to a document after its last byte, with a cross-reference section of the
/// kind its newest one is and a trailer whose /Prev points back (ISO 32000-1 §7.5.6). The
/// original bytes stay an exact prefix of the result, so signatures already in it stay valid.
public struct PDFIncrementalUpdate {
    public let document: PDFDocument
    private var objects: [(reference: PDFReference, object: PDFObject)] = []
    private var nextNumber: Int
    private var signature: (reference: PDFReference, dictionary: PDFDictionary, reserved: Int)?

    public init(_ document: PDFDocument) {
        self.document = document
        nextNumber = document.size
    }

    /// A new object; its reference.
    public mutating func add(_ object: PDFObject) -> PDFReference {
        let reference = reserve()
        objects.append((reference, object))
        return reference
    }

    /// A number for an object given later with `set`, for objects that refer to each other.
    public mutating func reserve() -> PDFReference {
        defer { nextNumber += 1 }
        return PDFReference(nextNumber)
    }

    /// A changed object (or a reserved one's value): the update's version replaces the original's.
    public mutating func set(_ reference: PDFReference, to object: PDFObject) {
        if let i = objects.firstIndex(where: { $0.reference == reference }) { objects[i].object = object } else { objects.append((reference, object)) }
    }

    /// The signature dictionary (ISO 32000-1 §12.8.1), whose /ByteRange and /Contents are filled
    /// when the update is written: `reserved` bytes for the signature's DER.
    public mutating func addSignature(_ dictionary: PDFDictionary, reserved: Int) -> PDFReference {
        let reference = reserve()
        signature = (reference, dictionary, reserved)
        return reference
    }

    /// The whole signed file. `sign` gets the bytes the signature covers, the two parts around
    /// its /Contents, and returns the DER that goes into it.
    public func write(sign: (ArraySlice<UInt8>, ArraySlice<UInt8>) throws -> [UInt8]) throws -> [UInt8] {
        var out = document.bytes
        if let last = out.last, last != 10, last != 13 { out.append(10) }
        var offsets: [(PDFReference, Int)] = []
        for (reference, object) in objects {
            offsets.append((reference, out.count))
            out += Array("\(reference.number) \(reference.generation) obj\n".utf8)
            PDFWriter.write(object, to: &out)
            out += Array("\nendobj\n".utf8)
        }
        var placeholders: (byteRange: Int, contents: Range<Int>)?
        if let signature {
            offsets.append((signature.reference, out.count))
            out += Array("\(signature.reference.number) 0 obj\n".utf8)
            var dictionary = signature.dictionary
            dictionary["ByteRange"] = nil
            dictionary["Contents"] = nil
            PDFWriter.write(dictionary, to: &out)
            out.removeLast(2)  // the ">>", reopened for the two placeholders
            out += Array("/ByteRange ".utf8)
            let byteRange = out.count
            out += Array("[0 0000000000 0000000000 0000000000]".utf8)
            out += Array("/Contents ".utf8)
            let contentsStart = out.count
            out.append(UInt8(ascii: "<"))
            out += [UInt8](repeating: UInt8(ascii: "0"), count: signature.reserved * 2)
            out.append(UInt8(ascii: ">"))
            placeholders = (byteRange, contentsStart..<out.count)
            out += Array(">>\nendobj\n".utf8)
        }
        let size = max(nextNumber, document.size)
        var trailer = PDFDictionary()
        trailer["Size"] = .integer(size)
        trailer["Root"] = document.trailer["Root"]
        if let info = document.trailer["Info"] { trailer["Info"] = info }
        trailer["Prev"] = .integer(try PDFCrossReference.startXRef(document.bytes))
        trailer["ID"] = .array([Self.firstID(document), .string(Self.newID(out[document.bytes.count...]))])
        if document.usesCrossReferenceStreams {
            writeStreamSection(&out, offsets: offsets, trailer: trailer, number: size)
        } else {
            writeTableSection(&out, offsets: offsets, trailer: trailer)
        }
        if let placeholders {
            let c = placeholders.contents
            let ranges = "[0 \(c.lowerBound) \(c.upperBound) \(out.count - c.upperBound)]"
            let field = 36  // "[0 " and three ten-digit numbers and "]"
            precondition(ranges.utf8.count <= field, "a byte range beyond ten digits")
            out.replaceSubrange(placeholders.byteRange..<(placeholders.byteRange + field), with: Array(ranges.utf8) + [UInt8](repeating: 32, count: field - ranges.utf8.count))
            let der = try sign(out[..<c.lowerBound], out[c.upperBound...])
            guard der.count <= signature!.reserved else { throw PDFError("the signature's \(der.count) bytes exceed the \(signature!.reserved) reserved") }
            var hex: [UInt8] = []
            for b in der { hex.append(PDFWriter.hexDigit(b >> 4)); hex.append(PDFWriter.hexDigit(b & 15)) }
            out.replaceSubrange((c.lowerBound + 1)..<(c.lowerBound + 1 + hex.count), with: hex)
        }
        return out
    }

    private func writeTableSection(_ out: inout [UInt8], offsets: [(PDFReference, Int)], trailer: PDFDictionary) {
        let start = out.count
        out += Array("xref\n".utf8)
        let sorted = offsets.sorted { $0.0.number < $1.0.number }
        var i = 0
        while i < sorted.count {
            var j = i
            while j + 1 < sorted.count, sorted[j + 1].0.number == sorted[j].0.number + 1 { j += 1 }
            out += Array("\(sorted[i].0.number) \(j - i + 1)\n".utf8)
            for k in i...j {
                let offset = String(sorted[k].1), generation = String(sorted[k].0.generation)
                out += Array((String(repeating: "0", count: 10 - offset.count) + offset + " " + String(repeating: "0", count: 5 - generation.count) + generation + " n\r\n").utf8)
            }
            i = j + 1
        }
        out += Array("trailer\n".utf8)
        PDFWriter.write(trailer, to: &out)
        out += Array("\nstartxref\n\(start)\n%%EOF\n".utf8)
    }

    /// A cross-reference stream, uncompressed: types and offsets in four bytes, generations in two.
    private func writeStreamSection(_ out: inout [UInt8], offsets: [(PDFReference, Int)], trailer: PDFDictionary, number: Int) {
        let start = out.count
        let sorted = (offsets + [(PDFReference(number), start)]).sorted { $0.0.number < $1.0.number }
        var index: [PDFObject] = [], data: [UInt8] = []
        var i = 0
        while i < sorted.count {
            var j = i
            while j + 1 < sorted.count, sorted[j + 1].0.number == sorted[j].0.number + 1 { j += 1 }
            index += [.integer(sorted[i].0.number), .integer(j - i + 1)]
            for k in i...j {
                let offset = UInt32(sorted[k].1), generation = UInt16(sorted[k].0.generation)
                data += [1, UInt8(offset >> 24), UInt8(offset >> 16 & 0xFF), UInt8(offset >> 8 & 0xFF), UInt8(offset & 0xFF), UInt8(generation >> 8), UInt8(generation & 0xFF)]
            }
            i = j + 1
        }
        var dictionary = trailer
        dictionary["Type"] = .name("XRef")
        dictionary["Size"] = .integer(number + 1)
        dictionary["W"] = .array([.integer(1), .integer(4), .integer(2)])
        dictionary["Index"] = .array(index)
        out += Array("\(number) 0 obj\n".utf8)
        PDFWriter.write(.stream(dictionary, data), to: &out)
        out += Array("\nendobj\nstartxref\n\(start)\n%%EOF\n".utf8)
    }

    /// The document's permanent identifier, kept; one made from its bytes when it had none.
    private static func firstID(_ document: PDFDocument) -> PDFObject {
        if let first = document.trailer["ID"]?.array?.first, first.string != nil { return first }
        return .string(newID(document.bytes[...]))
    }

    /// Sixteen bytes that differ with the content (FNV-1a over it, twice with different seeds).
    private static func newID(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var a: UInt64 = 0xcbf29ce484222325, b: UInt64 = 0x84222325cbf29ce4
        for x in bytes { a = (a ^ UInt64(x)) &* 0x100000001b3; b = (b ^ UInt64(x)) &* 0x100000001b3 }
        return (0..<8).map { UInt8(truncatingIfNeeded: a >> ($0 * 8)) } + (0..<8).map { UInt8(truncatingIfNeeded: b >> ($0 * 8)) }
    }
}
