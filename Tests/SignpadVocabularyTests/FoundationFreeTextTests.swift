import Foundation
import SignpadVocabulary
import Testing

/// signpad's own modules import FoundationEssentials only, so the text helpers that stand in for
/// Foundation's are held to what Foundation itself gives: the test target links all of it.
@Suite struct FoundationFreeTextTests {
    /// Not "a" nor "a/": Foundation's deletingLastPathComponent traps on them (see the test after).
    static let paths = ["/a/b/c", "/a/b/c/", "a/b", "/a", "/", "", "//a//b//", "/a/./b/../c", "./x", "../x/..", "a/../../b",
                        "/export/20261206T210807Z-1.meta.json", "/../a", "out/screen.png"]

    @Test(arguments: paths)
    func aPathsPartsAreNSStrings(path: String) {
        let ns = path as NSString
        #expect(PathText.name(of: path) == ns.lastPathComponent, "name of \(path)")
        #expect(PathText.folder(of: path) == ns.deletingLastPathComponent, "folder of \(path)")
    }

    @Test(arguments: ["a", "a/", "a//"])
    func aLoneNameIsItsOwnNameInNoFolder(path: String) {
        #expect(PathText.name(of: path) == "a")
        #expect(PathText.folder(of: path) == "")
        #expect((path as NSString).lastPathComponent == "a")
    }

    @Test(arguments: [("/a", "b"), ("/a/", "b"), ("", "b"), ("/", "b"), ("out", "screen.png")])
    func aJoinedPathIsNSStrings(folder: String, name: String) {
        #expect(PathText.join(folder, name) == (folder as NSString).appendingPathComponent(name))
    }

    /// Absolute paths that do not exist (NSString resolves the links of those that do, as
    /// `signpad request` resolves the document's with realpath): lexical normalisation alone.
    @Test(arguments: ["/nonexistent/a/b/c", "/nonexistent/./b/../c", "//nonexistent//b//", "/../nonexistent", "/nonexistent/b/..", "/nonexistent/b/../../..", "/nonexistent/./x.pdf"])
    func aNormalisedAbsolutePathIsNSStrings(path: String) {
        #expect(PathText.normalized(path) == (path as NSString).standardizingPath, "\(path)")
    }

    @Test(arguments: ["", " ", "  a b  ", "\t\n a \r\n", "\u{00A0}x\u{2003}", "x", "a\u{0085}", "\n\n", " \u{301}x", "x \u{301}", "\u{200B}x\u{200B}"])
    func trimmedTextIsFoundations(text: String) {
        #expect(Array(text.trimmed.unicodeScalars) == Array(text.trimmingCharacters(in: .whitespacesAndNewlines).unicodeScalars), "\(text.unicodeScalars.map { $0.value })")
    }

    @Test func printfFillsInAsFoundationDoes() {
        let cases: [(String, [CVarArg])] = [
            ("%.2fx%.2f", [7.875, 3.0]), ("%g", [0.000123]), ("%g", [1e21]), ("%.3f", [-0.0005]), ("%04x", [UInt16(0xbe)]),
            ("%8.1f  %7ld [≤ 0.5%%]", [12.25, 42]), ("%ld raw for %ld stroke events: %.1f µs", [2839, 102, 3.14159]),
        ]
        for (format, arguments) in cases {
            #expect(String(printf: format, arguments: arguments) == String(format: format, arguments: arguments), "\(format)")
        }
        let long = String(repeating: "é", count: 300)
        #expect(String(printf: long + " %ld", 1) == long + " 1", "past the first buffer")
    }

    @Test func paddingCutsOrFillsAsFoundationDoes() {
        for (text, width) in [("abc", 6), ("abcdef", 3), ("", 2), ("µs≤", 5), ("exact", 5)] {
            #expect(text.padded(to: width) == text.padding(toLength: width, withPad: " ", startingAt: 0), "\(text) to \(width)")
        }
    }
}
