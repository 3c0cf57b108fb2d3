import SignpadInk
import SignpadSession
import SignpadVocabulary
import Testing

/// The pieces a take-back draws again are those of the strokes left, in their order, that meet
/// the cleared rectangle, whatever strokes were taken out before.
@Suite struct KeptInkTests {
    /// A stroke of `count` dots in a row at `y`, 10 px apart from x = 10.
    static func addStroke(_ kept: inout KeptInk, y: Double, count: Int) {
        kept.beginStroke()
        for i in 0..<count {
            let centre = Point(10 + Double(i) * 10, y)
            kept.reach(centre)
            var dry = InkPieces()
            dry.append(.dot(center: centre, diameter: 4))
            kept.add(dry)
        }
    }

    static func visited(_ kept: KeptInk, _ rect: PixelRect) -> [Point] {
        var centres: [Point] = []
        kept.forEachPiece(meeting: rect, margin: 4) { piece in
            if case .dot(let centre, _) = piece { centres.append(centre) }
        }
        return centres
    }

    @Test func onlyThePiecesMeetingTheRectangleAreVisited() {
        var kept = KeptInk()
        Self.addStroke(&kept, y: 20, count: 50)
        Self.addStroke(&kept, y: 60, count: 5)
        Self.addStroke(&kept, y: 100, count: 30)
        // Across the first and the third stroke near x = 100, missing the second (x ≤ 50).
        let rect = PixelRect(minX: 95, minY: 0, maxX: 106, maxY: 120)
        #expect(Self.visited(kept, rect) == [Point(100, 20), Point(100, 100)])
    }

    @Test func aStrokeTakenOutOfTheMiddleLeavesTheOthersPiecesInPlace() {
        var kept = KeptInk()
        Self.addStroke(&kept, y: 20, count: 12)
        Self.addStroke(&kept, y: 60, count: 12)
        Self.addStroke(&kept, y: 100, count: 12)
        let reach = kept.removeStroke(at: 1)
        #expect(reach.rect(margin: 0) == PixelRect(minX: 10, minY: 60, maxX: 121, maxY: 61))
        #expect(kept.strokeCount == 2)
        let column = PixelRect(minX: 47, minY: 0, maxX: 54, maxY: 120)
        #expect(Self.visited(kept, column) == [Point(50, 20), Point(50, 100)])
        _ = kept.removeLastStroke()
        #expect(Self.visited(kept, column) == [Point(50, 20)])
        kept.removeAll()
        #expect(Self.visited(kept, column).isEmpty && kept.strokeCount == 0)
        #expect(kept.removeLastStroke().rect(margin: 0) == nil, "nothing to take out")
        #expect(kept.removeStroke(at: 3).rect(margin: 0) == nil, "a stroke it does not hold has no reach")
    }
}
