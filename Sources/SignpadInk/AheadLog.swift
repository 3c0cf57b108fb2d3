import SignpadVocabulary
/// What the wet tail's predicted piece covered before it raised it: for each chunk it raised, in
/// the order raised, the chunk's shown levels just before.
///
/// The next sample replaces the predicted piece. Putting each chunk back, newest first (two
/// chunks of a row may overlap), leaves the shown levels as the rest of the tail and the dry ink
/// left them, without drawing the tail's kept pieces again over the piece's rows. A chunk is put
/// back no lower than its dry levels now: dry ink drawn since must stay.
///
/// The entries live in an array the renderer owns (see `AheadLog.Storage`); this is a view of it
/// for one operation.
struct AheadLog {
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

        /// Room for a predicted piece of the default pen at any size: a piece whose bounds ask
        /// for more (a far wider pen) grows it, once.
        static let initialCapacity = 256

        /// Makes room for the chunks a capsule inside `bounds` may raise.
        mutating func reserve(for bounds: PixelRect) {
            let needed = count + AheadLog.chunksAtMost(in: bounds)
            if needed > entries.count { entries += Array(repeating: entries[0], count: needed - entries.count) }
        }

        mutating func withLog<R>(_ body: (AheadLog) -> R) -> R {
            withUnsafeMutablePointer(to: &count) { count in
                entries.withUnsafeMutableBufferPointer { body(AheadLog(entries: $0.baseAddress!, count: count, capacity: $0.count)) }
            }
        }
    }

    private let entries: UnsafeMutablePointer<Entry>
    private let count: UnsafeMutablePointer<Int>
    private let capacity: Int

    /// The most chunks a capsule inside `bounds` raises: five for each 32 columns of a row (one
    /// steps back at a segment's end).
    static func chunksAtMost(in bounds: PixelRect) -> Int {
        bounds.isEmpty ? 0 : bounds.height * (bounds.width / 8 + bounds.width / 32 + 3)
    }

    /// Whether the chunks a capsule inside `bounds` may raise fit.
    func hasRoom(for bounds: PixelRect) -> Bool { count.pointee + Self.chunksAtMost(in: bounds) <= capacity }

    /// Notes a chunk the piece raised, with its shown levels before (`hasRoom` said it fits).
    @inline(__always)
    func record(_ chunk: UnsafeMutableRawPointer, base: UnsafeMutableRawPointer, y: Int, x0: Int, shown: UInt64) {
        entries[count.pointee] = Entry(offset: chunk - base, y: Int32(truncatingIfNeeded: y), x0: Int32(truncatingIfNeeded: x0), shown: shown)
        count.pointee &+= 1
    }

    /// Forgets the piece: its ink stays as it is, as the wet tail's or taken back with it.
    func forget() { count.pointee = 0 }

    /// Puts back what the piece raised and reports the columns that fell to `planes.changed`.
    func putBack(_ planes: Planes) {
        let n = count.pointee
        guard n > 0 else { return }
        // Raised row by row, top down.
        planes.changed.cover(Int(entries[0].y)..<Int(entries[n - 1].y) + 1)
        for index in (0..<n).reversed() {
            let entry = entries[index]
            let chunk = planes.levels + entry.offset
            let dry = chunk.loadUnaligned(as: SIMD8<UInt8>.self)
            let shown = chunk.loadUnaligned(fromByteOffset: LevelLayout.segmentColumns, as: SIMD8<UInt8>.self)
            let before = unsafeBitCast(entry.shown, to: SIMD8<UInt8>.self)
            var back = SIMD8<UInt8>()
            for lane in 0..<8 { back[lane] = before[lane] > dry[lane] ? before[lane] : dry[lane] }
            chunk.storeBytes(of: back, toByteOffset: LevelLayout.segmentColumns, as: SIMD8<UInt8>.self)
            // The piece only raised the chunk, and dry ink since raised it no higher than the
            // shown levels (which it raised too): shown ≥ back in every lane.
            var fell = ChangedColumns()
            fell.include(Int(entry.x0), lanes: unsafeBitCast(shown &- back, to: UInt64.self))
            if let columns = fell.range { planes.changed.add(y: Int(entry.y), columns: columns) }
        }
        count.pointee = 0
    }
}
