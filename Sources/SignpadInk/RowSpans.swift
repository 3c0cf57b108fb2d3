/// The columns changed on each row, gathered over one operation and handed out as a few bands.
///
/// A diagonal stroke's bounding box is mostly paper; rows of spans keep the copy close to the
/// ink, and folding neighbouring rows into bands keeps the rectangle count small.
struct RowSpans: Sendable {
    /// A band is at most this many columns wider than its widest row.
    static let bandSlack = 8

    private var starts: [Int]
    private var ends: [Int]
    private var firstRow = Int.max
    private var lastRow = Int.min

    init(height: Int) {
        starts = [Int](repeating: .max, count: height)
        ends = [Int](repeating: .min, count: height)
    }

    var isEmpty: Bool { firstRow > lastRow }

    @inline(__always)
    mutating func add(y: Int, columns: Range<Int>) {
        starts[y] = min(starts[y], columns.lowerBound)
        ends[y] = max(ends[y], columns.upperBound)
        firstRow = min(firstRow, y)
        lastRow = max(lastRow, y)
    }

    /// Adds the bands to `dirty` and starts over.
    mutating func flush(into dirty: inout DirtyRegion) {
        guard !isEmpty else { return }
        var band = PixelRect(minX: 0, minY: 0, maxX: 0, maxY: 0)
        var widestRow = 0
        for y in firstRow...lastRow {
            let start = starts[y], end = ends[y]
            starts[y] = .max
            ends[y] = .min
            guard start < end else {
                dirty.add(band)
                band = PixelRect(minX: 0, minY: 0, maxX: 0, maxY: 0)
                continue
            }
            let joined = min(band.minX, start)..<max(band.maxX, end)
            widestRow = max(widestRow, end - start)
            if !band.isEmpty && joined.count <= widestRow + Self.bandSlack {
                band = PixelRect(minX: joined.lowerBound, minY: band.minY, maxX: joined.upperBound, maxY: y + 1)
            } else {
                dirty.add(band)
                band = PixelRect(minX: start, minY: y, maxX: end, maxY: y + 1)
                widestRow = end - start
            }
        }
        dirty.add(band)
        firstRow = .max
        lastRow = .min
    }
}

/// Where one operation's changes go: the changed columns of each row, and for the wet tail the
/// rows it raised, which the next sample restores.
struct InkMarks {
    var changed: RowSpans
    var wetRows: [WetRow] = []
}

/// A row of the wet tail, reported again when it is restored.
struct WetRow {
    var y: Int
    var columns: Range<Int>
}
