import Foundation
import SignpadExport
import SignpadInk
@testable import SignpadOutbox
import SignpadTestSupport
import SignpadVocabulary
import Testing

@Suite struct SignatureSpoolTests {
    @Test func aKeptSignatureComesBackByteForByteAndIsGoneOnceReleased() throws {
        let dir = scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let spool = SignatureSpool(directory: dir)
        var record = sampleRecord()
        record.request = SignatureRequest(reference: "SALE 7/42", title: "Total", lines: ["Card ****1234", "I agree"],
                                          signer: "Ada", reason: "payment", documentSha256: String(repeating: "ab", count: 32))
        let sealed = SealedSignature(id: record.id, files: try SignatureEncoder.files(for: record, options: ExportOptions(), evidence: testEvidence))
        try spool.keep(sealed)
        let (kept, problems) = try spool.recover(olderFilesAs: CaptureSettings())
        #expect(problems.isEmpty)
        #expect(kept == [.sealed(sealed)], "the files come back as they were made, manifest and signature included")
        try spool.release(record.id)
        #expect(try spool.recover(olderFilesAs: CaptureSettings()).kept.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    /// What an older signpad spooled (the record, not its files) is exported as it is written
    /// now; the record comes back exactly, with how it was taken, whatever runs now.
    @Test func anOlderSignpadsSpooledRecordComesBackExactly() throws {
        let dir = scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        var record = sampleRecord()
        // Times and positions no short decimal holds, and both with and without pressure.
        record.signature.strokes[1][3] = Sample(Point(1.0 / 3, 2.0 / 7), time: 12_345.000_000_123, pressure: nil)
        record.inkArea = PixelRect(minX: 90, minY: 100, maxX: 250, maxY: 300)
        record.settings = CaptureSettings(kiosk: "desk A", inkColor: 0x0000C0,
                                          pen: SmootherOptions(minDistance: 1.5, width: .velocity(min: 0.5, max: 6, filterWeight: 0.3)))
        record.request = SignatureRequest(reference: "SALE 7/42", lines: ["I agree"], documentSha256: String(repeating: "ab", count: 32))
        #expect(FileManager.default.createFile(atPath: dir + "/\(record.id).spool.json", contents: Data(try SpooledSignature(record).encoded())))
        let now = CaptureSettings(kiosk: "renamed", inkColor: 0xC00000, pen: SmootherOptions(width: .constant(9)))
        let (kept, problems) = try SignatureSpool(directory: dir).recover(olderFilesAs: now)
        #expect(problems.isEmpty)
        #expect(kept == [.record(record)])
    }

    /// A spool file from a signpad that kept no settings is written with those running now.
    @Test func aSpoolFileFromAnOlderSignpadGetsTheSettingsRunningNow() throws {
        let dir = scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let older = "{\"device\":\"panel\",\"endedAt\":1795000001,\"format\":\"signpad-spool\",\"id\":\"a\",\"screenHeight\":480,\"screenWidth\":800,\"startedAt\":1795000000,\"strokes\":[[[1,2,5],[30,40,5.1,0.5]]],\"version\":1}"
        #expect(FileManager.default.createFile(atPath: dir + "/a.spool.json", contents: Data(older.utf8)))
        let now = CaptureSettings(kiosk: "desk B", inkColor: 0x102030, pen: SmootherOptions(width: .pressure(min: 1, max: 3)))
        let (kept, problems) = try SignatureSpool(directory: dir).recover(olderFilesAs: now)
        #expect(problems.isEmpty)
        guard case .record(let record)? = kept.first else { Issue.record("expected the record, got \(kept)"); return }
        #expect(record.settings == now)
        #expect(record.signature.sampleCount == 2)
    }

    @Test(arguments: [
        ("{\"format\": \"signpad-spool\"", "expected a signpad spool file"),
        ("{\"format\":\"other\",\"version\":1,\"id\":\"a\",\"startedAt\":0,\"endedAt\":0,\"device\":\"\",\"screenWidth\":1,\"screenHeight\":1,\"strokes\":[]}", "expected format \"signpad-spool\" version 1"),
        ("{\"format\":\"signpad-spool\",\"version\":1,\"id\":\"a\",\"startedAt\":0,\"endedAt\":0,\"device\":\"\",\"screenWidth\":1,\"screenHeight\":1,\"strokes\":[[[1,2]]]}", "stroke 1, sample 1: expected [x, y, time]"),
        // A spooled point off its screen, or a screen of no size, would export an image of any size.
        ("{\"format\":\"signpad-spool\",\"version\":1,\"id\":\"a\",\"startedAt\":0,\"endedAt\":0,\"device\":\"\",\"screenWidth\":800,\"screenHeight\":480,\"strokes\":[[[1,2,0],[1e12,2,0]]]}", "stroke 1, sample 2: expected a point on the 800x480 screen"),
        ("{\"format\":\"signpad-spool\",\"version\":1,\"id\":\"a\",\"startedAt\":0,\"endedAt\":0,\"device\":\"\",\"screenWidth\":800,\"screenHeight\":480,\"strokes\":[[[1,2,0,7]]]}", "stroke 1, sample 1: expected a pressure from 0 to 1"),
        ("{\"format\":\"signpad-spool\",\"version\":1,\"id\":\"a\",\"startedAt\":0,\"endedAt\":0,\"device\":\"\",\"screenWidth\":0,\"screenHeight\":480,\"strokes\":[]}", "expected a screen from 1x1 to 8192x4608 (either way up), found 0x480"),
        // A screen no panel has: its samples' extent would be an image of gigabytes, at every start.
        ("{\"format\":\"signpad-spool\",\"version\":1,\"id\":\"a\",\"startedAt\":0,\"endedAt\":0,\"device\":\"\",\"screenWidth\":32768,\"screenHeight\":32768,\"strokes\":[[[0,0,0],[32768,32768,0]]]}", "expected a screen from 1x1 to 8192x4608 (either way up), found 32768x32768"),
        ("{\"format\":\"signpad-spool\",\"version\":1,\"id\":\"a\",\"startedAt\":0,\"endedAt\":0,\"device\":\"\",\"screenWidth\":8192,\"screenHeight\":8192,\"strokes\":[[[0,0,0]]]}", "expected a screen from 1x1 to 8192x4608 (either way up), found 8192x8192"),
        // An ink area off the screen would clip the images to nothing, or to more than was shown.
        ("{\"format\":\"signpad-spool\",\"version\":1,\"id\":\"a\",\"startedAt\":0,\"endedAt\":0,\"device\":\"\",\"screenWidth\":800,\"screenHeight\":480,\"strokes\":[[[1,2,0]]],\"inkArea\":[0,0,900,10]}", "inkArea: expected [minX, minY, maxX, maxY] of a rectangle on the 800x480 screen, found [0, 0, 900, 10]"),
        // No stroke: exported, a blank signature under the customer's name.
        ("{\"format\":\"signpad-spool\",\"version\":1,\"id\":\"a\",\"startedAt\":0,\"endedAt\":0,\"device\":\"\",\"screenWidth\":800,\"screenHeight\":480,\"strokes\":[]}", "expected at least one stroke, found none"),
        // Times no export can write (milliseconds overflow to infinity, which JSON cannot hold):
        // the file would fail every try and hold up every signature queued behind it.
        ("{\"format\":\"signpad-spool\",\"version\":1,\"id\":\"a\",\"startedAt\":0,\"endedAt\":0,\"device\":\"\",\"screenWidth\":800,\"screenHeight\":480,\"strokes\":[[[1,2,5],[3,4,1.7e308]]]}", "stroke 1, sample 2: expected a time within 1000000000 s of the first sample's (5.0), found 1.7e+308"),
        ("{\"format\":\"signpad-spool\",\"version\":1,\"id\":\"a\",\"startedAt\":1e300,\"endedAt\":0,\"device\":\"\",\"screenWidth\":800,\"screenHeight\":480,\"strokes\":[[[1,2,5]]]}", "startedAt: expected seconds since 1970 from 0 to 253402300799, found 1e+300"),
        // Settings out of reason: a pen a billion pixels wide would make an image of any size.
        ("{\"format\":\"signpad-spool\",\"version\":1,\"id\":\"a\",\"startedAt\":0,\"endedAt\":0,\"device\":\"\",\"screenWidth\":800,\"screenHeight\":480,\"strokes\":[],\"pen\":{\"widthMode\":\"constant\",\"width\":1e9,\"minDistance\":0.5}}", "pen: expected a width from 0.1 to 100.0 (px), got 1000000000.0"),
        ("{\"format\":\"signpad-spool\",\"version\":1,\"id\":\"a\",\"startedAt\":0,\"endedAt\":0,\"device\":\"\",\"screenWidth\":800,\"screenHeight\":480,\"strokes\":[],\"pen\":{\"widthMode\":\"quill\",\"minDistance\":0.5}}", "pen: expected widthMode \"constant\" with width"),
        ("{\"format\":\"signpad-spool\",\"version\":1,\"id\":\"a\",\"startedAt\":0,\"endedAt\":0,\"device\":\"\",\"screenWidth\":800,\"screenHeight\":480,\"strokes\":[],\"pen\":{\"widthMode\":\"pressure\",\"minWidth\":5,\"maxWidth\":2,\"minDistance\":0.5}}", "pen: expected the minimum width (5.0) at most the maximum (2.0)"),
        ("{\"format\":\"signpad-spool\",\"version\":1,\"id\":\"a\",\"startedAt\":0,\"endedAt\":0,\"device\":\"\",\"screenWidth\":800,\"screenHeight\":480,\"strokes\":[],\"pen\":{\"widthMode\":\"constant\",\"width\":2,\"minDistance\":-1}}", "pen: expected a minDistance from 0 to 100 (px), got -1.0"),
        ("{\"format\":\"signpad-spool\",\"version\":1,\"id\":\"a\",\"startedAt\":0,\"endedAt\":0,\"device\":\"\",\"screenWidth\":800,\"screenHeight\":480,\"strokes\":[],\"inkColor\":\"red\"}", "inkColor: expected a colour like \"#1A2B3C\", found \"red\""),
        ("{\"format\":\"signpad-spool\",\"version\":1,\"id\":\"a\",\"startedAt\":0,\"endedAt\":0,\"device\":\"\",\"screenWidth\":800,\"screenHeight\":480,\"strokes\":[],\"kiosk\":\"desk\\n2\"}", "kiosk: expected a name without control characters, found U+000A"),
        // A spool of files: each must be the signature's own, in the folder, and match its manifest.
        ("{\"format\":\"signpad-spool\",\"version\":2,\"files\":[{\"name\":\"a.png\",\"base64\":\"AAAA\"}]}", "expected at least one format, then a.meta.json.sig and a.meta.json, last"),
        ("{\"format\":\"signpad-spool\",\"version\":2,\"files\":[{\"name\":\"a/../../b.png\",\"base64\":\"AAAA\"}]}", "expected files named a.<format> with base64 contents, found \"a/../../b.png\""),
        ("{\"format\":\"signpad-spool\",\"version\":2,\"files\":[{\"name\":\"a.png\",\"base64\":\"AAAA\"},{\"name\":\"a.meta.json.sig\",\"base64\":\"AAAA\"},{\"name\":\"a.meta.json\",\"base64\":\"\(Data(#"{"id":"a","kiosk":"","captureStart":"","captureEnd":"","device":"","screen":{"width":1,"height":1},"strokes":1,"samples":1,"files":{"a.png":{"sha256":"00","bytes":3}}}"#.utf8).base64EncodedString())\"}]}", "its files do not match its manifest's sizes and SHA-256 sums: damaged"),
        ("{\"format\":\"signpad-spool\",\"version\":2,\"files\":7}", "expected version 2 of a signpad spool file"),
        // An older signpad's record is checked as a request from the point of sale is (issue 54,
        // defect 15): a device line that forges another field, text no screen took, a hash that is none.
        ("{\"format\":\"signpad-spool\",\"version\":1,\"id\":\"a\",\"startedAt\":0,\"endedAt\":0,\"device\":\"pen\\nKiosk: forged\",\"screenWidth\":800,\"screenHeight\":480,\"strokes\":[[[1,2,0]]]}", "device: expected a name without control characters, found U+000A"),
        ("{\"format\":\"signpad-spool\",\"version\":1,\"id\":\"a\",\"startedAt\":0,\"endedAt\":0,\"device\":\"\",\"screenWidth\":800,\"screenHeight\":480,\"strokes\":[[[1,2,0]]],\"request\":{\"reference\":\"R\",\"lines\":[],\"title\":\"a\\u0007b\"}}", "request: title: expected at most 200 printable characters"),
        ("{\"format\":\"signpad-spool\",\"version\":1,\"id\":\"a\",\"startedAt\":0,\"endedAt\":0,\"device\":\"\",\"screenWidth\":800,\"screenHeight\":480,\"strokes\":[[[1,2,0]]],\"request\":{\"reference\":\"R\",\"lines\":[],\"title\":\"\(String(repeating: "t", count: 100_000))\"}}", "request: title: expected at most 200 printable characters"),
        ("{\"format\":\"signpad-spool\",\"version\":1,\"id\":\"a\",\"startedAt\":0,\"endedAt\":0,\"device\":\"\",\"screenWidth\":800,\"screenHeight\":480,\"strokes\":[[[1,2,0]]],\"request\":{\"reference\":\"R\",\"lines\":[],\"documentSha256\":\"not-hex\"}}", "request: documentSha256: expected 64 hexadecimal digits"),
        ("{\"format\":\"signpad-spool\",\"version\":1,\"id\":\"a\",\"startedAt\":0,\"endedAt\":0,\"device\":\"\",\"screenWidth\":800,\"screenHeight\":480,\"strokes\":[[[1,2,0]]],\"request\":{\"reference\":\"R\\u0000\",\"lines\":[\"x\\ny\"]}}", "request: reference: expected 1 to 64 printable characters"),
        ("{\"format\":\"signpad-spool\",\"version\":1,\"id\":\"../elsewhere\",\"startedAt\":0,\"endedAt\":0,\"device\":\"\",\"screenWidth\":1,\"screenHeight\":1,\"strokes\":[]}", "expected the id \"a\""),
    ])
    func aBadSpoolFileIsNamedAndSetAsideNotLost(contents: String, expected: String) throws {
        let dir = scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let spool = SignatureSpool(directory: dir)
        try spool.keep(SealedSignature(id: sampleRecord().id, files: try SignatureEncoder.files(for: sampleRecord(), options: ExportOptions(), evidence: testEvidence)))
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: dir + "/a.spool.json", contents: Data(contents.utf8)))
        let (kept, problems) = try spool.recover(olderFilesAs: CaptureSettings())
        #expect(kept.map(\.id) == [sampleRecord().id], "the good file is still read")
        #expect(problems.count == 1)
        #expect(problems.first?.path == dir + "/a.spool.json")
        #expect(problems.first?.reason.contains(expected) == true, "\(problems)")
        #expect(FileManager.default.contents(atPath: dir + "/a.spool.json.bad") == Data(contents.utf8), "set aside as it was")
        #expect(try spool.recover(olderFilesAs: CaptureSettings()).problems.isEmpty, "and not read again")
    }

    /// A folder where a spool file would be (made by hand, or a copy gone wrong) is named as a
    /// folder, in one plain line, and set aside; the good files are still read.
    @Test func aFolderInTheSpoolIsNamedPlainlyAndSetAside() throws {
        let dir = scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let spool = SignatureSpool(directory: dir)
        try spool.keep(SealedSignature(id: sampleRecord().id, files: try SignatureEncoder.files(for: sampleRecord(), options: ExportOptions(), evidence: testEvidence)))
        try FileManager.default.createDirectory(atPath: dir + "/a.spool.json", withIntermediateDirectories: true)
        let (kept, problems) = try spool.recover(olderFilesAs: CaptureSettings())
        #expect(kept.map(\.id) == [sampleRecord().id])
        #expect(problems.map(\.reason) == ["is a folder, not a spool file; kept as a.spool.json.bad"], "\(problems)")
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: dir + "/a.spool.json.bad", isDirectory: &isFolder) && isFolder.boolValue)
    }
    /// Issue 54, defect 11: a spool file larger than any signature makes (52 MB took 1.0 GB to
    /// read) is set aside unread.
    @Test func aSpoolFileOverItsBoundIsSetAsideUnread() throws {
        let dir = scratch()
        defer { removeScratch(dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = dir + "/a.spool.json"
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        #expect(truncate(path, off_t(SignatureSpool.maxFileBytes + 1)) == 0)
        let (kept, problems) = try SignatureSpool(directory: dir).recover(olderFilesAs: CaptureSettings())
        #expect(kept.isEmpty)
        #expect(problems.map(\.reason) == ["expected at most \(SignatureSpool.maxFileBytes >> 20) MiB, found \(SignatureSpool.maxFileBytes + 1) bytes; set aside unread; kept as a.spool.json.bad"], "\(problems)")
        #expect(FileManager.default.fileExists(atPath: path + ".bad"))
    }

    /// Issue 54, defect 1: whatever reference named a signature, its spool file is written and
    /// read back under the same id (names of any script, cut ones among them).
    @Test func aSignatureNamedFromAnyReferenceRoundTripsThroughTheSpool() throws {
        let dir = scratch()
        defer { removeScratch(dir) }
        let spool = SignatureSpool(directory: dir)
        var random = SeededRandom(state: 1954)
        var ids: [String] = []
        let template = try SignatureEncoder.files(for: sampleRecord(), options: ExportOptions(formats: [.json]), evidence: testEvidence)
        for _ in 0..<60 {
            let reference = ReferenceSamples.random(&random)
            let id = SignatureRequest.requestID(prefix: SignatureRequest(reference: reference).fileNamePrefix, at: 1_795_786_179)
            var record = sampleRecord()
            record.id = id
            let files = try SignatureEncoder.files(for: record, options: ExportOptions(formats: [.json]), evidence: testEvidence)
            #expect(files.count == template.count)
            try spool.keep(SealedSignature(id: id, files: files))
            ids.append(id)
        }
        let (kept, problems) = try spool.recover(olderFilesAs: CaptureSettings())
        #expect(problems.isEmpty, "\(problems)")
        #expect(Set(kept.map(\.id)) == Set(ids) && kept.count == ids.count)
    }
}
