import SignpadVocabulary
/// Dry ink's coverage over a rectangle, with no picture under it: what an exported image is
/// made of. An image is drawn a band of rows at a time (`clip` one band), so one of any size
/// never holds a frame of its own; the rasteriser and the levels are the renderer's, so a
/// piece gives the same levels here as on the screen, whichever band it is drawn in.
public struct InkCoverage {
    public let clip: PixelRect
    private let layout: LevelLayout
    private var levels: LevelStore
    private var rasterizer = InkRasterizer()
    /// The planes' per-row tables, indexed from row 0 as the renderer's are; nothing here
    /// reads them back.
    private var spans: [Int32]
    /// Every row's picture reads as plain paper (`Planes.row`), and no pixel is ever painted.
    private let plainRows: [UInt32]
    private let noSlots = [0]

    public init(clip: PixelRect) {
        self.clip = clip
        layout = LevelLayout(clip: clip)
        levels = LevelStore(layout)
        let rows = max(clip.maxY, 0)
        spans = RowSpanTable.storage(height: rows, tables: 1)
        plainRows = [UInt32](repeating: 0, count: max(rows, 1))
    }

    /// Raises the levels to the piece's ink, inside the clip.
    public mutating func draw(_ piece: InkPiece) {
        guard !piece.reach.intersection(clip).isEmpty else { return }
        rasterizer.flatten(piece, tolerance: InkRasterizer.tolerance)
        let layout = self.layout, clip = self.clip, rows = max(clip.maxY, 0), rasterizer = self.rasterizer
        var rasterised = 0
        withUnsafeMutablePointer(to: &rasterised) { counter in
            noSlots.withUnsafeBufferPointer { slots in
                plainRows.withUnsafeBufferPointer { plain in
                    spans.withUnsafeMutableBufferPointer { tables in
                        levels.withBase { lv in
                            // The picture's pointers are never followed: every row is the paper
                            // (0), so no background is read, and nothing is painted.
                            let paper = plain.baseAddress!
                            let planes = Planes(levels: lv, layout: layout, pixels: UnsafeMutablePointer(mutating: paper), stride: 0,
                                                background: paper, slots: slots.baseAddress!, rowColours: paper, palette: paper,
                                                paper: 0, ink: 0, clip: clip,
                                                changed: RowSpanTable(slots: tables.baseAddress!, height: rows),
                                                wet: nil,
                                                rasterised: counter)
                            rasterizer.draw(clip: clip, planes: planes)
                            planes.changed.drain { _, _ in }
                        }
                    }
                }
            }
        }
    }

    /// The coverage at a pixel (0…255); 0 outside the clip.
    public func level(x: Int, y: Int) -> UInt8 { clip.contains(x: x, y: y) ? levels.load(layout.dryOffset(x: x, y: y)) : 0 }
}
