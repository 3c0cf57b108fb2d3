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
