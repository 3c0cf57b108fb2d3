import Foundation
import SignpadConfig
import SignpadExport
import SignpadKiosk
import SignpadOutbox
import SignpadPDF
@testable import SignpadSession
import SignpadTestSupport
import SignpadVocabulary
import Synchronization
import Testing

/// Hands back the pages the test gives it, and keeps what it was asked for.
final class HeldPages: PageSource {
    let asked = Mutex<[(page: Int, width: Int, id: String)]>([])
    let ready = Mutex<[DrawnPage]>([])

    func draw(_ document: [UInt8], page: Int, width: Int, for id: String) { asked.withLock { $0.append((page, width, id)) } }
    func drawn() -> [DrawnPage] { ready.withLock { ready in defer { ready = [] }; return ready } }
    func give(_ page: DrawnPage) { ready.withLock { $0.append(page) } }
}

/// The review on the screen: the page as drawn, scrolled by a drag, the field outlined, the page's
/// hash in the signature's manifest, and a page that cannot be drawn failing the request.
@Suite struct DocumentReviewSessionTests {
    /// Each row of the page its own colour: row r is r, so what shows tells how far it scrolled.
    static func page(width: Int, height: Int) -> Canvas {
        var canvas = Canvas(width: width, height: height, fill: 0)
        for y in 0..<height { for x in 0..<width { canvas[x, y] = UInt32(y) } }
        return canvas
    }

    static func session(_ pages: HeldPages, folder: String) throws -> (Session, Exporter) {
        let config = try Config.load(text: "", file: "(test)", overrides: ["control.socket=\"\"", "kiosk.mode=\"requested\""])
        let exporter = Exporter(directory: folder, options: ExportOptions(), evidence: testEvidence, retrySeconds: 60)
        let session = try Session(SessionOptions(config), display: OffscreenDisplay(width: 800, height: 480), exporter: exporter,
                                  painter: { _, _ in BoxPainter() }, pages: pages)
        return (session, exporter)
    }

    func begin(_ session: Session, field page: Int = 0) {
        let review = DocumentReview(pageCount: 1, field: .init(page: page, left: 0.25, top: 0.1, width: 0.5, height: 0.05), everyPage: true)
        session.beginRequest(id: "R1", context: SignatureRequest(reference: "R1"), timeout: 60, now: 1,
                             document: SignedDocument(bytes: Array("%PDF-1.7".utf8), placement: PDFSignaturePlacement()), review: review)
    }

    func drag(_ session: Session, from: Point, rows: Int, now: Double) {
        session.handle(.down(Sample(from, time: now)), device: "panel", now: now)
        for step in 1...8 {
            session.handle(.move(Sample(Point(from.x, from.y - Double(rows * step / 8)), time: now + Double(step) * 0.01)), device: "panel", now: now)
        }
        session.handle(.up, device: "panel", now: now + 0.1)
    }

    func tap(_ session: Session, _ rect: PixelRect, now: Double) {
        let p = Point(Double(rect.minX + rect.maxX) / 2, Double(rect.minY + rect.maxY) / 2)
        session.handle(.down(Sample(p, time: now)), device: "panel", now: now)
        session.handle(.up, device: "panel", now: now)
    }

    func screen(_ session: Session) -> Canvas { (session.display as! OffscreenDisplay).screen }

    @Test func thePageShowsScrollsWithADragAndItsHashGoesInTheManifest() throws {
        let folder = scratch()
        defer { removeScratch(folder) }
        let pages = HeldPages()
        let (session, exporter) = try Self.session(pages, folder: folder)
        defer { exporter.stop() }
        begin(session)
        let view = session.kiosk.reviewLayout.page
        let asked = pages.asked.withLock { $0 }
        #expect(asked.count == 1 && asked.first?.page == 0 && asked.first?.width == view.width && asked.first?.id == "R1")
        #expect(screen(session)[view.minX + 5, view.minY + 5] == Session.deskColour, "grey while the page is drawn")

        let height = view.height * 3
        pages.give(DrawnPage(id: "R1", page: 0, outcome: .drawn(Self.page(width: view.width, height: height), scale: 1.25, sha256: "ab12", renderer: "poppler 9.9", pageCount: 1)))
        session.tick(now: 2)
        #expect(screen(session)[view.minX + 5, view.minY + 5] == 5, "the page from its first row")
        #expect(screen(session)[view.minX + 5, view.minY + 40] == 40)
        // The field, a tenth down the page and across its middle half, outlined around it.
        let fieldTop = view.minY + Int((Double(height) * 0.1).rounded())
        #expect(screen(session)[view.minX + view.width / 2, fieldTop - 1] == Session.fieldColour)
        #expect(screen(session)[view.minX + view.width / 2, fieldTop + 1] == UInt32(fieldTop + 1 - view.minY), "inside it, the page")
        #expect(screen(session)[view.minX + view.width / 8, fieldTop - 1] == UInt32(fieldTop - 1 - view.minY), "beside it, the page")

        drag(session, from: Point(Double(view.minX + 5), Double(view.maxY - 10)), rows: 100, now: 3)
        #expect(session.kiosk.review?.offset == 100)
        #expect(screen(session)[view.minX + 5, view.minY + 5] == 105, "scrolled by the drag")
        #expect(!session.kiosk.hasInk, "a drag on the page is no ink")

        for _ in 0..<4 { drag(session, from: Point(Double(view.minX + 5), Double(view.maxY - 10)), rows: view.height - 20, now: 4) }
        let offset = try #require(session.kiosk.review?.offset)
        #expect(offset == height - view.height, "to the foot and no further")
        #expect(screen(session)[view.minX + view.width / 2, view.maxY - 1] == UInt32(offset + view.height - 1), "the foot of the page")

        tap(session, session.kiosk.reviewLayout.signButton, now: 5)
        #expect(session.kiosk.review == nil, "read to its foot, Sign was there")
        let box = session.kiosk.layout.box
        session.handle(.down(Sample(Point(Double(box.minX + 50), Double((box.minY + box.maxY) / 2)), time: 6)), device: "panel", now: 6)
        for step in 1...30 {
            session.handle(.move(Sample(Point(Double(box.minX + 50 + step * 10), Double((box.minY + box.maxY) / 2 + step % 4 * 5)), time: 6 + Double(step) * 0.01)),
                           device: "panel", now: 6 + Double(step) * 0.01)
        }
        session.handle(.up, device: "panel", now: 7)
        tap(session, session.kiosk.layout.doneButton, now: 8)
        #expect(exporter.waitUntilIdle(timeout: 10))
        let manifest = try Data(contentsOf: URL(fileURLWithPath: folder + "/R1.meta.json"))
        let metadata = try JSONDecoder().decode(SignatureMetadata.self, from: manifest)
        #expect(metadata.documentShown == ShownDocument(renderer: "poppler 9.9", pages: [.init(page: 1, width: view.width, height: height, scale: 1.25, sha256: "ab12")]))
    }

    @Test func aPageThatCannotBeDrawnFailsTheRequestWithItsReason() throws {
        let pages = HeldPages()
        let (session, exporter) = try Self.session(pages, folder: "/proc/signpad-never-written")
        defer { exporter.stop() }
        begin(session)
        _ = session.takeEvents()
        pages.give(DrawnPage(id: "R0", page: 0, outcome: .failed("another request's")))
        session.tick(now: 2)
        #expect(session.kiosk.review != nil, "a page of another request is ignored")
        pages.give(DrawnPage(id: "R1", page: 0, outcome: .failed("the renderer ended on signal 11")))
        session.tick(now: 3)
        let ends = session.takeEvents().compactMap { if case .request(.ended(_, let end)) = $0 { end } else { nil } }
        #expect(ends == [.failed("page 1 of the document cannot be shown: the renderer ended on signal 11")])
        #expect(session.kiosk.request == nil)
    }

    /// The renderer counts pages signpad does not (a page tree read two ways): those pages would
    /// be shown nowhere in the review and signed all the same, so the request fails.
    @Test func aRendererCountingOtherPagesFailsTheRequest() throws {
        let pages = HeldPages()
        let (session, exporter) = try Self.session(pages, folder: "/proc/signpad-never-written")
        defer { exporter.stop() }
        begin(session)
        _ = session.takeEvents()
        let view = session.kiosk.reviewLayout.page
        pages.give(DrawnPage(id: "R1", page: 0, outcome: .drawn(Self.page(width: view.width, height: 10), scale: 1, sha256: "ab", renderer: "poppler 9.9",
                                                               pageCount: 3)))
        session.tick(now: 2)
        let ends = session.takeEvents().compactMap { if case .request(.ended(_, let end)) = $0 { end } else { nil } }
        #expect(ends == [.failed("page 1 of the document cannot be shown: the renderer finds 3 pages where signpad finds 1")])
    }

    /// A session with nothing to draw pages with fails a document's request rather than show a blank page.
    @Test func withoutAPageSourceTheRequestFails() throws {
        let config = try Config.load(text: "", file: "(test)", overrides: ["control.socket=\"\""])
        let exporter = Exporter(directory: "/proc/signpad-never-written", options: ExportOptions(), evidence: testEvidence, retrySeconds: 60)
        defer { exporter.stop() }
        let session = try Session(SessionOptions(config), display: OffscreenDisplay(width: 800, height: 480), exporter: exporter, painter: { _, _ in BoxPainter() })
        begin(session)
        let ends = session.takeEvents().compactMap { if case .request(.ended(_, let end)) = $0 { end } else { nil } }
        #expect(ends.count == 1 && session.kiosk.request == nil)
    }
}
