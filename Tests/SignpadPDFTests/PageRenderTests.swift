import Foundation
import SignpadPageRender
import SignpadTestSupport
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

    @Test func whatPopplerCannotOpenIsARefusalWithItsReason() throws {
        let refused = PageRenderer.render(Array("not a PDF at all".utf8), page: 1, width: 100, executable: Self.renderer)
        #expect(refused.reason == "signpad-render: poppler cannot open the document: PDF document is damaged", "\(refused)")
        let (_, bytes) = try Self.document(pages: 1)
        let beyond = PageRenderer.render(bytes, page: 3, width: 100, executable: Self.renderer)
        #expect(beyond.reason == "signpad-render: page 3 was asked for; the document has 1", "\(beyond)")
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
