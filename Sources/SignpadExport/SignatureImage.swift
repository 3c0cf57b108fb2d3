import SignpadInk

/// The signature drawn on its own: trimmed to the ink plus a margin, scaled, exactly as the
/// screen's renderer draws it. The PNG and the SVG share this geometry.
public struct SignatureImage {
    public let width: Int
    public let height: Int
    /// Added to screen coordinates before scaling.
    public let offset: Point
    public let scale: Double
    public let pieces: [[InkPiece]]
    public let pen: SmootherOptions

    public init(_ signature: Signature, pen screenPen: SmootherOptions, options: ExportOptions) {
        let pen = screenPen.scaled(options.scale)
        let pad = screenPen.maxWidth / 2 + 1 + Double(options.margin) / options.scale
        let bounds = signature.bounds ?? (Point(0, 0), Point(0, 0))
        offset = Point(pad - bounds.min.x, pad - bounds.min.y)
        scale = options.scale
        width = max(Int(((bounds.max.x - bounds.min.x + 2 * pad) * scale).rounded(.up)), 1)
        height = max(Int(((bounds.max.y - bounds.min.y + 2 * pad) * scale).rounded(.up)), 1)
        self.pen = pen
        pieces = signature.transformed(offset: offset, scale: scale).pieces(options: pen)
    }

    public func render(background: UInt32, ink: UInt32) -> InkRenderer {
        var renderer = InkRenderer(width: width, height: height, backgroundColor: background, inkColor: ink)
        var dirty = DirtyRegion()
        for stroke in pieces { for piece in stroke { renderer.drawDry(piece, dirty: &dirty) } }
        return renderer
    }

    public func png(transparent: Bool, ink: UInt32, text: [(keyword: String, value: String)] = []) -> [UInt8] {
        let renderer = render(background: 0xFFFFFF, ink: ink)
        if transparent {
            return PNGEncoder.encode(width: width, height: height, channels: .rgba, text: text) { x, y in
                UInt32(renderer.dryCoverage(x: x, y: y)) << 24 | (ink & 0xFFFFFF)
            }
        }
        return PNGEncoder.encode(width: width, height: height, channels: .rgb, text: text) { x, y in renderer.canvas[x, y] }
    }
}
