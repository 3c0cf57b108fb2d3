import CCairo
import Foundation
import SignpadTestSupport

/// Documents the tests sign, made by other programs than signpad: cairo's PDF surface, and
/// pyHanko for a document with a signature field or a signature already in it.
enum TestDocuments {
    /// An A4 document of `pages` pages from cairo's PDF surface, each saying its number.
    static func cairo(pages: Int, in folder: String) -> String {
        let path = "\(folder)/cairo-\(pages).pdf"
        let surface = cairo_pdf_surface_create(path, 595, 842)
        let context = cairo_create(surface)
        for page in 1...pages {
            cairo_select_font_face(context, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
            cairo_set_font_size(context, 24)
            cairo_move_to(context, 72, 100)
            cairo_show_text(context, "Contract, page \(page) of \(pages)")
            cairo_rectangle(context, 72, 700, 220, 60)
            cairo_stroke(context)
            cairo_show_page(context)
        }
        cairo_destroy(context)
        cairo_surface_finish(surface)
        cairo_surface_destroy(surface)
        return path
    }

    /// `document` with an empty signature field added by `pyhanko sign addfields`.
    static func withField(_ document: String, name: String, page: Int = 1, box: String = "72,82,292,142") throws -> String {
        let out = document.replacingOccurrences(of: ".pdf", with: "-field.pdf")
        let result = try run("pyhanko", ["sign", "addfields", "--field", "\(page)/\(box)/\(name)", document, out])
        guard result.status == 0 else { throw TestFailure("pyhanko sign addfields: \(result.output)") }
        return out
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Small documents written by hand, object by object, for what no program makes on purpose.
enum HandPDF {
    /// A classic cross-reference table over `objects` (number: body), the catalog object 1.
    static func build(_ objects: [Int: String]) -> [UInt8] {
        var out = Array("%PDF-1.7\n%\u{E2}\u{E3}\u{CF}\u{D3}\n".utf8)
        var offsets: [Int: Int] = [:]
        for number in objects.keys.sorted() {
            offsets[number] = out.count
            out += Array("\(number) 0 obj\n\(objects[number]!)\nendobj\n".utf8)
        }
        let xref = out.count, size = (objects.keys.max() ?? 0) + 1
        out += Array("xref\n0 \(size)\n0000000000 65535 f\r\n".utf8)
        for number in 1..<size {
            let entry = offsets[number].map { String(format: "%010d 00000 n\r\n", $0) } ?? "0000000000 00000 f\r\n"
            out += Array(entry.utf8)
        }
        out += Array("trailer\n<< /Size \(size) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n".utf8)
        return out
    }

    /// One A4 page; `page` and `catalog` add entries to the page's and the catalog's dictionaries.
    static func onePage(page: String = "", catalog: String = "", more: [Int: String] = [:]) -> [UInt8] {
        var objects: [Int: String] = [
            1: "<< /Type /Catalog /Pages 2 0 R \(catalog) >>",
            2: "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            3: "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R \(page) >>",
            4: "<< /Length 0 >>\nstream\n\nendstream",
        ]
        objects.merge(more) { $1 }
        return build(objects)
    }

    /// The catalog in an object stream whose /First is `first`, behind a cross-reference stream.
    static func catalogInObjectStream(first: Int) -> [UInt8] {
        var out = Array("%PDF-1.7\n".utf8)
        var entries: [Int: (Int, Int, Int)] = [:]
        for (number, body) in [(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>"), (3, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>")] {
            entries[number] = (1, out.count, 0)
            out += Array("\(number) 0 obj\n\(body)\nendobj\n".utf8)
        }
        let catalog = "<< /Type /Catalog /Pages 2 0 R >>\n", header = "1 0 "
        entries[1] = (2, 5, 0)
        entries[5] = (1, out.count, 0)
        out += Array("5 0 obj\n<< /Type /ObjStm /N 1 /First \(first) /Length \(header.utf8.count + catalog.utf8.count) >>\nstream\n\(header)\(catalog)\nendstream\nendobj\n".utf8)
        entries[6] = (1, out.count, 0)
        var rows: [UInt8] = []
        for number in 0..<7 {
            let (type, a, b) = entries[number] ?? (0, 0, 0)
            rows += [UInt8(type), UInt8(a >> 24 & 0xFF), UInt8(a >> 16 & 0xFF), UInt8(a >> 8 & 0xFF), UInt8(a & 0xFF), UInt8(b >> 8), UInt8(b & 0xFF)]
        }
        let xref = out.count
        out += Array("6 0 obj\n<< /Type /XRef /Size 7 /W [1 4 2] /Root 1 0 R /Length \(rows.count) >>\nstream\n".utf8) + rows
        out += Array("\nendstream\nendobj\nstartxref\n\(xref)\n%%EOF\n".utf8)
        return out
    }
}
