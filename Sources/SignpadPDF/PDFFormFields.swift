/// A signature field of the document's form (ISO 32000-1 §12.7, §12.7.4.5): its fully qualified
/// name, the dictionary that is its widget, where that sits, and whether it is signed.
public struct PDFSignatureField: Sendable {
    public let name: String
    /// The field's dictionary; with one widget merged into it (the usual form) it is the widget too.
    public let field: PDFReference
    public let widget: PDFReference
    public let rect: PDFRect
    /// The page whose /Annots holds the widget, by index; nil when no page lists it (a /P alone
    /// shows it on no page).
    public let pageIndex: Int?
    public let isSigned: Bool
}

extension PDFDocument {
    static let maxFields = 10_000

    /// Every signature field, in the form's order.
    public func signatureFields(pages: [PDFPage]) throws(PDFError) -> [PDFSignatureField] {
        try formFields(pages: pages).signatures
    }

    /// The signature fields, and the fully qualified name of every field of any kind.
    /// `unplaced`: signature fields with no widget or no usable rectangle.
    func formFields(pages: [PDFPage]) throws(PDFError) -> (signatures: [PDFSignatureField], names: Set<String>, unplaced: Set<String>) {
        guard let form = try resolve(catalog()["AcroForm"]).dictionary, let roots = try resolve(form["Fields"]).array else { return ([], [], []) }
        var found: [PDFSignatureField] = []
        var names = Set<String>(), unplaced = Set<String>()
        var seen = Set<PDFReference>(), visited = 0
        var pageOfAnnotation: [PDFReference: Int] = [:]
        for (index, page) in pages.enumerated() {
            for annotation in try resolve(page.dictionary["Annots"]).array ?? [] {
                if let r = annotation.reference, pageOfAnnotation[r] == nil { pageOfAnnotation[r] = index }
            }
        }
        func walk(_ reference: PDFReference, parentName: String?, inheritedType: PDFName?, depth: Int) throws(PDFError) {
            guard depth < PDFParser.maxDepth else { throw PDFError("the form's fields nest more than \(PDFParser.maxDepth) deep") }
            guard seen.insert(reference).inserted else { return }
            visited += 1
            guard visited <= Self.maxFields else { throw PDFError("the form has more than \(Self.maxFields) fields") }
            guard let node = try object(reference).dictionary else { return }
            let partial = try resolve(node["T"]).string.map(PDFText.decode)
            let name = [parentName, partial].compactMap { $0 }.joined(separator: ".")
            if !name.isEmpty { names.insert(name) }
            let type = try resolve(node["FT"]).name ?? inheritedType
            let kids = try resolve(node["Kids"]).array?.compactMap(\.reference) ?? []
            // Kids with a /T of their own are fields; kids without are this field's widgets.
            var widgets: [PDFReference] = []
            for kid in kids {
                if let k = try object(kid).dictionary, k["T"] == nil { widgets.append(kid) } else {
                    try walk(kid, parentName: name, inheritedType: type, depth: depth + 1)
                }
            }
            guard type == "Sig", partial != nil || parentName != nil else { return }
            if kids.isEmpty { widgets = [reference] }
            guard let widget = widgets.first, let widgetDictionary = try object(widget).dictionary,
                  let rect = PDFRect(try resolve(widgetDictionary["Rect"])) else {
                unplaced.insert(name)
                return
            }
            // On the page whose /Annots lists it: a widget only its /P names is shown nowhere.
            found.append(PDFSignatureField(name: name, field: reference, widget: widget, rect: rect, pageIndex: pageOfAnnotation[widget],
                                           isSigned: node["V"] != nil && node["V"] != .null))
        }
        for root in roots {
            if let r = root.reference { try walk(r, parentName: nil, inheritedType: nil, depth: 0) }
        }
        return (found, names, unplaced)
    }
}

extension PDFDocument {
    /// The certification's permissions (ISO 32000-1 §12.8.2.2, DocMDP /P): 1 no change, 2 form
    /// filling and signing, 3 also annotations; nil for a document not certified.
    public func certification() throws(PDFError) -> Int? {
        guard let permissions = try resolve(catalog()["Perms"]).dictionary, permissions["DocMDP"] != nil,
              let signature = try resolve(permissions["DocMDP"]).dictionary else { return nil }
        for reference in try resolve(signature["Reference"]).array ?? [] {
            guard let entry = try resolve(reference).dictionary, entry["TransformMethod"]?.name == "DocMDP" else { continue }
            return try resolve(try resolve(entry["TransformParams"]).dictionary?["P"]).integer ?? 2
        }
        return 2
    }
}
