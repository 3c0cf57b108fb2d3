import Foundation
import SignpadExport
import SignpadTestSupport
import SignpadVocabulary
import Testing

/// ISO/IEC 19794-7:2007 full-format records: the bytes Wacom's published sample has, the reader's
/// refusals, and the record signpad makes of a signature.
@Suite struct ISORecordTests {
    typealias D = ISOSignatureRecord.ChannelDescription

    /// The design notes' byte-level decode of Wacom's published sample: the header, the five
    /// channels' preambles, the count (234) and the first point, X 9027, Y 4154, T 0, F 106, S 1.
    static let wacomStart: [UInt8] = [
        0x53, 0x44, 0x49, 0x00, 0x20, 0x31, 0x30, 0x00, 0xC1, 0x60,
        0xE0, 0xB4, 0x80, 0x80, 0x00, 0xA7, 0xBF,
        0xE0, 0xB4, 0x80, 0x80, 0x00, 0x9D, 0xCF,
        0x80, 0xE9, 0xC4,
        0x60, 0x00, 0x00, 0x01, 0xFF,
        0x00,
        0x00, 0x00, 0x00, 0x00, 0xEA,
        0xA3, 0x43, 0x90, 0x3A, 0x00, 0x00, 0x00, 0x6A, 0x01,
    ]

    static var wacomLike: ISOSignatureRecord {
        var values: [Int] = []
        for i in 0..<234 { values += [9027 + i, 4154 + i / 2, i * 50, i == 233 ? 0 : 106, i == 233 ? 0 : 1] }
        return ISOSignatureRecord(channels: [
            D(.x, scale: ISOScale(100)!, minimum: 0, maximum: 10175), D(.y, scale: ISOScale(100)!, minimum: 0, maximum: 7631),
            D(.t, scale: ISOScale(10_000)!), D(.f, minimum: 0, maximum: 511), D(.s),
        ], values: values)
    }

    @Test func aHandBuiltRecordStartsAsWacomsPublishedSampleByteForByte() throws {
        let bytes = Self.wacomLike.bytes()
        #expect(Array(bytes.prefix(Self.wacomStart.count)) == Self.wacomStart,
                "\(bytes.prefix(Self.wacomStart.count).map { String(format: "%02X", $0) }.joined(separator: " "))")
        #expect(bytes.count == Self.wacomStart.count - 9 + 234 * 9, "nine bytes a point: four 16-bit channels and S in one byte")
    }

    @Test func thePublishedSamplesHeaderReadsAsTheDesignNotesDecodeIt() throws {
        // The published start, then the 233 points it goes on with (as the hand-built record has them).
        let bytes = Self.wacomStart + Self.wacomLike.bytes().dropFirst(Self.wacomStart.count)
        let record = try ISORecordReader.read(Array(bytes))
        #expect(record.channels.map(\.channel) == [.x, .y, .t, .f, .s])
        #expect(record.channels[0].scale?.value == 100 && record.channels[0].minimum == 0 && record.channels[0].maximum == 10175)
        #expect(record.channels[1].maximum == 7631 && record.channels[2].scale?.value == 10_000 && record.channels[3].maximum == 511)
        #expect(record.pointCount == 234)
        #expect(Array(record.values.prefix(5)) == [9027, 4154, 0, 106, 1])
    }

    @Test(arguments: [(100.0, UInt16(0xB480)), (10_000, 0xE9C4), (1, 0x8000), (1000, 0xCFA0), (60.47244, 0xAF1E)])
    func scalesAreAFiveBitExponentAndAnElevenBitFraction(value: Double, bits: UInt16) throws {
        let scale = try #require(ISOScale(value))
        #expect(scale.bits == bits, "\(value): \(String(scale.bits, radix: 16))")
        #expect(abs(scale.value - value) / value < 1.0 / 4096)
        #expect(ISOScale(0) == nil && ISOScale(.infinity) == nil && ISOScale(70_000) == nil && ISOScale(65_520)?.bits == 0xFFFF)
    }

    enum Breakage: Sendable { case set(Int, UInt8), cutTo(Int), append }

    /// Each broken record is refused at the byte that breaks it, saying what was expected there.
    @Test(arguments: [
        ("bad identifier", [.set(2, 0x58)], 0, "format identifier"),
        ("another version", [.set(5, 0x32)], 4, "the 2007 full format"),
        ("no T nor DT", [.set(8, 0xC0), .set(9, 0x20)], 8, "T or DT"),
        ("reserved preamble bit", [.set(10, 0xE1)], 10, "reserved bit"),
        ("constant channel", [.set(10, 0xE4)], 10, "constant"),
        ("maximum below minimum", [.set(15, 0x7F)], 15, "below its minimum"),
        ("reserved byte", [.set(33, 1)], 33, "reserved byte"),
        ("extended data flag", [.set(34, 2)], 34, "0 or 1"),
        ("points cut short", [.cutTo(38 + 234 * 9 - 5)], 38, "need 2106 bytes, found 2101"),
        ("S neither 0 nor 1", [.set(38 + 8, 2)], 46, "point 0's S 2 is outside 0…1"),
        ("X above its maximum", [.set(38 + 9, 0xFF)], 47, "point 1's X 32580 is outside 0…10175"),
        ("T going back", [.set(38 + 9 + 4, 0xFF)], 38 + 18 + 4, "point 2's T 100 is before the point before it (65330)"),
        ("F above its maximum", [.set(38 + 6, 0x02)], 44, "point 0's F 618 is outside 0…511"),
        ("a byte after the end", [.append], 38 + 234 * 9, "1 byte follows"),
        ("cut in the header", [.cutTo(12)], 11, "the record ends (12 bytes)"),
    ] as [(String, [Breakage], Int, String)])
    func aBrokenRecordNamesItsByteAndRule(name: String, breakages: [Breakage], offset: Int, rule: String) throws {
        var bytes = Self.wacomLike.bytes()
        #expect(throws: Never.self) { try ISORecordReader.read(bytes) }
        for breakage in breakages {
            switch breakage {
            case .set(let at, let value): bytes[at] = value
            case .cutTo(let count): bytes.removeLast(bytes.count - count)
            case .append: bytes.append(0)
            }
        }
        do {
            _ = try ISORecordReader.read(bytes)
            Issue.record("\(name): read without an error")
        } catch {
            #expect(error.offset == offset && error.rule.contains(rule), "\(name): \(error)")
        }
    }

    /// A pen's tilt is TX and TY, after S, in hundredths of a degree, where every sample has it.
    @Test func aPensTiltIsTXAndTY() throws {
        var record = sampleRecord()
        record.signature.strokes = record.signature.strokes.map { $0.enumerated().map { i, s in
            Sample(s.point, time: s.time, pressure: s.pressure, tilt: Tilt(x: Int16(i * 10), y: -4500)) } }
        let iso = try ISORecordReader.read(ISOSignatureEncoder.record(record).bytes())
        #expect(iso.channels.map(\.channel) == [.x, .y, .t, .s, .tx, .ty])
        #expect(iso.channels[4].scale?.value == 100 && iso.channels[4].minimum == -9000 && iso.channels[5].maximum == 9000)
        #expect(iso.value(.tx, point: 1) == 10 && iso.value(.ty, point: 1) == -4500)
        record.signature.strokes[0][0] = Sample(record.signature.strokes[0][0].point, time: record.signature.strokes[0][0].time)
        let partly = try ISORecordReader.read(ISOSignatureEncoder.record(record).bytes())
        #expect(partly.channels.map(\.channel) == [.x, .y, .t, .s], "a sample without tilt: no TX, TY")
        #expect(String(decoding: partly.extendedData ?? [], as: UTF8.self).contains("no TX or TY, as some strokes were made without tilt"))
    }

    /// The input device's resolution scales X and Y before the screen's, and the record says which.
    @Test func theInputDevicesSurfaceScalesXAndYBeforeTheScreens() throws {
        var record = sampleRecord()
        record.pixelDensity = PixelDensity(x: 3.5, y: 3.5)
        record.inputDensity = InputDensity(device: "Wacom ISDv4 E6 Pen", density: PixelDensity(x: 2.5, y: 4))
        let iso = try ISORecordReader.read(ISOSignatureEncoder.record(record).bytes())
        #expect(iso.channels[0].scale?.value == 40 && iso.channels[1].scale?.value == 64, "2.5 and 4 px/mm in 1/16 px")
        let said = String(decoding: iso.extendedData ?? [], as: UTF8.self)
        #expect(said.contains("2.50x4.00 px/mm of the surface of Wacom ISDv4 E6 Pen, from its resolution"), "\(said)")
        record.inputDensity = nil
        let screen = String(decoding: try ISORecordReader.read(ISOSignatureEncoder.record(record).bytes()).extendedData ?? [], as: UTF8.self)
        #expect(screen.contains("from the panel's EDID (the screen's resolution: the input device gives none)"), "\(screen)")
    }

    /// signpad's record of a signature: X and Y in 1/16 px on an 800-pixel screen, T at Wacom's
    /// 0.1 ms, no F (a stroke has none), S 0 once after each stroke, and the units said.
    @Test func aSignatureBecomesPointsWithALiftAfterEachStroke() throws {
        var record = sampleRecord()
        record.pixelDensity = PixelDensity(x: 3.5, y: 3.5)
        let iso = try ISORecordReader.read(ISOSignatureEncoder.record(record).bytes())
        #expect(iso.channels.map(\.channel) == [.x, .y, .t, .s])
        #expect(iso.channels[0].scale?.value == 56 && iso.channels[0].maximum == 800 * 16 - 1 && iso.channels[1].maximum == 480 * 16 - 1)
        #expect(iso.channels[2].scale?.value == 10_000)
        let strokes = record.signature.strokes
        #expect(iso.pointCount == strokes.joined().count + strokes.count)
        var point = 0
        for stroke in strokes {
            for sample in stroke {
                #expect(iso.value(.x, point: point) == Int((sample.point.x * 16).rounded()) && iso.value(.y, point: point) == Int((sample.point.y * 16).rounded()))
                #expect(iso.value(.t, point: point) == Int(((sample.time - record.firstSampleTime) * 10_000).rounded()))
                #expect(iso.value(.s, point: point) == 1)
                point += 1
            }
            #expect(iso.value(.s, point: point) == 0 && iso.value(.t, point: point) == iso.value(.t, point: point - 1))
            point += 1
        }
        let note = String(decoding: try #require(iso.extendedData), as: UTF8.self)
        #expect(note.contains("1/16 screen pixel") && note.contains("3.50x3.50 px/mm") && note.contains("no F"), "\(note)")
    }

    /// A description's values take two bytes whatever the channel, S's too (its points take one).
    @Test func describedSReadsBackAndSampleTimesOutOfOrderStillGiveAValidRecord() throws {
        let described = ISOSignatureRecord(channels: [D(.x, minimum: -5, maximum: 5), D(.y), D(.t), D(.s, minimum: 0, maximum: 1)],
                                           values: [-5, 1, 0, 1, 5, 2, 3, 0])
        let bytes = described.bytes()
        #expect(Array(bytes[10...18]) == [0x60, 0x7F, 0xFB, 0x80, 0x05, 0x00, 0x00, 0x60, 0x00], "X: min -5, max 5 offset by 0x8000; Y and T bare; S: 0x60")
        #expect(Array(bytes[18...21]) == [0x00, 0x00, 0x00, 0x01], "S's minimum and maximum, two bytes each")
        #expect(try ISORecordReader.read(bytes) == described)
        // A spooled record's times may go back; the record's T never does.
        var record = sampleRecord()
        record.signature.strokes[1][3].time = record.signature.strokes[1][2].time - 0.5
        #expect(throws: Never.self) { try ISORecordReader.read(ISOSignatureEncoder.record(record).bytes()) }
    }

    /// A pen's signature has F; a long one gets a coarser T (a 16-bit T at 0.1 ms ends at 6.5 s),
    /// and a 4K screen coarser X and Y.
    @Test func pressureALongSignatureAndALargeScreen() throws {
        let samples = (0..<100).map { i in Sample(Point(Double(i) * 38, 2000), time: 50 + Double(i) * 0.9, pressure: Double(i) / 99) }
        let record = SignatureRecord(id: "20261121T170502Z-long", signature: Signature(strokes: [samples]), startedAt: 1_795_000_000,
                                     endedAt: 1_795_000_090, device: "pen", screenWidth: 3840, screenHeight: 2160)
        let iso = try ISORecordReader.read(ISOSignatureEncoder.record(record).bytes())
        #expect(iso.channels.map(\.channel) == [.x, .y, .t, .f, .s])
        #expect(iso.channels[2].scale?.value == 100, "89.1 s needs 100 per second")
        #expect(iso.value(.t, point: 99) == 8910 && iso.value(.f, point: 99) == 65535 && iso.value(.f, point: 0) == 0)
        #expect(iso.channels[0].maximum == 3840 * 8 - 1 && iso.value(.x, point: 99) == 99 * 38 * 8)
        #expect(iso.channels[0].scale == nil, "no size known, no scale")
    }

    /// The CBEFF record validates with libxml2 against the BIR's schema, and its BDB, decoded
    /// by coreutils, is the binary record byte for byte.
    @Test func theCBEFFRecordValidatesAndHoldsTheBinaryRecord() throws {
        try requirePeer(.tool("xmllint"))
        try requirePeer(.tool("base64"))
        let dir = scratch()
        defer { removeScratch(dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        var record = sampleRecord()
        record.id = "20261121T170502Z-01b29568-2a45-46ed-8ad4-496c72c1f4d6"
        let files = try SignatureEncoder.files(for: record, options: ExportOptions(formats: [.iso19794_7, .cbeff]), evidence: testEvidence)
        #expect(files.map(\.name).prefix(2) == ["\(record.id).sig.bin", "\(record.id).cbeff.xml"])
        for file in files { try Data(file.bytes).write(to: URL(fileURLWithPath: dir + "/" + file.name)) }
        let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("schemas/cbeff-bir.xsd").path
        let xml = "\(dir)/\(record.id).cbeff.xml"
        let valid = try run("xmllint", ["--noout", "--schema", schema, xml])
        #expect(valid.status == 0, "\(valid.output)")
        let same = try run("sh", ["-c", "xmllint --xpath 'string(//*[local-name()=\"BDB\"])' '\(xml)' | base64 -d | cmp - '\(dir)/\(record.id).sig.bin'"])
        #expect(same.status == 0, "\(same.output)")
        let index = try run("xmllint", ["--xpath", "string(//*[local-name()='BIRInfo']/*[local-name()='Index'])", xml])
        #expect(index.output.trimmingCharacters(in: .whitespacesAndNewlines) == "01b29568-2a45-46ed-8ad4-496c72c1f4d6", "\(index.output)")
        // The schema refuses what the patron format does not have.
        let broken = try String(contentsOfFile: xml, encoding: .utf8).replacingOccurrences(of: "<Level>Raw</Level>", with: "<Level>Cooked</Level>")
        try broken.write(toFile: xml, atomically: false, encoding: .utf8)
        #expect(try run("xmllint", ["--noout", "--schema", schema, xml]).status != 0)
    }

    /// The CBEFF record as other writers may write it: a prefix, comments, CDATA, line breaks as
    /// character references. And what is no BIR, or has no one BDB, named.
    @Test(arguments: [
        ("<b:BIR xmlns:b='NS'><!-- <b:BDB>AAAA</b:BDB> --><b:BIRInfo><b:Integrity>false</b:Integrity></b:BIRInfo><b:BDB>B64</b:BDB></b:BIR>", nil),
        ("<?xml version='1.0'?>\n<BIR xmlns=\"NS\"><BDB><![CDATA[B64]]></BDB></BIR>", nil),
        ("<BIR xmlns=\"NS\"><BDB>&#xD;&#10;B64&#13;</BDB></BIR>", nil),
        ("<Other xmlns=\"NS\"><BDB>B64</BDB></Other>", "expected a BIR in the namespace NS at the root, found <Other>"),
        ("<BIR xmlns=\"urn:other\"><BDB>B64</BDB></BIR>", "expected a BIR in the namespace NS at the root, found <BIR>"),
        ("<BIR xmlns=\"NS\"><BDB>B64</BDB><BIR><BDB>B64</BDB></BIR></BIR>", "expected one BDB element, found 2"),
        ("<BIR xmlns=\"NS\"><BDB>B64", "the BDB element is not closed"),
        ("<BIR xmlns=\"NS\"><BDB>&bogus;B64</BDB></BIR>", "unknown reference &bogus;"),
    ] as [(String, String?)])
    func theCBEFFRecordIsReadAsXMLHasIt(xml: String, problem: String?) throws {
        let binary = ISOSignatureEncoder.record(sampleRecord()).bytes()
        let text = xml.replacingOccurrences(of: "NS", with: CBEFFRecord.namespace).replacingOccurrences(of: "B64", with: Data(binary).base64EncodedString())
        do {
            let block = try CBEFFRecord.block(in: Array(text.utf8))
            #expect(problem == nil && block == binary, "\(xml)")
        } catch {
            #expect(problem.map { error.reason.replacingOccurrences(of: CBEFFRecord.namespace, with: "NS") == $0 } ?? false, "\(xml): \(error)")
        }
    }

    /// A hand-built compact record: points of one byte a channel, X and Y offset from -128
    /// (as the full format's are from -32768), the channels as given, in the standard's order
    /// whatever order they were given in.
    @Test func aCompactRecordReadsWithTheChannelsItIsGivenAndNamesWhatBreaksIt() throws {
        let bytes: [UInt8] = [0x90, 0x70, 0x05, 0x80, 0x01,   // X 16, Y -16, DT 5, F 128, S 1
                              0xFF, 0x00, 0x0A, 0xFF, 0x01,   // X 127, Y -128, DT 10, F 255, S 1
                              0xFF, 0x00, 0x00, 0x00, 0x00]   // the lift
        let record = try ISORecordReader.readCompact(bytes, channels: [.s, .f, .dt, .y, .x])
        #expect(record.channels.map(\.channel) == [.x, .y, .dt, .f, .s])
        #expect(record.values == [16, -16, 5, 128, 1, 127, -128, 10, 255, 1, 127, -128, 0, 0, 0])
        let report = try ISORecordReport(Array(CBEFFRecord.xml(wrapping: bytes, record: sampleRecord()).utf8), compact: [.x, .y, .dt, .f, .s])
        #expect(report.compact && report.wrapped && report.record == record && report.strokes == 1)
        #expect(report.text.hasPrefix("ISO/IEC 19794-7:2007 compact format, in a CBEFF XML record\nchannels: X Y DT F S\n"), "\(report.text)")
        // A compact record starting 0x30 is no sealed file when its channels are given, unless
        // it is one DER element filling the file, as an envelope is.
        #expect(try ISORecordReport([0x30, 0x82, 0x01, 0x00], compact: [.x, .y]).record.pointCount == 2)
        #expect(throws: ISOInspectError.sealed) { try ISORecordReport([0x30, 0x81, 0x80] + [UInt8](repeating: 7, count: 0x80), compact: [.x, .y]) }
        #expect(throws: ISORecordError(offset: 0, rule: "the record is empty: a compact record holds at least one point")) {
            try ISORecordReader.readCompact([], channels: [.x, .y])
        }

        #expect(throws: ISORecordError(offset: 10, rule: "points of 5 bytes (X Y DT F S) leave 3 byte(s) over at the end")) {
            try ISORecordReader.readCompact(Array(bytes.prefix(13)), channels: [.x, .y, .dt, .f, .s])
        }
        var broken = bytes
        broken[9] = 2
        #expect(throws: ISORecordError(offset: 9, rule: "point 1's S 2 is outside 0…1")) {
            try ISORecordReader.readCompact(broken, channels: [.x, .y, .dt, .f, .s])
        }
        #expect(throws: ISORecordError(offset: 0, rule: "a compact record's channels must include X and Y, given [\"X\", \"T\"]")) {
            try ISORecordReader.readCompact(bytes, channels: [.x, .t])
        }
        // Neither reader takes the other's record, and each says which to use.
        #expect(throws: ISORecordError(offset: 0, rule: "expected the format identifier \"SDI\\0\" (53 44 49 00)")) {
            try ISORecordReader.read(bytes)
        }
        #expect(throws: ISORecordError(offset: 0, rule: "the record starts \"SDI\\0 10\\0\", as a full-format record does: read it without --compact")) {
            try ISORecordReader.readCompact(Self.wacomLike.bytes(), channels: [.x, .y, .t])
        }
    }

    @Test func inspectTakesBothAndNamesASealedFile() throws {
        let record = sampleRecord()
        let binary = ISOSignatureEncoder.record(record).bytes()
        let bare = try ISORecordReport(binary), wrapped = try ISORecordReport(Array(CBEFFRecord.xml(wrapping: binary, record: record).utf8))
        #expect(bare.record == wrapped.record && !bare.wrapped && wrapped.wrapped)
        #expect(bare.strokes == 3 && bare.record.pointCount == 69)
        #expect(throws: ISOInspectError.sealed) { try ISORecordReport([0x30, 0x82, 0x01, 0x00]) }
        do {
            _ = try ISORecordReport(Array("<BIR xmlns=\"\(CBEFFRecord.namespace)\"><BIRInfo/></BIR>".utf8))
            Issue.record("a BIR without a BDB was read")
        } catch {
            #expect("\(error)" == "CBEFF XML: expected a BDB element, found none")
        }
    }
}
