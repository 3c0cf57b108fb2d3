import Foundation
import SignpadPageRender
import SignpadTestSupport
import SignpadVocabulary
import Synchronization
import Testing

/// Pages drawn by poppler in `signpad-render`, a process of its own: checked against poppler's
/// own pdftocairo, and a renderer that crashes or hangs is contained.
@Suite struct PageRenderTests {
    static let renderer = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(".build/debug/signpad-render").path

    static func document(pages: Int) throws -> (path: String, bytes: [UInt8]) {
        let folder = scratch()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = TestDocuments.cairo(pages: pages, in: folder)
        return (path, Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    /// pdftoppm draws with poppler's other rasteriser (Splash), at the same scale: the two pages
    /// agree but for the edges of antialiased strokes and glyphs.
    @Test func aPageIsDrawnAsPdftoppmDrawsIt() throws {
        try requirePeer(.tool("pdftoppm"))
        let (path, bytes) = try Self.document(pages: 2)
        let page = try PageRenderer.render(bytes, page: 2, width: 298, executable: Self.renderer).get()
        #expect(page.width == 298 && page.height == 422)
        #expect(abs(page.scale - 298.0 / 595.0) < 1e-9, "an A4 page, 595 points wide, drawn 298 pixels wide")
        let peer = try run("pdftoppm", ["-f", "2", "-l", "2", "-singlefile", "-scale-to-x", "298", "-scale-to-y", "422", path, path + "-peer"])
        #expect(peer.status == 0, "\(peer.output)")
        let ppm = Array(try Data(contentsOf: URL(fileURLWithPath: path + "-peer.ppm")))
        let header = "P6\n298 422\n255\n"
        #expect(ppm.starts(with: Array(header.utf8)) && ppm.count == header.utf8.count + 298 * 422 * 3)
        let rgb = ppm.dropFirst(header.utf8.count)
        var differing = 0, inked = 0
        for i in 0..<(298 * 422) {
            let ours = Int(page.pixels[i] >> 8 & 0xFF), theirs = Int(rgb[rgb.startIndex + i * 3 + 1])
            if abs(ours - theirs) > 96 { differing += 1 }
            if ours < 128 { inked += 1 }
        }
        #expect(inked > 300, "\(inked) dark pixels: the page's text and box")
        #expect(differing < 298 * 422 / 200, "\(differing) pixels differ from pdftoppm's by more than 96 levels")
    }

    /// The version the manifest records is the poppler pdftoppm reports, the one installed.
    @Test func theRendererNamesThePopplerItDrawsWith() throws {
        try requirePeer(.tool("pdftoppm"))
        let peer = try run("pdftoppm", ["-v"])
        let version = try PageRenderer.version(executable: Self.renderer).get()
        #expect(peer.output.contains("pdftoppm version \(version.dropFirst("poppler ".count))\n"), "\(version) against \(peer.output)")
        #expect(version.hasPrefix("poppler ") && version.count > "poppler ".count)
    }

    /// The queue the daemon draws with: pages come back through `drawn()` after its wake, hashed
    /// as `sha256sum` hashes their pixels' bytes, and a refusal comes back as the page's outcome.
    @Test func theQueueDrawsOffTheCallersThreadAndHashesThePixels() throws {
        try requirePeer(.tool("sha256sum"))
        let (path, bytes) = try Self.document(pages: 2)
        let woken = Mutex(0)
        let queue = PageRenderQueue(executable: Self.renderer) { woken.withLock { $0 += 1 } }
        var drawn: [DrawnPage] = []
        for page in [1, 5] {
            queue.draw(bytes, page: page, width: 200, for: "R1")
            let deadline = Date().addingTimeInterval(30)
            let before = drawn.count
            while drawn.count == before && Date() < deadline {
                drawn += queue.drawn()
                Thread.sleep(forTimeInterval: 0.02)
            }
        }
        #expect(drawn.count == 2 && woken.withLock { $0 } == 2)
        guard drawn.count == 2, case .drawn(let canvas, let scale, let sha256, let renderer, let pages) = drawn[0].outcome else {
            Issue.record("page 2 was not drawn: \(drawn.map(\.outcome))")
            return
        }
        #expect(drawn[0].id == "R1" && drawn[0].page == 1 && canvas.width == 200 && canvas.height == 283 && abs(scale - 200.0 / 595.0) < 1e-9)
        #expect(pages == 2, "poppler's count of the document's pages")
        #expect(renderer == (try PageRenderer.version(executable: Self.renderer).get()))
        let raw = path + ".pixels"
        try Data(canvas.pixels.withUnsafeBytes { Array($0) }).write(to: URL(fileURLWithPath: raw))
        let peer = try run("sha256sum", [raw])
        #expect(peer.output.hasPrefix(sha256 + " "), "\(sha256) against \(peer.output)")
        guard case .failed(let reason) = drawn[1].outcome else {
            Issue.record("page 6 of 2 was drawn")
            return
        }
        #expect(reason == "signpad-render: page 6 was asked for; the document has 2")
    }

    /// The renderer gets its three pipes and nothing else of the kiosk's: a descriptor left open
    /// without close-on-exec (as a socket just accepted is, for a moment) does not reach it.
    @Test func theRendererInheritsNoOtherDescriptor() throws {
        let folder = scratch()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let kept = open(folder + "/kept", O_CREAT | O_WRONLY, 0o600)
        #expect(kept >= 3)
        defer { close(kept) }
        let looking = folder + "/looking"
        try "#!/bin/sh\ncat > /dev/null\n[ -e /proc/$$/fd/\(kept) ] && echo inherited >&2 || echo alone >&2\nexit 1\n".write(toFile: looking, atomically: true, encoding: .utf8)
        chmod(looking, 0o755)
        let said = PageRenderer.render([1, 2, 3], page: 1, width: 100, executable: looking)
        #expect(said.reason == "alone", "\(said)")
    }

    /// A customer tapping Next again and again waits for the last page only, and a stop kills
    /// the renderer drawing and keeps nothing it drew.
    @Test func onlyTheNewestPageWaitsAndAStopEndsTheRendererDrawing() throws {
        let folder = scratch()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let slow = folder + "/slow"
        try "#!/bin/sh\ncat > /dev/null\n[ \"$2\" = 9 ] && sleep 60\nsleep 0.5\necho \"page $2\" >&2\nexit 1\n".write(toFile: slow, atomically: true, encoding: .utf8)
        chmod(slow, 0o755)
        let queue = PageRenderQueue(executable: slow) {}
        queue.draw([1], page: 0, width: 100, for: "R1")
        Thread.sleep(forTimeInterval: 0.3)
        for page in 1...3 { queue.draw([1], page: page, width: 100, for: "R1") }
        var drawn: [DrawnPage] = []
        let deadline = Date().addingTimeInterval(20)
        while drawn.count < 2 && Date() < deadline {
            drawn += queue.drawn()
            Thread.sleep(forTimeInterval: 0.05)
        }
        Thread.sleep(forTimeInterval: 1)
        drawn += queue.drawn()
        let reasons = drawn.map { if case .failed(let reason) = $0.outcome { reason } else { "drawn" } }
        #expect(drawn.map(\.page) == [0, 3], "\(reasons)")
        #expect(reasons.allSatisfy { $0.hasSuffix("version") || $0.hasPrefix("page") }, "\(reasons)")

        queue.draw([1], page: 8, width: 100, for: "R2")
        Thread.sleep(forTimeInterval: 0.3)
        let started = Date()
        queue.stop()
        #expect(Date().timeIntervalSince(started) < 5, "the stop waited for the renderer")
        #expect(queue.drawn().isEmpty, "nothing drawn after the stop is kept")
        queue.draw([1], page: 1, width: 100, for: "R3")
        Thread.sleep(forTimeInterval: 1)
        #expect(queue.drawn().isEmpty, "a stopped queue draws nothing")
    }

    /// A renderer that ends before it has read the document (its memory limit struck, or killed
    /// at a stop) leaves the kiosk writing into a pipe nobody reads: the kiosk hears why, and
    /// is not killed by SIGPIPE.
    @Test func aRendererThatEndsBeforeReadingDoesNotEndTheKiosk() throws {
        let folder = scratch()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let quitting = folder + "/quitting"
        try "#!/bin/sh\necho gone at once >&2\nexit 1\n".write(toFile: quitting, atomically: true, encoding: .utf8)
        chmod(quitting, 0o755)
        let said = PageRenderer.render([UInt8](repeating: 0x25, count: 8 << 20), page: 1, width: 100, executable: quitting)
        #expect(said.reason == "gone at once", "\(said)")
    }

    @Test func whatPopplerCannotOpenIsARefusalWithItsReason() throws {
        let refused = PageRenderer.render(Array("not a PDF at all".utf8), page: 1, width: 100, executable: Self.renderer)
        #expect(refused.reason == "signpad-render: poppler cannot open the document: PDF document is damaged", "\(refused)")
        let (_, bytes) = try Self.document(pages: 1)
        let beyond = PageRenderer.render(bytes, page: 3, width: 100, executable: Self.renderer)
        #expect(beyond.reason == "signpad-render: page 3 was asked for; the document has 1", "\(beyond)")
        let tall = PageRenderer.render(bytes, page: 1, width: 100, maxHeight: 100, executable: Self.renderer)
        #expect(tall.reason == "signpad-render: page 1 is 142 pixels high at 100 wide; at most 100 are drawn", "\(tall)")
    }

    /// Stand-ins for a renderer a hostile document broke: one that crashes, one that hangs.
    @Test func aRendererThatCrashesOrHangsIsContained() throws {
        let folder = scratch()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let crashing = folder + "/crashing", hanging = folder + "/hanging"
        try "#!/bin/sh\ncat > /dev/null\nkill -SEGV $$\n".write(toFile: crashing, atomically: true, encoding: .utf8)
        try "#!/bin/sh\nexec sleep 60\n".write(toFile: hanging, atomically: true, encoding: .utf8)
        chmod(crashing, 0o755)
        chmod(hanging, 0o755)
        let crashed = PageRenderer.render([UInt8](repeating: 0x25, count: 200_000), page: 1, width: 100, executable: crashing)
        #expect(crashed.reason == "the renderer ended on signal 11", "\(crashed)")
        let started = Date()
        let hung = PageRenderer.render([1, 2, 3], page: 1, width: 100, seconds: 1, executable: hanging)
        #expect(hung.reason == "the renderer took more than 1 s", "\(hung)")
        #expect(Date().timeIntervalSince(started) < 30, "the caller waited for the hung renderer")
    }
}

extension Result where Failure == PageRenderError {
    /// Why it failed; nil when it did not.
    var reason: String? { if case .failure(let error) = self { error.reason } else { nil } }
}
