import Foundation
import Testing
import SignpadExport
import SignpadInk

@Suite struct SignatureSpoolTests {
    @Test func aKeptSignatureComesBackExactlyAndIsGoneOnceReleased() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let spool = SignatureSpool(directory: dir)
        var record = sampleRecord()
        // Times and positions no short decimal holds, and both with and without pressure.
        record.signature.strokes[1][3] = Sample(Point(1.0 / 3, 2.0 / 7), time: 12_345.000_000_123, pressure: nil)
        try spool.keep(record)
        let (records, problems) = try spool.recover()
        #expect(problems.isEmpty)
        #expect(records == [record])
        #expect(try SignatureEncoder.files(for: records[0], options: ExportOptions()).map(\.bytes)
                == SignatureEncoder.files(for: record, options: ExportOptions()).map(\.bytes),
                "the exports of a recovered signature are the live ones, byte for byte")
        try spool.release(record.id)
        #expect(try spool.recover().records.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    @Test(arguments: [
        ("{\"format\": \"signpad-spool\"", "expected a signpad spool file"),
        ("{\"format\":\"other\",\"version\":1,\"id\":\"a\",\"startedAt\":0,\"endedAt\":0,\"device\":\"\",\"screenWidth\":1,\"screenHeight\":1,\"strokes\":[]}", "expected format \"signpad-spool\" version 1"),
        ("{\"format\":\"signpad-spool\",\"version\":1,\"id\":\"a\",\"startedAt\":0,\"endedAt\":0,\"device\":\"\",\"screenWidth\":1,\"screenHeight\":1,\"strokes\":[[[1,2]]]}", "stroke 1, sample 1: expected [x, y, time]"),
        // A spooled point off its screen, or a screen of no size, would export an image of any size.
        ("{\"format\":\"signpad-spool\",\"version\":1,\"id\":\"a\",\"startedAt\":0,\"endedAt\":0,\"device\":\"\",\"screenWidth\":800,\"screenHeight\":480,\"strokes\":[[[1,2,0],[1e12,2,0]]]}", "stroke 1, sample 2: expected a point on the 800x480 screen"),
        ("{\"format\":\"signpad-spool\",\"version\":1,\"id\":\"a\",\"startedAt\":0,\"endedAt\":0,\"device\":\"\",\"screenWidth\":800,\"screenHeight\":480,\"strokes\":[[[1,2,0,7]]]}", "stroke 1, sample 1: expected a pressure from 0 to 1"),
        ("{\"format\":\"signpad-spool\",\"version\":1,\"id\":\"a\",\"startedAt\":0,\"endedAt\":0,\"device\":\"\",\"screenWidth\":0,\"screenHeight\":480,\"strokes\":[]}", "expected a screen from 1x1 to 32768x32768, found 0x480"),
        // Times no export can write (milliseconds overflow to infinity, which JSON cannot hold):
        // the file would fail every try and hold up every signature queued behind it.
        ("{\"format\":\"signpad-spool\",\"version\":1,\"id\":\"a\",\"startedAt\":0,\"endedAt\":0,\"device\":\"\",\"screenWidth\":800,\"screenHeight\":480,\"strokes\":[[[1,2,5],[3,4,1.7e308]]]}", "stroke 1, sample 2: expected a time within 1000000000 s of the first sample's (5.0), found 1.7e+308"),
        ("{\"format\":\"signpad-spool\",\"version\":1,\"id\":\"a\",\"startedAt\":1e300,\"endedAt\":0,\"device\":\"\",\"screenWidth\":800,\"screenHeight\":480,\"strokes\":[[[1,2,5]]]}", "startedAt: expected seconds since 1970 from 0 to 253402300799, found 1e+300"),
        ("{\"format\":\"signpad-spool\",\"version\":1,\"id\":\"../elsewhere\",\"startedAt\":0,\"endedAt\":0,\"device\":\"\",\"screenWidth\":1,\"screenHeight\":1,\"strokes\":[]}", "expected the id \"a\""),
    ])
    func aBadSpoolFileIsNamedAndSetAsideNotLost(contents: String, expected: String) throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let spool = SignatureSpool(directory: dir)
        try spool.keep(sampleRecord())
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: dir + "/a.spool.json", contents: Data(contents.utf8)))
        let (records, problems) = try spool.recover()
        #expect(records.map(\.id) == [sampleRecord().id], "the good file is still read")
        #expect(problems.count == 1)
        #expect(problems.first?.path == dir + "/a.spool.json")
        #expect(problems.first?.reason.contains(expected) == true, "\(problems)")
        #expect(FileManager.default.contents(atPath: dir + "/a.spool.json.bad") == Data(contents.utf8), "set aside as it was")
        #expect(try spool.recover().problems.isEmpty, "and not read again")
    }
}
