/// A rectangle in a page's default user space, in points: `[llx lly urx ury]`, normalised.
public struct PDFRect: Equatable, Sendable {
    public var minX, minY, maxX, maxY: Double
    public var width: Double { maxX - minX }
    public var height: Double { maxY - minY }

    public init(_ a: Double, _ b: Double, _ c: Double, _ d: Double) {
        minX = min(a, c); minY = min(b, d); maxX = max(a, c); maxY = max(b, d)
    }

    /// Points beyond any real page: a crafted rectangle of 1e16 is no rectangle.
    static let limit = 1e7

    init?(_ object: PDFObject?) {
        guard let numbers = object?.array?.compactMap(\.number), numbers.count == 4, numbers.allSatisfy({ $0.isFinite && abs($0) <= Self.limit }) else { return nil }
        self.init(numbers[0], numbers[1], numbers[2], numbers[3])
    }

    var object: PDFObject { .array([minX, minY, maxX, maxY].map(PDFWriter.number)) }
}

/// One page as the page tree gives it, with what it inherits.
public struct PDFPage: Sendable {
    public let reference: PDFReference
    public let dictionary: PDFDictionary
    public let mediaBox: PDFRect
    /// The part shown: the crop box within the media box.
    public let cropBox: PDFRect
    /// Degrees clockwise the page is turned when shown (0, 90, 180, 270).
    public let rotate: Int
}

extension PDFDocument {
    public static let maxPages = 100_000

    /// The pages in order, from the catalog's page tree.
    public func pages() throws(PDFError) -> [PDFPage] {
        guard let root = try catalog()["Pages"]?.reference else { throw PDFError("the catalog has no /Pages") }
        var pages: [PDFPage] = []
        var seen = Set<PDFReference>()
        struct Inherited { var mediaBox: PDFRect?, cropBox: PDFRect?, rotate: Int? }
        func walk(_ reference: PDFReference, _ inherited: Inherited, depth: Int) throws(PDFError) {
            guard depth < PDFParser.maxDepth else { throw PDFError("the page tree is more than \(PDFParser.maxDepth) levels deep") }
            guard seen.insert(reference).inserted else { throw PDFError("the page tree reaches \(reference) twice") }
            guard let node = try object(reference).dictionary else { throw PDFError("the page tree's \(reference) is not a dictionary") }
            var here = inherited
            if let box = PDFRect(try resolve(node["MediaBox"])) { here.mediaBox = box }
            if let box = PDFRect(try resolve(node["CropBox"])) { here.cropBox = box }
            if let turn = try resolve(node["Rotate"]).integer { here.rotate = turn }
            // As poppler and pdf.js walk it: a node with /Kids is a node of pages unless it says it
            // is a page, whatever else its /Type says. Read otherwise, the pages the customer is
            // shown (poppler's) would not be the pages signpad counts and signs.
            if node["Type"]?.name != "Page" && node["Kids"] != nil {
                guard let kids = try resolve(node["Kids"]).array else { throw PDFError("the page tree's \(reference) has no /Kids") }
                for kid in kids {
                    guard let r = kid.reference else { throw PDFError("the page tree's \(reference) has a kid that is not a reference") }
                    try walk(r, here, depth: depth + 1)
                }
            } else {
                guard pages.count < Self.maxPages else { throw PDFError("the document has more than \(Self.maxPages) pages") }
                let media = here.mediaBox ?? PDFRect(0, 0, 612, 792)
                var crop = here.cropBox ?? media
                crop = PDFRect(max(crop.minX, media.minX), max(crop.minY, media.minY), min(crop.maxX, media.maxX), min(crop.maxY, media.maxY))
                let turn = ((here.rotate ?? 0) % 360 + 360) % 360
                pages.append(PDFPage(reference: reference, dictionary: node, mediaBox: media, cropBox: crop, rotate: turn - turn % 90))
            }
        }
        try walk(root, Inherited(), depth: 0)
        guard !pages.isEmpty else { throw PDFError("the document has no pages") }
        return pages
    }
}
