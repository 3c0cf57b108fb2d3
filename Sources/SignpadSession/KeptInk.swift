import SignpadInk
import SignpadVocabulary

/// The signature's ink as it was drawn: each stroke's dry pieces, in the kiosk's order of its
/// strokes, and where each stroke could have put ink (its samples and what was predicted ahead
/// of them). Ink taken back is drawn again from the pieces of the strokes left that meet the
/// cleared rectangle: no stroke is smoothed again, and a piece elsewhere costs a glance at its reach.
public struct KeptInk {
    private var pieces: [InkPiece] = []
    /// Per stroke, where its pieces start in `pieces`, and its reach.
    private var strokes: [(start: Int, reach: InkReach)] = []

    /// Pieces kept room for ahead of the stroke being drawn: about 8 s of a 125 Hz panel.
    static let spare = 1024
    /// Strokes kept room for ahead.
    static let spareStrokes = 16

    /// The room made at the start, which a signature of any usual length fits in.
    private let firstRoom: Int

    public init() {
        pieces.reserveCapacity(4 * Self.spare)
        firstRoom = pieces.capacity
        strokes.reserveCapacity(64)
    }

    public var strokeCount: Int { strokes.count }

    /// Room for the next pieces and strokes, made between events so that drawing does not allocate.
    public mutating func reserveRoom() {
        if pieces.count + Self.spare > pieces.capacity { pieces.reserveCapacity(2 * pieces.capacity) }
        if strokes.count + Self.spareStrokes > strokes.capacity { strokes.reserveCapacity(2 * strokes.capacity) }
    }

    /// Forgets every stroke; room a long signature grew is given back.
    public mutating func removeAll() {
        if pieces.capacity > 2 * firstRoom {
            pieces = []
            pieces.reserveCapacity(firstRoom)
        } else {
            pieces.removeAll(keepingCapacity: true)
        }
        strokes.removeAll(keepingCapacity: true)
    }

    public mutating func beginStroke() { strokes.append((pieces.count, InkReach())) }

    /// The stroke being drawn reaches `point`.
    public mutating func reach(_ point: Point) {
        if strokes.isEmpty { beginStroke() }
        strokes[strokes.count - 1].reach.add(point)
    }

    /// The stroke being drawn's new dry pieces.
    public mutating func add(_ dry: InkPieces) {
        if strokes.isEmpty { beginStroke() }
        for piece in dry { pieces.append(piece) }
    }

    /// Forgets stroke `index`; returns where it could have put ink (nowhere, for a stroke it
    /// does not hold: the screen it was drawn on is gone).
    public mutating func removeStroke(at index: Int) -> InkReach {
        guard strokes.indices.contains(index) else { return InkReach() }
        let range = self.range(of: index)
        pieces.removeSubrange(range)
        let removed = strokes.remove(at: index)
        for later in index..<strokes.count { strokes[later].start -= range.count }
        return removed.reach
    }

    /// Forgets the last stroke; returns where it could have put ink.
    public mutating func removeLastStroke() -> InkReach {
        strokes.isEmpty ? InkReach() : removeStroke(at: strokes.count - 1)
    }

    /// Calls `body` with each piece that meets `rect`, of the strokes whose reach, widened by
    /// `margin`, does.
    public func forEachPiece(meeting rect: PixelRect, margin: Double, _ body: (InkPiece) -> Void) {
        for index in strokes.indices {
            guard let reach = strokes[index].reach.rect(margin: margin), !reach.intersection(rect).isEmpty else { continue }
            for piece in pieces[range(of: index)] where !piece.reach.intersection(rect).isEmpty { body(piece) }
        }
    }

    private func range(of index: Int) -> Range<Int> {
        strokes[index].start..<(index + 1 < strokes.count ? strokes[index + 1].start : pieces.count)
    }
}
