/// Where a request's signature goes: a field by name, else the first unsigned signature field,
/// else a rectangle on a page (a new field).
public struct PDFSignaturePlacement: Equatable, Sendable {
    public var field: String?
    /// 1 for the first page.
    public var page: Int?
    /// `[x0, y0, x1, y1]` in points in the page's default user space (origin bottom left).
    public var rect: PDFRect?

    public init(field: String? = nil, page: Int? = nil, rect: PDFRect? = nil) {
        self.field = field
        self.page = page
        self.rect = rect
    }
}

/// The place a placement found in one document.
public enum PDFSignatureTarget: Sendable {
    case existing(PDFSignatureField, pageIndex: Int)
    case new(name: String, pageIndex: Int, rect: PDFRect)

    public var pageIndex: Int {
        switch self {
        case .existing(_, let i), .new(_, let i, _): i
        }
    }

    public var rect: PDFRect {
        switch self {
        case .existing(let field, _): field.rect
        case .new(_, _, let rect): rect
        }
    }

    public var name: String {
        switch self {
        case .existing(let field, _): field.name
        case .new(let name, _, _): name
        }
    }
}

extension PDFDocument {
    /// The target `placement` finds, or why there is none.
    public func target(_ placement: PDFSignaturePlacement, pages: [PDFPage]) throws(PDFError) -> PDFSignatureTarget {
        let (fields, names, unplaced) = try formFields(pages: pages)
        let certified = try certification()
        if certified == 1 { throw PDFError("the document is certified with no changes allowed (DocMDP 1): another signature would break its certification") }
        func pageIndex(of field: PDFSignatureField) throws(PDFError) -> Int {
            guard let i = field.pageIndex else { throw PDFError("the signature field \"\(field.name)\" is on no page") }
            return i
        }
        if let name = placement.field, let field = fields.first(where: { $0.name == name }) {
            guard !field.isSigned else { throw PDFError("the signature field \"\(name)\" is already signed") }
            return .existing(field, pageIndex: try pageIndex(of: field))
        }
        if placement.field == nil, let field = fields.first(where: { !$0.isSigned && $0.pageIndex != nil }) {
            return .existing(field, pageIndex: try pageIndex(of: field))
        }
        if let name = placement.field, unplaced.contains(name) { throw PDFError("the signature field \"\(name)\" has no widget with a usable /Rect") }
        if let name = placement.field, names.contains(name) { throw PDFError("the field \"\(name)\" is not a signature field") }
        guard let rect = placement.rect else {
            if let name = placement.field { throw PDFError("the document has no signature field \"\(name)\", and no rectangle was given") }
            throw PDFError("the document has no unsigned signature field, and no rectangle was given")
        }
        let page = placement.page ?? 1
        guard (1...pages.count).contains(page) else { throw PDFError("page \(page) was asked for; the document has \(pages.count)") }
        guard rect.width >= 1, rect.height >= 1 else { throw PDFError("the rectangle is less than a point wide or high") }
        // Inside what the page shows: one off it (pixels taken for points, a top-left origin)
        // would be signed where nobody ever sees the signature.
        let box = pages[page - 1].cropBox
        guard rect.minX >= box.minX - 1, rect.minY >= box.minY - 1, rect.maxX <= box.maxX + 1, rect.maxY <= box.maxY + 1 else {
            let shown = [box.minX, box.minY, box.maxX, box.maxY].map { String(Int($0.rounded())) }.joined(separator: " ")
            throw PDFError("the rectangle is not within page \(page), which shows [\(shown)] (points from its bottom left)")
        }
        // A period joins a field's name to its parent's (ISO 32000-1 §12.7.3.2): a new one has none.
        if let name = placement.field, name.contains(".") { throw PDFError("the document has no signature field \"\(name)\", and a new field's name cannot hold a period") }
        // A certification allowing form filling and signing (DocMDP 2) allows no new field.
        if certified == 2 { throw PDFError("the document is certified for signing its own fields only (DocMDP 2), and has no unsigned signature field to sign") }
        var name = placement.field ?? "Signature1"
        var n = 1
        while names.contains(name) { n += 1; name = "Signature\(n)" }
        return .new(name: name, pageIndex: page - 1, rect: rect)
    }
}
