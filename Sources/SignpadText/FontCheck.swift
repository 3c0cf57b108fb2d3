import CCairo

/// Whether the kiosk's words will look right in its font, said before a customer sees them.
/// cairo draws each label with the one font fontconfig resolves `kiosk.font` to, with no fallback:
/// a character that font lacks shows as a box. And it lays text out left to right, glyph by glyph:
/// right-to-left scripts come out reversed, Arabic letters unjoined.
public enum FontCheck {
    /// One line per label with a problem, naming its key and what to do; empty when all is well.
    public static func problems(font: String, labels: [(key: String, text: String)]) -> [String] {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1, 1)
        let cr = cairo_create(surface)
        defer {
            cairo_destroy(cr)
            cairo_surface_destroy(surface)
        }
        cairo_select_font_face(cr, font, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        let scaled = cairo_get_scaled_font(cr)
        var problems: [String] = []
        for (key, text) in labels {
            let missing = distinctScalars(text).filter { isDrawn($0) && !hasGlyph($0, scaled) }
            if let first = missing.first {
                problems.append("\(key): the font \"\(font)\" (kiosk.font, as `fc-match \"\(font)\"` resolves it) has no glyph for "
                                + "\(listed(missing)): customers would see boxes; name a font that has them in kiosk.font "
                                + "(`fc-list ':charset=\(String(first.value, radix: 16))' family` lists those installed)")
            }
            let backwards = distinctScalars(text).filter(isRightToLeft)
            if !backwards.isEmpty {
                problems.append("\(key): right-to-left text (\(listed(backwards))) is drawn left to right, letter by letter "
                                + "and unjoined: signpad lays text out without bidirectional order or shaping")
            }
        }
        return problems
    }

    private static func distinctScalars(_ text: String) -> [Unicode.Scalar] {
        var seen = Set<Unicode.Scalar>()
        return text.unicodeScalars.filter { seen.insert($0).inserted }
    }

    /// Control and format characters (joiners, marks of direction) have no glyph of their own.
    private static func isDrawn(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: false
        default: true
        }
    }

    /// Glyph 0 is the font's "missing glyph", the box.
    private static func hasGlyph(_ scalar: Unicode.Scalar, _ font: OpaquePointer?) -> Bool {
        var glyphs: UnsafeMutablePointer<cairo_glyph_t>?
        var count: Int32 = 0
        let status = cairo_scaled_font_text_to_glyphs(font, 0, 0, String(scalar), -1, &glyphs, &count, nil, nil, nil)
        defer { cairo_glyph_free(glyphs) }
        guard status == CAIRO_STATUS_SUCCESS, let glyphs, count > 0 else { return false }
        return (0..<Int(count)).allSatisfy { glyphs[$0].index != 0 }
    }

    /// Hebrew, Arabic and the other scripts of the right-to-left blocks, with their presentation forms.
    private static func isRightToLeft(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF: true
        default: false
        }
    }

    /// At most five, each as itself and its code point: `署 (U+7F72), 名 (U+540D)`.
    private static func listed(_ scalars: [Unicode.Scalar]) -> String {
        let shown = scalars.prefix(5).map { "\($0) (\($0.codePoint))" }
        return shown.joined(separator: ", ") + (scalars.count > 5 ? " and \(scalars.count - 5) more" : "")
    }
}
