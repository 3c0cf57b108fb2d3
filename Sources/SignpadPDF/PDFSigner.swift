/// What goes into the signed revision besides the signature: the field's appearance and, when
/// there is one, the file associated with the signature.
public struct PDFSignatureContent: Sendable {
    /// A content stream drawing in the field's box, `[0 0 width height]` in points.
    public var appearance: [UInt8]
    /// Fonts the appearance names, by resource name: the standard 14 ones, not embedded.
    public var standardFonts: [String: String]
    /// `/M`: D:YYYYMMDDHHmmSSZ.
    public var signingTime: String
    public var reason: String?
    public var signer: String?
    public var location: String?
    public var attachment: Attachment?

    public struct Attachment: Sendable {
        public var name: String
        public var mimeType: String
        public var description: String
        public var bytes: [UInt8]

        public init(name: String, mimeType: String, description: String, bytes: [UInt8]) {
            self.name = name
            self.mimeType = mimeType
            self.description = description
            self.bytes = bytes
        }
    }

    public init(appearance: [UInt8], standardFonts: [String: String] = [:], signingTime: String, reason: String? = nil, signer: String? = nil,
                location: String? = nil, attachment: Attachment? = nil) {
        self.appearance = appearance
        self.standardFonts = standardFonts
        self.signingTime = signingTime
        self.reason = reason
        self.signer = signer
        self.location = location
        self.attachment = attachment
    }
}

/// A PAdES signature appended to a document as one incremental update: the field (found or
/// new) with its appearance, the associated file, and a signature dictionary with SubFilter
/// ETSI.CAdES.detached whose /Contents is the CMS that `sign` makes over the /ByteRange.
public enum PDFSigner {
    public static func sign(_ document: PDFDocument, at target: PDFSignatureTarget, pages: [PDFPage], content: PDFSignatureContent, reserved: Int,
                            sign: (ArraySlice<UInt8>, ArraySlice<UInt8>) throws -> [UInt8]) throws -> [UInt8] {
        var update = PDFIncrementalUpdate(document)
        let rect = target.rect
        var resources = PDFDictionary()
        if !content.standardFonts.isEmpty {
            var fonts = PDFDictionary()
            for (key, base) in content.standardFonts.sorted(by: { $0.key < $1.key }) {
                fonts[PDFName(stringLiteral: key)] = .dictionary(PDFDictionary([("Type", .name("Font")), ("Subtype", .name("Type1")),
                                                                               ("BaseFont", .name(PDFName(stringLiteral: base))), ("Encoding", .name("WinAnsiEncoding"))]))
            }
            resources["Font"] = .dictionary(fonts)
        }
        var associated: PDFObject?
        var attached: (name: String, specification: PDFReference)?
        if let attachment = content.attachment {
            let file = update.add(.stream(PDFDictionary([
                ("Type", .name("EmbeddedFile")), ("Subtype", .name(PDFName(stringLiteral: attachment.mimeType))),
                ("Params", .dictionary(PDFDictionary([("Size", .integer(attachment.bytes.count))]))),
            ]), attachment.bytes))
            let specification = update.add(.dictionary(PDFDictionary([
                ("Type", .name("Filespec")), ("F", .string(PDFText.encode(attachment.name))), ("UF", .string(PDFText.encode(attachment.name))),
                ("Desc", .string(PDFText.encode(attachment.description))), ("AFRelationship", .name("Data")),
                ("EF", .dictionary(PDFDictionary([("F", .reference(file)), ("UF", .reference(file))]))),
            ])))
            associated = .array([.reference(specification)])
            attached = (attachment.name, specification)
        }

        let appearance = update.add(.stream(PDFDictionary([
            ("Type", .name("XObject")), ("Subtype", .name("Form")), ("BBox", PDFRect(0, 0, rect.width, rect.height).object), ("Resources", .dictionary(resources)),
        ] + (associated.map { [(PDFName("AF"), $0)] } ?? [])), content.appearance))

        var signatureDictionary = PDFDictionary([("Type", .name("Sig")), ("Filter", .name("Adobe.PPKLite")), ("SubFilter", .name("ETSI.CAdES.detached")),
                                                 ("M", .string(Array(content.signingTime.utf8)))])
        if let reason = content.reason { signatureDictionary["Reason"] = .string(PDFText.encode(reason)) }
        if let signer = content.signer { signatureDictionary["Name"] = .string(PDFText.encode(signer)) }
        if let location = content.location { signatureDictionary["Location"] = .string(PDFText.encode(location)) }
        let signature = update.addSignature(signatureDictionary, reserved: reserved)

        let page = pages[target.pageIndex]
        let catalog = try document.catalog()
        var form = try document.resolve(catalog["AcroForm"]).dictionary ?? PDFDictionary()
        form["SigFlags"] = .integer(3)
        switch target {
        case .existing(let field, _):
            guard var fieldDictionary = try document.object(field.field).dictionary else { throw PDFError("the field \"\(field.name)\" is not a dictionary") }
            fieldDictionary["V"] = .reference(signature)
            if field.widget == field.field {
                widgetAppearance(&fieldDictionary, appearance)
            } else if var widget = try document.object(field.widget).dictionary {
                widgetAppearance(&widget, appearance)
                update.set(field.widget, to: .dictionary(widget))
            }
            update.set(field.field, to: .dictionary(fieldDictionary))
        case .new(let name, _, _):
            var widget = PDFDictionary([("Type", .name("Annot")), ("Subtype", .name("Widget")), ("FT", .name("Sig")), ("T", .string(PDFText.encode(name))),
                                        ("Rect", rect.object), ("P", .reference(page.reference)), ("V", .reference(signature))])
            widgetAppearance(&widget, appearance)
            let field = update.add(.dictionary(widget))
            try append(.reference(field), to: "Annots", of: page.reference, page.dictionary, &update)
            var fields = try document.resolve(form["Fields"]).array ?? []
            fields.append(.reference(field))
            if let shared = form["Fields"]?.reference { update.set(shared, to: .array(fields)) } else { form["Fields"] = .array(fields) }
        }
        var newCatalog = catalog
        if let formReference = catalog["AcroForm"]?.reference {
            update.set(formReference, to: .dictionary(form))
        } else {
            newCatalog["AcroForm"] = .dictionary(form)
        }
        // Listed in the embedded files only in a document no one signed yet: validators take a
        // change to the catalog's /Names after a signature for a change it does not allow.
        if let attached, try !document.signatureFields(pages: pages).contains(where: \.isSigned), try document.certification() == nil {
            try listAttachment(attached.name, attached.specification, in: &newCatalog, &update)
        }
        if newCatalog != catalog { update.set(document.rootReference, to: .dictionary(newCatalog)) }
        return try update.write(sign: sign)
    }

    /// The file also listed in the document's embedded files (§7.7.4), where attachment panels
    /// and `pdfdetach` look: added to a name tree of one level, or made one; a tree with
    /// intermediate nodes is left as it is (the widget's /AF still names the file).
    private static func listAttachment(_ name: String, _ specification: PDFReference, in catalog: inout PDFDictionary, _ update: inout PDFIncrementalUpdate) throws {
        let document = update.document
        let namesObject = catalog["Names"]
        var names = try document.resolve(namesObject).dictionary ?? PDFDictionary()
        let treeObject = names["EmbeddedFiles"]
        var tree = try document.resolve(treeObject).dictionary ?? PDFDictionary()
        guard tree["Kids"] == nil else { return }
        var pairs = try document.resolve(tree["Names"]).array ?? []
        let key = PDFText.encode(name)
        var at = 0
        while at + 1 < pairs.count, let existing = try document.resolve(pairs[at]).string, existing.lexicographicallyPrecedes(key) { at += 2 }
        pairs.insert(contentsOf: [.string(key), .reference(specification)], at: min(at, pairs.count))
        tree["Names"] = .array(pairs)
        tree["Limits"] = nil
        if let shared = treeObject?.reference { update.set(shared, to: .dictionary(tree)) } else { names["EmbeddedFiles"] = .dictionary(tree) }
        if let shared = namesObject?.reference {
            if treeObject?.reference == nil { update.set(shared, to: .dictionary(names)) }
        } else {
            catalog["Names"] = .dictionary(names)
        }
    }

    /// Print it (/F 4) and show it (/AP /N).
    private static func widgetAppearance(_ widget: inout PDFDictionary, _ appearance: PDFReference) {
        widget["F"] = .integer(4)
        widget["AP"] = .dictionary(PDFDictionary([("N", .reference(appearance))]))
    }

    /// `item` added to the array at `key` of the object `owner`: the array rewritten where it is
    /// an object of its own, else the owner.
    private static func append(_ item: PDFObject, to key: PDFName, of owner: PDFReference, _ dictionary: PDFDictionary, _ update: inout PDFIncrementalUpdate) throws {
        var items = try update.document.resolve(dictionary[key]).array ?? []
        items.append(item)
        if let shared = dictionary[key]?.reference {
            update.set(shared, to: .array(items))
        } else {
            var changed = dictionary
            changed[key] = .array(items)
            update.set(owner, to: .dictionary(changed))
        }
    }
}
