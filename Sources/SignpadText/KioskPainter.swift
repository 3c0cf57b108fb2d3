#if canImport(Glibc)
import Glibc
import SignpadVocabulary
#endif
import CCairo
import CPango
import SignpadKiosk

/// Why the painter could not start.
public struct PainterError: Error, CustomStringConvertible, Equatable {
    public var description: String
}

/// Paints text and shapes into a canvas: shapes with cairo, text with Pango on cairo, so any
/// script comes out shaped and in order, with fonts found for what `kiosk.font` lacks.
public struct ChromePainter {
    public let style: KioskStyle
    private let backgroundImage: Canvas?

    public init(style: KioskStyle, backgroundImage path: String?, width: Int, height: Int) throws(PainterError) {
        self.style = style
        if let path {
            backgroundImage = try Self.loadPNG(path, fitTo: width, height)
        } else {
            backgroundImage = nil
        }
    }

    /// Paints the screen inside `rects` only; the rest of `canvas` stays as it is.
    public func paint(_ items: [ChromeItem], into canvas: inout Canvas, within rects: [PixelRect]) {
        let width = canvas.width, height = canvas.height, stride = canvas.stride
        canvas.pixels.withUnsafeMutableBytes { bytes in
            let surface = cairo_image_surface_create_for_data(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                                              CAIRO_FORMAT_RGB24, Int32(width), Int32(height), Int32(stride * 4))
            let cr = cairo_create(surface)
            defer {
                cairo_destroy(cr)
                cairo_surface_flush(surface)
                cairo_surface_destroy(surface)
            }
            for r in rects { cairo_rectangle(cr, Double(r.minX), Double(r.minY), Double(r.width), Double(r.height)) }
            cairo_clip(cr)
            setColor(cr, style.background)
            cairo_paint(cr)
            if let image = backgroundImage { paintImage(cr, image) }
            for item in items { draw(cr, item) }
        }
    }

    private func draw(_ cr: OpaquePointer?, _ item: ChromeItem) {
        let r = item.rect
        switch item.kind {
        case .text(let text, let size, let color):
            setColor(cr, color)
            centredText(cr, text, in: r, size: size)
        case .frame(let color, let lineWidth):
            setColor(cr, color)
            cairo_set_line_width(cr, lineWidth)
            cairo_rectangle(cr, Double(r.minX) + lineWidth / 2, Double(r.minY) + lineWidth / 2, Double(r.width) - lineWidth, Double(r.height) - lineWidth)
            cairo_stroke(cr)
        case .button(let label, let pressed):
            roundedRect(cr, r, radius: Double(r.height) / 5)
            setColor(cr, pressed ? style.buttonPressed : style.button)
            cairo_fill_preserve(cr)
            setColor(cr, style.boxBorder)
            cairo_set_line_width(cr, 2)
            cairo_stroke(cr)
            setColor(cr, style.text)
            centredText(cr, label, in: r, size: Double(r.height) * 0.4)
        case .line(let a, let b, let color, let width):
            setColor(cr, color)
            cairo_set_line_width(cr, width)
            cairo_move_to(cr, a.x, a.y)
            cairo_line_to(cr, b.x, b.y)
            cairo_stroke(cr)
        case .cross(let c, let size, let color):
            setColor(cr, color)
            cairo_set_line_width(cr, max(size / 8, 1.5))
            cairo_move_to(cr, c.x - size / 2, c.y - size / 2)
            cairo_line_to(cr, c.x + size / 2, c.y + size / 2)
            cairo_move_to(cr, c.x + size / 2, c.y - size / 2)
            cairo_line_to(cr, c.x - size / 2, c.y + size / 2)
            cairo_stroke(cr)
        }
    }

    /// Text centred in `r`, wrapped at its width (between words, or within one too long for a
    /// line); when it still does not fit, smaller, down to 6 px.
    private func centredText(_ cr: OpaquePointer?, _ text: String, in r: PixelRect, size: Double) {
        TextLayout.with(cr, font: style.font, text: text, width: Int(Double(r.width) * 0.95)) { layout in
            var fontSize = size
            var extents = layout.fit(size: fontSize)
            while (extents.height > r.height || extents.width > r.width) && fontSize > 6 {
                fontSize *= 0.9
                extents = layout.fit(size: fontSize)
            }
            cairo_move_to(cr, Double(r.minX) + Double(r.width) * 0.025, Double(r.minY) + Double(r.height - extents.height) / 2)
            pango_cairo_show_layout(cr, layout.layout)
        }
    }

    /// How many lines `text` takes at `size` px when wrapped at `width` px, as `centredText`
    /// draws it: a request's lines get that many rows.
    public func textRows(_ text: String, width: Int, size: Double) -> Int {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1, 1)
        let cr = cairo_create(surface)
        defer {
            cairo_destroy(cr)
            cairo_surface_destroy(surface)
        }
        return TextLayout.with(cr, font: style.font, text: text, width: Int(Double(width) * 0.95)) { layout in
            _ = layout.fit(size: size)
            return Int(pango_layout_get_line_count(layout.layout))
        }
    }

    private func roundedRect(_ cr: OpaquePointer?, _ r: PixelRect, radius: Double) {
        let x = Double(r.minX), y = Double(r.minY), w = Double(r.width), h = Double(r.height)
        cairo_new_sub_path(cr)
        cairo_arc(cr, x + w - radius, y + radius, radius, -Double.pi / 2, 0)
        cairo_arc(cr, x + w - radius, y + h - radius, radius, 0, Double.pi / 2)
        cairo_arc(cr, x + radius, y + h - radius, radius, Double.pi / 2, Double.pi)
        cairo_arc(cr, x + radius, y + radius, radius, Double.pi, 3 * Double.pi / 2)
        cairo_close_path(cr)
    }

    private func setColor(_ cr: OpaquePointer?, _ c: UInt32) {
        cairo_set_source_rgb(cr, Double((c >> 16) & 0xff) / 255, Double((c >> 8) & 0xff) / 255, Double(c & 0xff) / 255)
    }

    /// Larger than any screen signpad draws on; a bigger image would only cost memory (4 bytes a pixel).
    public static let maxImageSide = 8192

    /// cairo reports a file that is no PNG as "out of memory", and decodes a small file that
    /// claims a huge size in full; the header says both before any decoding.
    static func checkPNGHeader(_ path: String) throws(PainterError) {
        guard let file = fopen(path, "rb") else { return }  // cairo then names the error (file not found, …).
        defer { fclose(file) }
        var header = [UInt8](repeating: 0, count: 24)
        let count = fread(&header, 1, header.count, file)
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard count == header.count, Array(header[0..<8]) == signature, Array(header[12..<16]) == Array("IHDR".utf8) else {
            throw PainterError(description: "\(path): not a PNG file (it does not start with PNG's signature and header)")
        }
        func bigEndian(_ at: Int) -> Int { header[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        let (w, h) = (bigEndian(16), bigEndian(20))
        guard w <= maxImageSide, h <= maxImageSide else {
            throw PainterError(description: "\(path): the image is \(w)x\(h) pixels; expected at most \(maxImageSide)x\(maxImageSide) (it is scaled to the screen anyway)")
        }
    }

    private func paintImage(_ cr: OpaquePointer?, _ image: Canvas) {
        var copy = image
        copy.pixels.withUnsafeMutableBytes { bytes in
            let surface = cairo_image_surface_create_for_data(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_RGB24,
                                                              Int32(image.width), Int32(image.height), Int32(image.stride * 4))
            cairo_set_source_surface(cr, surface, 0, 0)
            cairo_paint(cr)
            cairo_surface_destroy(surface)
        }
    }

    /// Reads a PNG into a canvas, scaled to cover `width`×`height` (background images, tests).
    public static func loadPNG(_ path: String, fitTo width: Int? = nil, _ height: Int? = nil) throws(PainterError) -> Canvas {
        try checkPNGHeader(path)
        let image = cairo_image_surface_create_from_png(path)
        defer { cairo_surface_destroy(image) }
        guard cairo_surface_status(image) == CAIRO_STATUS_SUCCESS else {
            throw PainterError(description: "\(path): not a readable PNG (\(String(cString: cairo_status_to_string(cairo_surface_status(image)))))")
        }
        let iw = Int(cairo_image_surface_get_width(image)), ih = Int(cairo_image_surface_get_height(image))
        let w = width ?? iw, h = height ?? ih
        var canvas = Canvas(width: w, height: h)
        canvas.pixels.withUnsafeMutableBytes { bytes in
            let surface = cairo_image_surface_create_for_data(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_RGB24,
                                                              Int32(w), Int32(h), Int32(w * 4))
            let cr = cairo_create(surface)
            cairo_set_source_rgb(cr, 1, 1, 1)
            cairo_paint(cr)
            let scale = max(Double(w) / Double(iw), Double(h) / Double(ih))
            cairo_scale(cr, scale, scale)
            cairo_set_source_surface(cr, image, 0, 0)
            // Without PAD a scaled image fades into the white underneath at its edges.
            cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD)
            cairo_paint(cr)
            cairo_destroy(cr)
            cairo_surface_flush(surface)
            cairo_surface_destroy(surface)
        }
        for i in canvas.pixels.indices { canvas.pixels[i] &= 0xFFFFFF }
        return canvas
    }
}

/// One Pango layout of a text in a font, wrapped at a width, centred, its direction from its text.
struct TextLayout {
    let layout: OpaquePointer
    let font: OpaquePointer

    static func with<T>(_ cr: OpaquePointer?, font name: String, text: String, width: Int, _ body: (TextLayout) -> T) -> T {
        let layout = pango_cairo_create_layout(cr)!
        let font = pango_font_description_from_string(name)!
        defer {
            pango_font_description_free(font)
            signpad_pango_unref(UnsafeMutableRawPointer(layout))
        }
        pango_layout_set_text(layout, text, -1)
        pango_layout_set_width(layout, Int32(width) * PANGO_SCALE)
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
        // A right-to-left paragraph (Arabic, Hebrew) takes its direction from its first strong letter.
        pango_layout_set_auto_dir(layout, 1)
        return body(TextLayout(layout: layout, font: font))
    }

    /// Sets the size (px) and returns the laid-out text's size in pixels.
    func fit(size: Double) -> (width: Int, height: Int) {
        pango_font_description_set_absolute_size(font, size * Double(PANGO_SCALE))
        pango_layout_set_font_description(layout, font)
        var ink = PangoRectangle(), logical = PangoRectangle()
        pango_layout_get_pixel_extents(layout, &ink, &logical)
        return (Int(logical.width), Int(logical.height))
    }
}
