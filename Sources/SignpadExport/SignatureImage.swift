import SignpadInk
import SignpadVocabulary

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
    /// Where ink may be, in the image's pixels: the screen's ink area, moved and scaled as the
    /// strokes are; the whole image when the record has none.
    public let clip: PixelRect

    /// `inkArea` in screen pixels (`SignatureRecord.inkArea`): ink outside it, clipped on the
    /// screen, is clipped here too, so the image is what the customer saw.
    public init(_ signature: Signature, pen screenPen: SmootherOptions, options: ExportOptions, inkArea: PixelRect? = nil) {
        let pen = screenPen.scaled(options.scale)
        // The ink's extent (the samples and half the widest pen, and a pixel of antialiasing),
        // within the ink area, then the margin around it.
        let inkPad = screenPen.maxWidth / 2 + 1
        let bounds = signature.bounds ?? (Point(0, 0), Point(0, 0))
        var low = Point(bounds.min.x - inkPad, bounds.min.y - inkPad), high = Point(bounds.max.x + inkPad, bounds.max.y + inkPad)
        if let inkArea {
            low = Point(max(low.x, Double(inkArea.minX)), max(low.y, Double(inkArea.minY)))
            high = Point(max(min(high.x, Double(inkArea.maxX)), low.x), max(min(high.y, Double(inkArea.maxY)), low.y))
        }
        let margin = Double(options.margin) / options.scale
        offset = Point(margin - low.x, margin - low.y)
        scale = options.scale
        width = max(Int(((high.x - low.x + 2 * margin) * scale).rounded(.up)), 1)
        height = max(Int(((high.y - low.y + 2 * margin) * scale).rounded(.up)), 1)
        self.pen = pen
        pieces = signature.transformed(offset: offset, scale: scale).pieces(options: pen)
        let whole = PixelRect(minX: 0, minY: 0, maxX: width, maxY: height)
        if let area = inkArea {
            let shift = offset, factor = scale
            func place(_ v: Int, _ by: Double) -> Int { Int(((Double(v) + by) * factor).rounded()) }
            clip = PixelRect(minX: place(area.minX, shift.x), minY: place(area.minY, shift.y),
                             maxX: place(area.maxX, shift.x), maxY: place(area.maxY, shift.y)).intersection(whole)
        } else {
            clip = whole
        }
    }

    /// Rows drawn at a time: an image's memory is a band's levels, whatever its size.
    public static let bandRows = 64

    /// The dry ink's coverage in `rows` of the image, inside its clip.
    public func coverage(rows: Range<Int>) -> InkCoverage {
        let band = PixelRect(minX: 0, minY: rows.lowerBound, maxX: width, maxY: rows.upperBound).intersection(clip)
        var coverage = InkCoverage(clip: band.isEmpty ? PixelRect(minX: 0, minY: 0, maxX: 0, maxY: 0) : band)
        for stroke in pieces { for piece in stroke { coverage.draw(piece) } }
        return coverage
    }

    /// Over white, or with the ink's coverage as alpha; drawn and compressed a band at a time.
    public func png(transparent: Bool, ink: UInt32, text: [(keyword: String, value: String)] = []) -> [UInt8] {
        var rows = 0..<0, band = coverage(rows: rows)
        func level(_ x: Int, _ y: Int) -> UInt8 {
            if !rows.contains(y) {
                rows = y..<min(y + Self.bandRows, height)
                band = coverage(rows: rows)
            }
            return band.level(x: x, y: y)
        }
        if transparent {
            return PNGEncoder.encode(width: width, height: height, channels: .rgba, text: text) { x, y in
                UInt32(level(x, y)) << 24 | (ink & 0xFFFFFF)
            }
        }
        return PNGEncoder.encode(width: width, height: height, channels: .rgb, text: text) { x, y in
            XRGB.blend(0xFFFFFF, ink, level(x, y))
        }
    }
}
