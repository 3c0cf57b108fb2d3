import SignpadVocabulary
/// What the wet tail covered before it raised it: for each chunk of eight levels its pieces
/// raised, in the order raised, the chunk's shown levels just before.
///
/// Putting the chunks back, newest first (chunks of a row, and pieces at a joint, overlap), leaves
/// the shown levels as they were before those pieces: all of them when the tail is replaced, or
/// only the predicted piece's when the next sample keeps the rest. A chunk is put back no lower
/// than its dry levels now: dry ink drawn since must stay.
///
/// The entries live in an array the renderer owns (see `WetLog.Storage`); this is a view of it
/// for one operation.
struct WetLog {
    struct Entry {
        /// The chunk's dry levels, from the levels' base (see `Planes.levels`).
        var offset: Int
        var y: Int32
        var x0: Int32
        /// Its eight shown levels before the piece raised them.
        var shown: UInt64
    }

    /// The entries and their count, kept from operation to operation.
    struct Storage: Sendable {
        private(set) var entries: [Entry]
        var count = 0

        init() { entries = Array(repeating: Entry(offset: 0, y: 0, x0: 0, shown: 0), count: Self.initialCapacity) }

        /// Room for the tail of the default pen drawn faster than a hand writes (pieces of 200 px):
        /// a tail that may need more (a far wider pen) grows it on that event, to keep.
        static let initialCapacity = 4096

        /// Makes room for `chunks` entries after the first `kept` (those after them are about to
        /// be put back).
        mutating func reserve(_ chunks: Int, after kept: Int) {
            let needed = kept + chunks
            if needed > entries.count { entries += Array(repeating: entries[0], count: needed - entries.count) }
        }

        mutating func withLog<R>(_ body: (WetLog) -> R) -> R {
            withUnsafeMutablePointer(to: &count) { count in
                entries.withUnsafeMutableBufferPointer { body(WetLog(entries: $0.baseAddress!, count: count, capacity: $0.count)) }
            }
        }
    }

    private let entries: UnsafeMutablePointer<Entry>
    private let count: UnsafeMutablePointer<Int>
    private let capacity: Int

    /// The most chunks `CapsuleRaster` raises for the capsule from `a` to `b`. On each row of its
    /// bounds (its extent, its reach either side and a pixel), the chunks over the band it draws
    /// there: five for each 32 columns (one steps back at a segment's end) and three more where the
    /// band starts and ends. The band is the bounds' width, or where it draws a band, the pixels
    /// within `reach × length / |dy|` of where the line crosses the row and two for its fixed point.
    /// Not rounded: a tail's pieces are summed first.
    @inline(__always)
    static func chunksAtMost(_ a: FlatPoint, _ b: FlatPoint) -> Double {
        let reach = max(a.radius, b.radius) + 0.5
        let dx = abs(b.point.x - a.point.x), dy = abs(b.point.y - a.point.y)
        let width = dx + 2 * reach + 2, height = dy + 2 * reach + 2
        let band = dy > 1e-9 ? min(width, 2 * reach * (dx * dx + dy * dy).squareRoot() / dy + 4) : width
        return height * (band * (1.0 / 8 + 1.0 / 32) + 3)
    }

    /// The entries so far: where the next piece's begin.
    var mark: Int { count.pointee }

    /// Notes a chunk a piece raised, with its shown levels before (`Storage.reserve` made room:
    /// debug builds check it).
    @inline(__always)
    func record(_ chunk: UnsafeMutableRawPointer, base: UnsafeMutableRawPointer, y: Int, x0: Int, shown: UInt64) {
        assert(count.pointee < capacity, "no room to note what a wet piece covers")
        entries[count.pointee] = Entry(offset: chunk - base, y: Int32(truncatingIfNeeded: y), x0: Int32(truncatingIfNeeded: x0), shown: shown)
        count.pointee &+= 1
    }

    /// Puts back what the pieces noted from `mark` on raised, reports the columns that fell to
    /// `planes.changed`, and forgets them.
    func putBack(from mark: Int, _ planes: Planes) {
        let n = count.pointee
        guard n > mark else { return }
        // The rows put back, covered once all are known: `add` only writes each row's columns.
        var top = Int.max, bottom = Int.min
        var index = n
        repeat {
            index &-= 1
            let entry = entries[index]
            top = min(top, Int(entry.y))
            bottom = max(bottom, Int(entry.y))
            let chunk = planes.levels + entry.offset
            let dry = chunk.loadUnaligned(as: SIMD8<UInt8>.self)
            let shown = chunk.loadUnaligned(fromByteOffset: LevelLayout.segmentColumns, as: SIMD8<UInt8>.self)
            let before = unsafeBitCast(entry.shown, to: SIMD8<UInt8>.self)
            var back = SIMD8<UInt8>()
            for lane in 0..<8 { back[lane] = before[lane] > dry[lane] ? before[lane] : dry[lane] }
            chunk.storeBytes(of: back, toByteOffset: LevelLayout.segmentColumns, as: SIMD8<UInt8>.self)
            // The pieces only raised the chunk, and dry ink since raised it no higher than the
            // shown levels (which it raised too): shown ≥ back in every lane.
            var fell = ChangedColumns()
            fell.include(Int(entry.x0), lanes: unsafeBitCast(shown &- back, to: UInt64.self))
            if let columns = fell.range { planes.changed.add(y: Int(entry.y), columns: columns) }
        } while index > mark
        planes.changed.cover(top..<bottom + 1)
        count.pointee = mark
    }
}
