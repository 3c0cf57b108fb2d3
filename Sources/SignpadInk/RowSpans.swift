import SignpadVocabulary
/// Per row, the columns one operation touched, handed out as a few bands.
///
/// A diagonal stroke's bounding box is mostly paper; rows of spans keep the copy close to the
/// ink, and folding neighbouring rows into bands keeps the rectangle count small. The table
/// lives in an `[Int32]` the renderer owns (see `RowSpanTable.storage`); this is a view of it
/// for one operation, so the per-row work is a few plain loads and stores.
struct RowSpanTable {
    /// A band is at most this many columns wider than its widest row.
    static let bandSlack = 8

    /// Two slots per row (first column, end column; empty while first ≥ end), then the first
    /// and last row touched.
    private let slots: UnsafeMutablePointer<Int32>
    private let height: Int

    init(slots: UnsafeMutablePointer<Int32>, height: Int) {
        self.slots = slots
        self.height = height
    }

    /// `tables` cleared tables for `height` rows, one after another.
    static func storage(height: Int, tables: Int) -> [Int32] {
        var table = [Int32](repeating: 0, count: tables * slotCount(height: height))
        for i in stride(from: 0, to: table.count, by: 2) {
            table[i] = .max
            table[i + 1] = .min
        }
        return table
    }

    static func slotCount(height: Int) -> Int { 2 * height + 2 }

    var isEmpty: Bool { firstRow > lastRow }
    private var firstRow: Int { Int(slots[2 * height]) }
    private var lastRow: Int { Int(slots[2 * height + 1]) }

    /// The rows `add` may be called for; once per operation rather than once per row. Rows
    /// covered but never added cost one empty slot each in `drain`.
    @inline(__always)
    func cover(_ rows: Range<Int>) {
        guard !rows.isEmpty else { return }
        let range = slots + 2 &* height
        range[0] = min(range[0], Int32(truncatingIfNeeded: rows.lowerBound))
        range[1] = max(range[1], Int32(truncatingIfNeeded: rows.upperBound &- 1))
    }

    /// The rows covered so far.
    var rows: Range<Int> { isEmpty ? 0..<0 : firstRow..<(lastRow + 1) }

    /// Adds columns to row `y`, which a `cover` call must include.
    @inline(__always)
    func add(y: Int, columns: Range<Int>) {
        let row = slots + 2 &* y
        row[0] = min(row[0], Int32(truncatingIfNeeded: columns.lowerBound))
        row[1] = max(row[1], Int32(truncatingIfNeeded: columns.upperBound))
    }

    /// Calls `body` with each touched row and its columns, and clears the table.
    @inline(__always)
    func drain(_ body: (_ y: Int, _ columns: Range<Int>) -> Void) {
        guard !isEmpty else { return }
        for y in firstRow...lastRow {
            let row = slots + 2 &* y
            let start = Int(row[0]), end = Int(row[1])
            row[0] = .max
            row[1] = .min
            if start < end { body(y, start..<end) }
        }
        slots[2 * height] = .max
        slots[2 * height + 1] = .min
    }

    /// Calls `body` with each touched row and its columns, adds the bands to `dirty`, and clears the table.
    @inline(__always)
    func flush(into dirty: inout DirtyRegion, _ body: (_ y: Int, _ columns: Range<Int>) -> Void) {
        // The band being grown: rows bandTop..<y so far, columns low..<high.
        var bandTop = 0, bandBottom = 0, low = 0, high = 0, widestRow = 0
        drain { y, columns in
            body(y, columns)
            let start = columns.lowerBound, end = columns.upperBound
            let joinedLow = min(low, start), joinedHigh = max(high, end)
            widestRow = max(widestRow, end - start)
            if bandBottom == y && bandBottom > bandTop && joinedHigh - joinedLow <= widestRow + Self.bandSlack {
                low = joinedLow
                high = joinedHigh
            } else {
                dirty.add(PixelRect(minX: low, minY: bandTop, maxX: high, maxY: bandBottom))
                bandTop = y
                low = start
                high = end
                widestRow = end - start
            }
            bandBottom = y + 1
        }
        dirty.add(PixelRect(minX: low, minY: bandTop, maxX: high, maxY: bandBottom))
    }
}
