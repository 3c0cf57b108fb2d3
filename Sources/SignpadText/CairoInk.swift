import CCairo
import SignpadInk
import SignpadVocabulary

/// Ink stroked with cairo, as an engineer would write it with a well-known library: each smoothed
/// piece a cairo path (round caps and joins, default antialiasing) stroked into a backing image,
/// the wet tail stroked over a copy of it, and the rectangle that changed copied out. It is
/// `signpad bench`'s peer (e), measured beside signpad's own renderer.
public final class CairoInk {
    public let width: Int
    public let height: Int
    private let background: UInt32
    private let ink: UInt32
    private let dry: OpaquePointer
    private let shown: OpaquePointer
    private let dryContext: OpaquePointer
    private let shownContext: OpaquePointer
    private var wetBounds = PixelRect(minX: 0, minY: 0, maxX: 0, maxY: 0)

    public init(width: Int, height: Int, background: UInt32 = 0xFFFFFF, ink: UInt32 = 0x000000) {
        self.width = width
        self.height = height
        self.background = background
        self.ink = ink
        dry = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height))
        shown = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height))
        dryContext = cairo_create(dry)
        shownContext = cairo_create(shown)
        for context in [dryContext, shownContext] {
            cairo_set_line_cap(context, CAIRO_LINE_CAP_ROUND)
            cairo_set_line_join(context, CAIRO_LINE_JOIN_ROUND)
        }
        _ = clear()
    }

    deinit {
        cairo_destroy(dryContext)
        cairo_destroy(shownContext)
        cairo_surface_destroy(dry)
        cairo_surface_destroy(shown)
    }

    private var bounds: PixelRect { PixelRect(minX: 0, minY: 0, maxX: width, maxY: height) }

    /// Both images back to the background; returns the whole frame.
    public func clear() -> PixelRect {
        for context in [dryContext, shownContext] {
            Self.setColor(context, background)
            cairo_paint(context)
        }
        wetBounds = PixelRect(minX: 0, minY: 0, maxX: 0, maxY: 0)
        return bounds
    }

    /// Strokes a piece into the backing image (and so, once restored, the shown one).
    public func strokeDry(_ piece: InkPiece) -> PixelRect {
        Self.setColor(dryContext, ink)
        switch piece {
        case .cubic(let s):
            cairo_set_line_width(dryContext, max(s.startWidth, s.endWidth))
            cairo_move_to(dryContext, s.p0.x, s.p0.y)
            cairo_curve_to(dryContext, s.c1.x, s.c1.y, s.c2.x, s.c2.y, s.p3.x, s.p3.y)
            cairo_stroke(dryContext)
        case .dot(let center, let diameter):
            cairo_arc(dryContext, center.x, center.y, diameter / 2, 0, 2 * Double.pi)
            cairo_fill(dryContext)
        }
        return piece.reach.intersection(bounds)
    }

    /// Draws one smoother step: its dry pieces for good, its wet tail in place of the last;
    /// returns the rectangle of the shown image that changed.
    public func apply(_ step: SmootherStep) -> PixelRect {
        var changed = wetBounds
        for piece in step.dry { changed = changed.union(strokeDry(piece)) }
        if !changed.isEmpty {
            cairo_set_source_surface(shownContext, dry, 0, 0)
            cairo_rectangle(shownContext, Double(changed.minX), Double(changed.minY), Double(changed.width), Double(changed.height))
            cairo_fill(shownContext)
        }
        wetBounds = PixelRect(minX: 0, minY: 0, maxX: 0, maxY: 0)
        guard step.wet.count > 0 else { return changed }
        Self.setColor(shownContext, ink)
        var widest = 0.0
        for (index, knot) in step.wet.enumerated() {
            widest = max(widest, knot.radius)
            if index == 0 { cairo_move_to(shownContext, knot.point.x, knot.point.y) } else { cairo_line_to(shownContext, knot.point.x, knot.point.y) }
            let r = knot.radius + 1
            let around = PixelRect(minX: Int((knot.point.x - r).rounded(.down)), minY: Int((knot.point.y - r).rounded(.down)),
                                   maxX: Int((knot.point.x + r).rounded(.up)) + 1, maxY: Int((knot.point.y + r).rounded(.up)) + 1)
            wetBounds = wetBounds.union(around)
        }
        if step.wet.count == 1 { cairo_close_path(shownContext) }
        cairo_set_line_width(shownContext, 2 * widest)
        cairo_stroke(shownContext)
        wetBounds = wetBounds.intersection(bounds)
        return changed.union(wetBounds)
    }

    /// The backing image shown whole, as after drawing it again from nothing; returns the whole frame.
    public func showDry() -> PixelRect {
        cairo_set_source_surface(shownContext, dry, 0, 0)
        cairo_paint(shownContext)
        wetBounds = PixelRect(minX: 0, minY: 0, maxX: 0, maxY: 0)
        return bounds
    }

    /// Copies `rect` of the shown image into `canvas` (as a kiosk copies it to the screen).
    public func copy(_ rect: PixelRect, into canvas: inout Canvas) {
        let r = rect.intersection(bounds).intersection(canvas.bounds)
        guard !r.isEmpty, let data = cairo_image_surface_get_data(shown) else { return }
        cairo_surface_flush(shown)
        let sourceStride = Int(cairo_image_surface_get_stride(shown)) / 4, stride = canvas.stride
        data.withMemoryRebound(to: UInt32.self, capacity: sourceStride * height) { source in
            canvas.pixels.withUnsafeMutableBufferPointer { target in
                for y in r.minY..<r.maxY {
                    (target.baseAddress! + y * stride + r.minX).update(from: source + y * sourceStride + r.minX, count: r.width)
                }
            }
        }
    }

    private static func setColor(_ context: OpaquePointer, _ rgb: UInt32) {
        cairo_set_source_rgb(context, Double((rgb >> 16) & 0xFF) / 255, Double((rgb >> 8) & 0xFF) / 255, Double(rgb & 0xFF) / 255)
    }
}
