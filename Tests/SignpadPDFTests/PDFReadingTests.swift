import Foundation
@testable import SignpadPDF
import SignpadTestSupport
import SignpadZlib
import Testing

/// What signpad reads of a document itself: objects, cross-references, pages and fields, and
/// the hostile files it must refuse by name rather than crash or hang on.
@Suite struct PDFReadingTests {
    static func parse(_ text: String) throws(PDFError) -> PDFObject {
        var parser = PDFParser(Array(text.utf8), at: 0)
        return try parser.object()
    }

    @Test func objectsReadAsISO32000DefinesThem() throws {
        #expect(try Self.parse("(a\\(b\\)c \\101\\n(nested))") == .string(Array("a(b)c A\n(nested)".utf8)))
        #expect(try Self.parse("<48 65 6c6C 6>") == .string([0x48, 0x65, 0x6C, 0x6C, 0x60]))
        #expect(try Self.parse("/A#20B") == .name(PDFName(bytes: Array("A B".utf8))))
        #expect(try Self.parse("[1 -2.5 .5 12 0 R true null]") == .array([.integer(1), .real(-2.5), .real(0.5), .reference(PDFReference(12)), .boolean(true), .null]))
        let dictionary = try Self.parse("<</Type/Page%comment\n/Kids[3 0 R]>>").dictionary
        #expect(dictionary?["Type"] == .name("Page"))
        #expect(dictionary?["Kids"] == .array([.reference(PDFReference(3))]))
    }

    @Test func deepNestingIsRefusedAtItsByte() {
        let text = String(repeating: "[", count: 10_000)
        #expect(throws: PDFError("objects nested more than 64 deep", at: 64)) { try Self.parse(text) }
    }

    @Test func writtenObjectsReadBack() throws {
        let object = PDFObject.dictionary(PDFDictionary([("N", .name(PDFName(bytes: Array("a/b c#".utf8)))), ("S", .string([0, 0x29, 0x5C, 0xFF])),
                                                          ("R", .real(-0.00004)), ("X", .real(12.34567))]))
        var bytes: [UInt8] = []
        PDFWriter.write(object, to: &bytes)
        var parser = PDFParser(bytes, at: 0)
        let read = try parser.object()
        #expect(read.dictionary?["N"] == .name(PDFName(bytes: Array("a/b c#".utf8))))
        #expect(read.dictionary?["S"] == .string([0, 0x29, 0x5C, 0xFF]))
        #expect(read.dictionary?["R"] == .integer(0))
        #expect(read.dictionary?["X"] == .real(12.3457))
    }

    @Test func aStreamThatInflatesBeyondItsLimitIsRefused() throws {
        let deflater = Deflater()
        let zeros = [UInt8](repeating: 0, count: 1 << 20)
        zeros.withUnsafeBufferPointer { deflater.append($0) }
        let compressed = deflater.finish()
        #expect(throws: InflateError.tooLarge(limit: 1000)) { try Zlib.inflate(compressed[...], limit: 1000) }
        #expect(throws: InflateError.truncated) { try Zlib.inflate(compressed.prefix(compressed.count / 2), limit: 1 << 21) }
        #expect(try Zlib.inflate(compressed[...], limit: 1 << 20) == zeros)
    }

    static func folder() throws -> String {
        let path = scratch()
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    /// Where `text` first is in `bytes`, after it (a document's streams are binary: no String).
    static func after(_ text: String, in bytes: [UInt8]) throws -> Int {
        try #require(PDFFileReader.find(Array(text.utf8), in: bytes, from: 0)) + text.utf8.count
    }

    @Test func aTruncatedDocumentIsRefusedByName() throws {
        let whole = try Self.bytes(TestDocuments.cairo(pages: 2, in: try Self.folder()))
        #expect(throws: PDFError("no \"startxref\" in the file's last 2 KiB: the file is truncated or not a PDF")) {
            try PDFDocument(bytes: Array(whole.prefix(whole.count / 2)))
        }
    }

    @Test func aBrokenCrossReferenceIsRefusedByName() throws {
        var bytes = try Self.bytes(TestDocuments.cairo(pages: 2, in: try Self.folder()))
        let at = try Self.after("\nxref\n", in: bytes)
        bytes.replaceSubrange(at..<(at + 3), with: Array("0 x".utf8))
        let error = #expect(throws: PDFError.self) {
            let document = try PDFDocument(bytes: bytes)
            _ = try document.pages()
        }
        #expect(error?.reason.contains("cross-reference") == true, "\(String(describing: error))")
    }

    @Test func aCrossReferenceThatPointsAtTheWrongObjectIsRefused() throws {
        var bytes = try Self.bytes(TestDocuments.cairo(pages: 1, in: try Self.folder()))
        // Every entry's offset moved by a thousand bytes: no object starts where the table says.
        var i = try Self.after("0000000000 65535 f", in: bytes) + 2
        while i + 20 <= bytes.count, bytes[i + 17] == UInt8(ascii: "n") {
            bytes[i + 6] = bytes[i + 6] == UInt8(ascii: "9") ? UInt8(ascii: "0") : bytes[i + 6] + 1
            i += 20
        }
        let error = #expect(throws: PDFError.self) {
            let document = try PDFDocument(bytes: bytes)
            _ = try document.pages()
        }
        #expect(error != nil)
    }

    /// A node with /Kids that calls itself neither /Pages nor /Page holds pages for poppler (and
    /// pdf.js): signpad counts them too, or the customer would be shown pages signpad never
    /// asked them to read. pdfinfo is the peer.
    @Test func pagesUnderANodeOfAnotherTypeAreCountedAsPopplerCountsThem() throws {
        try requirePeer(.tool("pdfinfo"))
        let bytes = HandPDF.onePage(more: [2: "<< /Type /Pages /Kids [3 0 R 5 0 R] /Count 3 >>",
                                           5: "<< /Type /Hidden /Kids [6 0 R 7 0 R] >>",
                                           6: "<< /Type /Page /MediaBox [0 0 595 842] >>",
                                           7: "<< /MediaBox [0 0 595 842] >>"])
        let pages = try PDFDocument(bytes: bytes).pages()
        #expect(pages.map(\.reference.number) == [3, 6, 7])
        let path = try Self.folder() + "/hidden.pdf"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let info = try run("pdfinfo", [path])
        #expect(info.output.contains("Pages:           3"), "\(info.output)")
    }

    @Test func aTenThousandPageDocumentIsReadWithItsPages() throws {
        let path = TestDocuments.cairo(pages: 10_000, in: try Self.folder())
        let document = try PDFDocument(bytes: try Self.bytes(path))
        let pages = try document.pages()
        #expect(pages.count == 10_000)
        #expect(pages[9_999].mediaBox == PDFRect(0, 0, 595, 842))
    }

    /// A rectangle off the page (pixels taken for points, or a top-left origin) is refused, as
    /// nobody would ever see the signature there; one on the page is taken.
    @Test func aRectangleOffThePageIsRefused() throws {
        let document = try PDFDocument(bytes: try Self.bytes(TestDocuments.cairo(pages: 1, in: try Self.folder())))
        let pages = try document.pages()
        #expect(throws: PDFError("the rectangle is not within page 1, which shows [0 0 595 842] (points from its bottom left)")) {
            try document.target(PDFSignaturePlacement(page: 1, rect: PDFRect(5000, 5000, 6000, 6000)), pages: pages)
        }
        #expect(throws: PDFError("the rectangle is not within page 1, which shows [0 0 595 842] (points from its bottom left)")) {
            try document.target(PDFSignaturePlacement(page: 1, rect: PDFRect(500, 800, 700, 900)), pages: pages)
        }
        #expect(try document.target(PDFSignaturePlacement(page: 1, rect: PDFRect(72, 82, 292, 142)), pages: pages).name == "Signature1")
    }

    @Test func aNewFieldIsNamedWithoutAPeriodAndAFieldSignedIsNotSignedAgain() throws {
        let document = try PDFDocument(bytes: try Self.bytes(TestDocuments.cairo(pages: 1, in: try Self.folder())))
        let pages = try document.pages()
        #expect(throws: PDFError("the document has no signature field \"Parent.Child\", and a new field's name cannot hold a period")) {
            try document.target(PDFSignaturePlacement(field: "Parent.Child", page: 1, rect: PDFRect(0, 0, 10, 10)), pages: pages)
        }
        #expect(throws: PDFError("page 2 was asked for; the document has 1")) {
            try document.target(PDFSignaturePlacement(page: 2, rect: PDFRect(0, 0, 10, 10)), pages: pages)
        }
        #expect(try document.target(PDFSignaturePlacement(field: "Customer", rect: PDFRect(0, 0, 10, 10)), pages: pages).name == "Customer")
    }

    @Test func aPageTreeThatLoopsIsRefused() throws {
        let document = """
        %PDF-1.4
        1 0 obj <</Type/Catalog/Pages 2 0 R>> endobj
        2 0 obj <</Type/Pages/Kids[2 0 R]/Count 1>> endobj

        """
        var bytes = Array(document.utf8)
        let o1 = try Self.after("1 0 obj", in: bytes) - 7, o2 = try Self.after("2 0 obj", in: bytes) - 7
        let xref = bytes.count
        bytes += Array("xref\n0 3\n0000000000 65535 f\r\n\(String(format: "%010d", o1)) 00000 n\r\n\(String(format: "%010d", o2)) 00000 n\r\ntrailer <</Size 3/Root 1 0 R>>\nstartxref\n\(xref)\n%%EOF\n".utf8)
        let parsed = try PDFDocument(bytes: bytes)
        #expect(throws: PDFError("the page tree reaches 2 0 R twice")) { try parsed.pages() }
    }
}

/// Issue 57's cold review: crafted documents that crashed the kiosk, signed what they should not,
/// or failed only once the customer had signed.
@Suite struct PDFHostileDocumentTests {
    static func sign(_ bytes: [UInt8], _ placement: PDFSignaturePlacement) throws -> [UInt8] {
        let document = try PDFDocument(bytes: bytes)
        let pages = try document.pages()
        let target = try document.target(placement, pages: pages)
        let content = PDFSignatureContent(appearance: [], signingTime: "D:20261128000000Z",
                                          attachment: .init(name: "a", mimeType: "application/pkcs7-mime", description: "", bytes: [1]))
        return try PDFSigner.sign(document, at: target, pages: pages, content: content, reserved: 16) { _, _ in [0x30, 0] }
    }

    static let rect = PDFRect(72, 82, 292, 142)

    @Test func anObjectStreamStartingBeforeItselfIsRefused() throws {
        #expect(throws: PDFError("object stream 5 puts object 1 past its end")) { try PDFDocument(bytes: HandPDF.catalogInObjectStream(first: -100_000)).pages() }
        #expect(try PDFDocument(bytes: HandPDF.catalogInObjectStream(first: 4)).pages().count == 1)
    }

    @Test func aFieldBeyondAnyPageIsNoFieldAndAHugeNumberIsWrittenBounded() throws {
        let bytes = HandPDF.onePage(page: "/Annots [5 0 R]", catalog: "/AcroForm << /Fields [5 0 R] >>",
                                    more: [5: "<< /Type /Annot /Subtype /Widget /FT /Sig /T (Big) /Rect [0 0 10000000000000000 50] /P 3 0 R >>"])
        #expect(throws: PDFError("the signature field \"Big\" has no widget with a usable /Rect")) { try Self.sign(bytes, PDFSignaturePlacement(field: "Big")) }
        #expect(PDFWriter.real(1e300) == "1000000000000" && PDFWriter.real(-.infinity) == "-1000000000000" && PDFWriter.real(.nan) == "0")
    }

    @Test func aGenerationBeyond65535IsNoReference() throws {
        let bytes = HandPDF.onePage(more: [2: "<< /Type /Pages /Kids [3 123456 R] /Count 1 >>"])
        #expect(throws: PDFError("unexpected \"R\"", at: 109)) { try PDFDocument(bytes: bytes).pages() }
        // A reference whose generation is not its object's names nothing (§7.3.10).
        let other = HandPDF.onePage(more: [2: "<< /Type /Pages /Kids [3 7 R] /Count 1 >>"])
        #expect(throws: PDFError("the page tree's 3 7 R is not a dictionary")) { try PDFDocument(bytes: other).pages() }
    }

    @Test func whatOnlySigningReadsFailsWhenTriedNotAfterTheCustomerSigned() throws {
        var bytes = HandPDF.onePage(page: "/Annots 6 0 R", more: [6: "[]"])
        let at = try #require(PDFFileReader.find(Array("6 0 obj".utf8), in: bytes, from: 0))
        bytes.replaceSubrange(at..<(at + 7), with: Array("9 9 xxx".utf8))
        #expect(throws: PDFError.self) { try Self.sign(bytes, PDFSignaturePlacement(page: 1, rect: Self.rect)) }
    }

    @Test func aWidgetNoPageListsIsOnNoPage() throws {
        let bytes = HandPDF.onePage(catalog: "/AcroForm << /Fields [5 0 R] >>",
                                    more: [5: "<< /Type /Annot /Subtype /Widget /FT /Sig /T (Hidden) /Rect [72 82 292 142] /P 3 0 R >>"])
        #expect(throws: PDFError("the signature field \"Hidden\" is on no page")) { try Self.sign(bytes, PDFSignaturePlacement(field: "Hidden")) }
    }

    @Test func aNewFieldTakesNoNameAnotherFieldHas() throws {
        let bytes = HandPDF.onePage(page: "/Annots [5 0 R]", catalog: "/AcroForm << /Fields [5 0 R] >>",
                                    more: [5: "<< /Type /Annot /Subtype /Widget /FT /Tx /T (Signature1) /Rect [72 300 292 330] /P 3 0 R >>"])
        let document = try PDFDocument(bytes: bytes)
        #expect(try document.target(PDFSignaturePlacement(page: 1, rect: Self.rect), pages: document.pages()).name == "Signature2")
        #expect(throws: PDFError("the field \"Signature1\" is not a signature field")) { try Self.sign(bytes, PDFSignaturePlacement(field: "Signature1", rect: Self.rect)) }
    }

    @Test func aCertifiedDocumentAllowingNoChangeIsNotSigned() throws {
        let bytes = HandPDF.onePage(catalog: "/Perms << /DocMDP 5 0 R >>", more: [
            5: "<< /Type /Sig /Reference [<< /Type /SigRef /TransformMethod /DocMDP /TransformParams << /Type /TransformParams /P 1 /V /1.2 >> >>] >>",
        ])
        #expect(throws: PDFError("the document is certified with no changes allowed (DocMDP 1): another signature would break its certification")) {
            try Self.sign(bytes, PDFSignaturePlacement(page: 1, rect: Self.rect))
        }
    }

    @Test func documentsWithoutAnIdentifierGetDifferentOnes() throws {
        let a = try Self.sign(HandPDF.onePage(), PDFSignaturePlacement(page: 1, rect: Self.rect))
        let b = try Self.sign(HandPDF.onePage(page: "/Rotate 0"), PDFSignaturePlacement(page: 1, rect: Self.rect))
        let first = { (bytes: [UInt8]) throws -> PDFObject? in try PDFDocument(bytes: bytes).trailer["ID"]?.array?.first }
        #expect(try first(a) != nil && first(a) != first(b))
    }
}
