import Foundation
@testable import SignpadExport
import SignpadTestSupport
import SignpadVocabulary
import Testing

/// What a point of sale (or a spool file) may ask, and the file names a reference makes: the
/// rules that keep every name within NAME_MAX and every text cheap to lay out.
@Suite struct RequestRulesTests {
    static func problem(_ request: SignatureRequest) -> RequestProblem? {
        do { _ = try RequestRules.checked(request); return nil } catch { return error }
    }

    /// Composition comes from the standard library: held to Foundation's, decomposed Latin,
    /// Hangul jamo, a singleton, marks reordered and text already composed.
    @Test(arguments: ["Jose\u{301}", "\u{1100}\u{1161}\u{11A8}", "\u{212B}", "a\u{323}\u{302}", "a\u{302}\u{323}", "Zoë", "SALE-1", "", "e\u{301}\u{301}"])
    func compositionIsFoundations(text: String) {
        #expect(Array(text.composed.unicodeScalars) == Array(text.precomposedStringWithCanonicalMapping.unicodeScalars))
    }

    /// Issue 54, defect 16: fullwidth digits and letters are hexadecimal digits to Unicode, not to
    /// a SHA-256.
    @Test func aDocumentHashIsASCIIHexOnly() throws {
        let fullwidth = String(repeating: "０", count: 32) + String(repeating: "ａ", count: 32)
        #expect(Self.problem(SignatureRequest(reference: "R", documentSha256: fullwidth))?.field == "documentSha256")
        let upper = String(repeating: "AB", count: 32)
        #expect(try RequestRules.checked(SignatureRequest(reference: "R", documentSha256: upper)).documentSha256 == upper.lowercased())
    }

    /// Issue 54, defects 1 and 6: a run of combining marks past Unicode's stream-safe limit (30)
    /// is refused, in a reference and in any text the screen lays out.
    @Test(arguments: ["reference", "title", "lines", "signer", "reason"])
    func aLongRunOfCombiningMarksIsRefused(field: String) {
        // U+0334 composes with no letter, so NFC leaves all of them.
        let marked = "a" + String(repeating: "\u{334}", count: 31)
        var request = SignatureRequest(reference: "R")
        switch field {
        case "reference": request.reference = marked
        case "title": request.title = marked
        case "lines": request.lines = ["fine", marked]
        case "signer": request.signer = marked
        default: request.reason = marked
        }
        #expect(Self.problem(request)?.field == field)
        // Thirty in a row are what stream-safe text allows.
        let thirty = "a" + String(repeating: "\u{334}", count: 30)
        #expect(Self.problem(SignatureRequest(reference: thirty, title: thirty)) == nil)
    }

    /// Thirty marks on each of 33 characters is stream-safe, but laying out six such texts took
    /// a turn of 36 ms (scripts/hostile-bench). A text holds at most 300 marks: more than 200
    /// characters of Hindi or Thai need.
    @Test func aTextHoldsABoundedNumberOfMarks() {
        let heavy = String(repeating: "a" + String(repeating: "\u{334}", count: 30), count: 14)
        #expect(Self.problem(SignatureRequest(reference: "R", title: heavy))?.field == "title")
        let hindi = String(repeating: "हस्ताक्षर ", count: 20)
        #expect(Self.problem(SignatureRequest(reference: "R", title: hindi, lines: [hindi])) == nil)
    }

    /// A reference of 26 emoji families is 26 characters but 650 bytes: bounded in bytes too.
    @Test func aReferenceIsBoundedInBytesAsWellAsCharacters() {
        let families = String(repeating: "👨‍👩‍👧‍👦", count: 26)
        #expect(families.count == 26)
        #expect(Self.problem(SignatureRequest(reference: families))?.field == "reference")
        #expect(Self.problem(SignatureRequest(reference: String(repeating: "👨‍👩‍👧‍👦", count: 3))) == nil)
    }

    /// Issue 54, defect 24: a blank reference names nothing.
    @Test(arguments: ["", " ", "\u{3000}\u{3000}", "\u{A0}"])
    func aBlankReferenceIsRefused(reference: String) {
        #expect(Self.problem(SignatureRequest(reference: reference))?.field == "reference")
    }

    /// The reference is kept as NFC, so the same sale typed on two tills is one reference.
    @Test func theReferenceIsKeptComposed() throws {
        let checked = try RequestRules.checked(SignatureRequest(reference: "Zoe\u{308}", title: "Cafe\u{301}"))
        #expect(checked.reference.unicodeScalars.count == 3)
        #expect(checked.title?.unicodeScalars.count == 4)
    }

    @Test func aTimeoutIsFiniteAndInRange() {
        for bad in [Double.nan, .infinity, -1, 0, 4.9, 3601] {
            #expect(throws: RequestProblem.self) { try RequestRules.checkTimeout(bad) }
        }
        #expect(throws: Never.self) { try RequestRules.checkTimeout(5) }
    }

    /// Issue 54, defect 21: with `kiosk.idle_timeout = 0` (never wipe) a request without a
    /// timeout never ended; it now ends after five minutes untouched.
    @Test func aRequestAlwaysEnds() {
        #expect(RequestRules.defaultTimeout(idleTimeout: 0) == 300)
        #expect(RequestRules.defaultTimeout(idleTimeout: 90) == 90)
        #expect(RequestRules.defaultTimeout(idleTimeout: 86_400) == 3600)
    }

    /// Issue 54, defect 24: letters of any script are kept in file names, as the README says; a
    /// name never starts with `-` (a shell's option) or `.` (hidden).
    @Test(arguments: [
        ("Zoë Müller", "Zoë_Müller"),
        ("Ελένη-7", "Ελένη-7"),
        ("-rf", "_rf"),
        (".profile", "_profile"),
        ("SALE 7/42", "SALE_7_42"),
        ("a\u{0}b", "a_b"),
        ("👨‍👩‍👧‍👦x", "_x"),
    ])
    func aReferenceBecomesAFileNamePrefix(reference: String, prefix: String) {
        #expect(SignatureRequest(reference: reference).fileNamePrefix == prefix)
    }

    /// Issue 54, defect 1: every name made from any reference (even one the rules refuse, as a
    /// spool file may hold) fits NAME_MAX with the longest affix, and is cut at a grapheme with a
    /// hash of the whole reference, so two long references that share a start stay apart.
    @Test func everyReferenceMakesANameThatFits() {
        var random = SeededRandom(state: 54)
        var prefixes: [String: String] = [:]
        for _ in 0..<2000 {
            let reference = ReferenceSamples.random(&random)
            let prefix = SignatureRequest(reference: reference).fileNamePrefix
            let id = SignatureRequest.requestID(prefix: prefix, at: 1_795_786_179)
            #expect(prefix.utf8.count <= SignatureRequest.fileNamePrefixBytes, "\(reference.unicodeScalars.map(\.value))")
            #expect(id.utf8.count + SignatureRequest.longestAffixBytes <= 255)
            #expect(!prefix.isEmpty && !prefix.hasPrefix(".") && !prefix.hasPrefix("-") && !prefix.contains("/") && !prefix.utf8.contains(0))
            #expect(String(decoding: Array(prefix.utf8), as: UTF8.self) == prefix, "valid UTF-8")
            let nfc = reference.precomposedStringWithCanonicalMapping
            if let earlier = prefixes[prefix], earlier != nfc, prefix.contains(SignatureRequest.cutMark) {
                Issue.record("two cut references share a name: \(earlier.debugDescription) and \(nfc.debugDescription)")
            }
            prefixes[prefix] = nfc
        }
        // The reported cases: 300 combining marks, 26 emoji families, 179 marks.
        for reference in ["a" + String(repeating: "\u{301}", count: 300), String(repeating: "👨‍👩‍👧‍👦", count: 26), "a" + String(repeating: "\u{301}", count: 179)] {
            let prefix = SignatureRequest(reference: reference).fileNamePrefix
            #expect(prefix.utf8.count <= SignatureRequest.fileNamePrefixBytes)
        }
    }
}
