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

    /// Absolute paths, as `signpad request` standardises the document's: NSString resolves no
    /// link there but /private's, so lexical normalisation is the same.
    @Test(arguments: ["/a/b/c", "/a/./b/../c", "//a//b//", "/../a", "/a/b/..", "/a/b/../../..", "/tmp/./x.pdf"])
    func aNormalisedAbsolutePathIsNSStrings(path: String) {
        #expect(PathText.normalized(path) == (path as NSString).standardizingPath, "\(path)")
    }

    @Test(arguments: ["", " ", "  a b  ", "\t\n a \r\n", "\u{00A0}x\u{2003}", "x", "a\u{0085}", "\n\n"])
    func trimmedTextIsFoundations(text: String) {
        #expect(text.trimmed == text.trimmingCharacters(in: .whitespacesAndNewlines), "\(text.unicodeScalars.map { $0.value })")
    }

    @Test func printfFillsInAsFoundationDoes() {
        let cases: [(String, [CVarArg])] = [
            ("%.2fx%.2f", [7.875, 3.0]), ("%g", [0.000123]), ("%g", [1e21]), ("%.3f", [-0.0005]), ("%04x", [UInt32(0xbe)]),
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
