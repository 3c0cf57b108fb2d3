import SignpadVocabulary

/// A button's pixels as painted, kept small: most of a button is its one fill colour, so only
/// the runs of other pixels (its rounded corners, border and label) are kept, a fifth of the
/// whole or less. Drawn back, each row is the fill with those runs copied over it.
struct ButtonPicture {
    let width: Int
    let height: Int
    let fill: UInt32
    /// Per run: its row, first column, length, and where its pixels start in `pixels`.
    private let runs: [(row: Int32, column: Int32, count: Int32, start: Int32)]
    private let pixels: [UInt32]

    /// Runs of other pixels closer than this are kept as one: a run costs more than a few pixels.
    private static let gap = 8

    /// `rect` of `canvas`, which must lie inside it.
    init(_ rect: PixelRect, of canvas: Canvas) {
        width = rect.width
        height = rect.height
        // The fill is the colour at least two of three points show, well inside the button and
        // off its label; any colour would give the same pixels back, only more of them kept.
        let points = [canvas[rect.minX + width / 2, rect.minY + height / 8], canvas[rect.minX + width / 2, rect.minY + height * 7 / 8],
                      canvas[rect.minX + width / 8, rect.minY + height / 2]]
        let fill = points[1] == points[2] ? points[1] : points[0]
        var runs: [(row: Int32, column: Int32, count: Int32, start: Int32)] = [], pixels: [UInt32] = []
        let gap = Self.gap, width = rect.width, height = rect.height
        canvas.pixels.withUnsafeBufferPointer { source in
            for y in 0..<height {
                let row = source.baseAddress! + (rect.minY + y) * canvas.stride + rect.minX
                var x = 0
                while x < width {
                    guard row[x] != fill else { x += 1; continue }
                    // A run ends where `gap` fill pixels in a row begin.
                    var end = x + 1, lastOther = x
                    while end < width && end - lastOther <= gap {
                        if row[end] != fill { lastOther = end }
                        end += 1
                    }
                    runs.append((Int32(y), Int32(x), Int32(lastOther + 1 - x), Int32(pixels.count)))
                    pixels.append(contentsOf: UnsafeBufferPointer(start: row + x, count: lastOther + 1 - x))
                    x = lastOther + 1
                }
            }
        }
        self.fill = fill
        self.runs = runs
        self.pixels = pixels
    }

    /// The pixels kept, beside the whole button's.
    var keptPixels: Int { pixels.count }

    /// Draws the button into `canvas` at `origin`, its top left corner.
    func draw(into canvas: inout Canvas, at origin: (x: Int, y: Int)) {
        let stride = canvas.stride, width = self.width, height = self.height, fill = self.fill
        canvas.pixels.withUnsafeMutableBufferPointer { target in
            let corner = target.baseAddress! + origin.y * stride + origin.x
            for y in 0..<height { Canvas.fill(corner + y * stride, count: width, with: fill) }
            pixels.withUnsafeBufferPointer { kept in
                for run in runs {
                    (corner + Int(run.row) * stride + Int(run.column)).update(from: kept.baseAddress! + Int(run.start), count: Int(run.count))
                }
            }
        }
    }
}
