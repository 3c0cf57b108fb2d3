import CCairo
import CPango

/// Whether the kiosk's words will look right, said before a customer sees them. Pango draws each
/// character in `kiosk.font` where it has it and in another installed font where not, and shapes
/// and orders every script; a character no installed font has shows as a box.
public enum FontCheck {
    /// One line per label with a problem, naming its key and what to do; empty when all is well.
    public static func problems(font: String, labels: [(key: String, text: String)]) -> [String] {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1, 1)
        let cr = cairo_create(surface)
        defer {
            cairo_destroy(cr)
            cairo_surface_destroy(surface)
        }
        var problems: [String] = []
        if let used = substitute(for: font) {
            problems.append("kiosk.font: no installed font is called \"\(font)\"; text is drawn in \"\(used)\" instead "
                            + "(`fc-list : family` lists the fonts installed; install the one named, or name one of those)")
        }
        for (key, text) in labels {
            let missing = distinctScalars(text).filter { isDrawn($0) && !hasGlyph($0, font: font, cr) }
            if let first = missing.first {
                problems.append("\(key): no installed font has a glyph for \(listed(missing)) (kiosk.font \"\(font)\" is used where it has "
                                + "one, any other installed font where not): customers would see boxes; install a font package that "
                                + "covers the script, such as one of Debian's fonts-noto-* (`fc-list ':charset=\(String(first.value, radix: 16))' family` "
                                + "lists the fonts installed that have it)")
            }
        }
        return problems
    }

    /// fontconfig's generic names, which stand for whatever font it prefers.
    private static let genericFamilies: Set<String> = ["sans", "sans-serif", "serif", "monospace", "mono", "system-ui", "cursive", "fantasy"]

    /// The family fontconfig draws `font` in, when that is not the family named: a name that
    /// matches no installed font is quietly replaced by the default.
    static func substitute(for font: String) -> String? {
        let description = pango_font_description_from_string(font)
        defer { pango_font_description_free(description) }
        guard let named = pango_font_description_get_family(description).map({ String(cString: $0) }),
              !genericFamilies.contains(named.lowercased()) else { return nil }
        let map = pango_cairo_font_map_get_default()
        let context = pango_font_map_create_context(map)
        defer { signpad_pango_unref(UnsafeMutableRawPointer(context)) }
        guard let loaded = pango_font_map_load_font(map, context, description) else { return nil }
        defer { signpad_pango_unref(UnsafeMutableRawPointer(loaded)) }
        let actual = pango_font_describe(loaded)
        defer { pango_font_description_free(actual) }
        guard let family = pango_font_description_get_family(actual).map({ String(cString: $0) }) else { return nil }
        return family.lowercased() == named.lowercased() ? nil : family
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

    /// Whether Pango finds a glyph for it in the font or one it falls back to.
    private static func hasGlyph(_ scalar: Unicode.Scalar, font: String, _ cr: OpaquePointer?) -> Bool {
        TextLayout.with(cr, font: font, text: String(scalar), width: 1 << 20) { layout in
            _ = layout.fit(size: 20)
            return pango_layout_get_unknown_glyphs_count(layout.layout) == 0
        }
    }

    /// At most five, each as itself and its code point: `署 (U+7F72), 名 (U+540D)`.
    private static func listed(_ scalars: [Unicode.Scalar]) -> String {
        let shown = scalars.prefix(5).map { "\($0) (\($0.codePoint))" }
        return shown.joined(separator: ", ") + (scalars.count > 5 ? " and \(scalars.count - 5) more" : "")
    }
}
