import Foundation
import Testing
@testable import SignpadExport
import FoundationXML
import SignpadCrypto
import SignpadInk
import SignpadTestSupport

/// A small signature with two strokes and a tap, pressure on some samples.
func sampleRecord() -> SignatureRecord {
    var strokes: [[Sample]] = []
    strokes.append((0..<40).map { i in Sample(Point(100 + Double(i) * 5.25, 200 + 30 * sin(Double(i) / 4)), time: 10 + Double(i) * 0.01, pressure: Double(i) / 40) })
    strokes.append((0..<25).map { i in Sample(Point(150 + Double(i) * 3, 150 + Double(i) * 4.125), time: 11 + Double(i) * 0.012) })
    strokes.append([Sample(Point(320.5, 140.25), time: 12)])
    return SignatureRecord(id: "20261121T170502Z-test", signature: Signature(strokes: strokes), startedAt: 1_795_000_000.25,
                           endedAt: 1_795_000_002.25, device: "test panel", screenWidth: 800, screenHeight: 480)
}

func temporaryDirectory() -> String {
    let path = NSTemporaryDirectory() + "signpad-test-" + UUID().uuidString
    return path
}

@Suite struct ExportFormatTests {
    @Test func sha256MatchesKnownVectors() {
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Array(repeating: 0x61, count: 1000)) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }

    @Test(.enabled(if: toolExists("pngcheck"), "skipped: pngcheck is not installed (scripts/install-deps installs it)"))
    func pngPassesPngcheckInBothBackgrounds() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        var record = sampleRecord()
        record.device = "Stift\u{0} «Ü»"
        record.settings.kiosk = "Café desk ✓"
        for transparent in [false, true] {
            let files = try SignatureEncoder.files(for: record, options: ExportOptions(transparent: transparent))
            let path = dir + "/t\(transparent).png"
            try Data(try #require(files.first { $0.name.hasSuffix(".png") }).bytes).write(to: URL(fileURLWithPath: path))
            let check = try run("pngcheck", ["-v", path])
            #expect(check.status == 0, "\(check.output)")
            #expect(check.output.contains(transparent ? "RGB+alpha" : "24-bit RGB"), "\(check.output)")
            #expect(check.output.components(separatedBy: "chunk iTXt").count == 5, "\(check.output)")
            // A PNG kept apart from its metadata still says what it is, read by a reader of our own.
            #expect(try PNGReader.texts(path) == ["Title": record.id, "Creation Time": ISO8601.string(record.startedAt),
                                                   "Source": "Stift\u{FFFD} «Ü»", "Kiosk": "Café desk ✓"])
        }
    }

    @Test func pngIsTrimmedToTheInkWithTheMarginAndScale() {
        let signature = sampleRecord().signature
        let bounds = signature.bounds!
        let one = SignatureImage(signature, pen: SmootherOptions(), options: ExportOptions(margin: 10, scale: 1))
        let two = SignatureImage(signature, pen: SmootherOptions(), options: ExportOptions(margin: 10, scale: 2))
        #expect(abs(Double(one.width) - (bounds.max.x - bounds.min.x + 2 * (1.25 + 1 + 10))) <= 1)
        #expect(abs(Double(two.width) - (2 * Double(one.width) - 20)) <= 2, "the margin is in output pixels, not scaled")
        let r = one.render(background: 0xFFFFFF, ink: 0)
        // The margin is blank, the ink is inside.
        let canvas = r.canvas
        let marginIsBlank = (0..<canvas.height).allSatisfy { y in canvas[0, y] == 0xFFFFFF && canvas[5, y] == 0xFFFFFF }
        #expect(marginIsBlank)
        #expect(r.canvas.pixels.contains(0x000000))
    }

    @Test(.enabled(if: toolExists("rsvg-convert"), "skipped: rsvg-convert is not installed (scripts/install-deps installs it)"))
    func svgRendersToTheSameInkAsThePNG() throws {
        let record = sampleRecord()
        let options = ExportOptions(margin: 8)
        let image = SignatureImage(record.signature, pen: record.settings.pen, options: options)
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let svgPath = dir + "/s.svg", rendered = dir + "/s.png"
        try SVGEncoder.encode(image, ink: 0, transparent: false).write(toFile: svgPath, atomically: true, encoding: .utf8)
        let conversion = try run("rsvg-convert", ["-o", rendered, svgPath])
        #expect(conversion.status == 0, "\(conversion.output)")
        let svgPixels = try PNGReader.rgb(rendered)
        #expect(svgPixels.width == image.width && svgPixels.height == image.height)
        // Compare ink masks: a pixel is ink when darker than mid-grey. Antialiasing may differ at
        // the edges, so allow a one-pixel neighbourhood.
        let ours = image.render(background: 0xFFFFFF, ink: 0).canvas
        func dark(_ v: UInt32) -> Bool { (v & 0xFF) < 128 }
        var inkPixels = 0, unmatched = 0
        for y in 1..<(image.height - 1) {
            for x in 1..<(image.width - 1) where dark(ours[x, y]) {
                inkPixels += 1
                let near = (-1...1).contains { dy in (-1...1).contains { dx in dark(svgPixels.pixel(x + dx, y + dy)) } }
                if !near { unmatched += 1 }
            }
        }
        #expect(inkPixels > 500)
        #expect(Double(unmatched) / Double(inkPixels) < 0.01, "\(unmatched) of \(inkPixels) ink pixels have no SVG ink near them")
    }

    @Test func inkmlRoundTripsToTheSameSamples() throws {
        let record = sampleRecord()
        let text = InkMLEncoder.encode(record)
        #expect(text.contains("<traceFormat xml:id=\"tf0\">"))
        #expect(text.contains("<channel name=\"F\""))
        let traces = try InkMLReader.traces(text)
        #expect(traces.count == record.signature.strokes.count)
        for (trace, stroke) in zip(traces, record.signature.strokes) {
            #expect(trace.contextRef == "#ctx0")
            #expect(trace.points.count == stroke.count)
            #expect(trace.points.first?.x == stroke.first?.point.x && trace.points.first?.y == stroke.first?.point.y)
            #expect(trace.points.last?.x == stroke.last?.point.x && trace.points.last?.y == stroke.last?.point.y)
            for (p, s) in zip(trace.points, stroke) {
                #expect(p.x == s.point.x && p.y == s.point.y)
                #expect(abs(p.t - (s.time - record.firstSampleTime) * 1000) < 0.001)
                #expect(p.f == (s.pressure ?? -1))
            }
        }
    }

    /// The reader the round trip relies on refuses what an XML parser refuses, so the round trip
    /// also shows the file is well-formed InkML.
    @Test func inkmlReaderRefusesMalformedOrForeignXML() {
        let text = InkMLEncoder.encode(sampleRecord())
        #expect(throws: InkMLReader.Failure.self) { try InkMLReader.traces(text.replacingOccurrences(of: "</ink>", with: "")) }
        #expect(throws: InkMLReader.Failure.self) { try InkMLReader.traces(text.replacingOccurrences(of: "2003/InkML", with: "2003/Ink")) }
        #expect(throws: InkMLReader.Failure.self) { try InkMLReader.traces(text.replacingOccurrences(of: "</trace>", with: " & </trace>")) }
    }

    @Test func signaturePadJSONRoundTripsToTheSameSamples() throws {
        let record = sampleRecord()
        let data = try SignaturePadJSON.encode(record)
        let groups = try JSONDecoder().decode([SignaturePadJSON.Group].self, from: Data(data))
        #expect(groups.count == record.signature.strokes.count)
        for (group, stroke) in zip(groups, record.signature.strokes) {
            #expect(group.penColor == "rgb(0, 0, 0)")
            #expect(group.points.map(\.x) == stroke.map(\.point.x))
            #expect(group.points.map(\.y) == stroke.map(\.point.y))
            #expect(abs(group.points[0].time - (record.startedAt * 1000 + (stroke[0].time - record.firstSampleTime) * 1000)) < 1)
        }
        // The keys signature_pad's fromData reads.
        let object = try JSONSerialization.jsonObject(with: Data(data)) as! [[String: Any]]
        #expect(Set(object[0].keys).isSuperset(of: ["penColor", "dotSize", "minWidth", "maxWidth", "points"]))
        #expect(Set((object[0]["points"] as! [[String: Any]])[0].keys) == ["x", "y", "time", "pressure"])
    }

    /// A back office collecting several kiosks' signatures reads where each was signed; names
    /// with XML's own characters, or a device naming itself with a control character, still
    /// give InkML an XML parser reads, and the names read back as written.
    @Test func theKioskAndDeviceAreReadBackFromInkMLAndTheMetadata() throws {
        var record = sampleRecord()
        record.device = "Pen <A&B> \"v2\" it's\u{7}"
        let kiosk = "Front desk <2> & \"café\" 'east'"
        record.settings.kiosk = kiosk
        let files = try SignatureEncoder.files(for: record, options: ExportOptions())
        let inkml = String(decoding: try #require(files.first { $0.name.hasSuffix(".inkml") }).bytes, as: UTF8.self)
        let annotations = try InkMLReader.annotations(inkml)
        #expect(annotations["kiosk"] == kiosk)
        #expect(annotations["device"] == "Pen <A&B> \"v2\" it's\u{FFFD}", "a control character XML forbids is replaced")
        #expect(annotations["captureStart"] == ISO8601.string(record.startedAt))
        let meta = try JSONDecoder().decode(SignatureMetadata.self, from: Data(files.last!.bytes))
        #expect(meta.kiosk == kiosk && meta.device == record.device)
        // The SVG's title and description, read by libxml2 as a browser or a back office's tool would.
        let svg = try XMLDocument(data: Data(try #require(files.first { $0.name.hasSuffix(".svg") }).bytes))
        let read = { (name: String) in try svg.nodes(forXPath: "/*[local-name()='svg']/*[local-name()='\(name)']").first?.stringValue }
        #expect(try read("title") == record.id)
        #expect(try read("desc") == "Creation Time: \(ISO8601.string(record.startedAt))\nSource: Pen <A&B> \"v2\" it's\u{FFFD}\nKiosk: \(kiosk)")
    }

    @Test func metadataNamesEveryFileWithItsHash() throws {
        let files = try SignatureEncoder.files(for: sampleRecord(), options: ExportOptions())
        #expect(files.map(\.name).last == "20261121T170502Z-test.meta.json", "metadata is written last")
        let meta = try JSONDecoder().decode(SignatureMetadata.self, from: Data(files.last!.bytes))
        #expect(meta.strokes == 3 && meta.samples == 66)
        #expect(meta.files.count == 4)
        for file in files.dropLast() { #expect(meta.files[file.name]?.sha256 == SHA256.hex(file.bytes)) }
    }
}

@Suite struct FolderWriterTests {
    @Test func writesAtomicallyWithTheRightModesAndCleansUpCrashLeftovers() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let writer = FolderWriter(directory: dir)
        try writer.prepare()
        #expect(FileManager.default.createFile(atPath: dir + "/\(FolderWriter.temporaryPrefix)half.png", contents: Data([1, 2])))
        // As a start after a crash does.
        try writer.prepare()
        try writer.write([("a.png", [1, 2, 3]), ("a.meta.json", Array("{}".utf8))])
        let names = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(names == ["a.meta.json", "a.png"], "no temporary file is left")
        let fileMode = try FileManager.default.attributesOfItem(atPath: dir + "/a.png")[.posixPermissions] as? Int
        let dirMode = try FileManager.default.attributesOfItem(atPath: dir)[.posixPermissions] as? Int
        #expect(fileMode == 0o640)
        #expect(dirMode == 0o750)
        #expect(FileManager.default.contents(atPath: dir + "/a.png") == Data([1, 2, 3]))
    }

    @Test func aFolderThatMayNotBeMadeIsNamedMissingAndAMissingParentIsNamed() throws {
        let parent = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: parent) }
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        let notMade = FolderWriter(directory: parent + "/signatures", createsFolder: false)
        #expect(throws: ExportError(path: parent + "/signatures", operation: "writing into it", errno: ENOENT)) { try notMade.write([("a.json", [1])]) }
        #expect(!FileManager.default.fileExists(atPath: parent + "/signatures"))
        #expect(throws: ExportError(path: parent + "/signatures", operation: "opening the folder", errno: ENOENT)) { try notMade.prepare() }

        // Made, but in a folder that is not there (with the trailing slash a configuration may have).
        do {
            try FolderWriter(directory: parent + "/share/signatures/").prepare()
            Issue.record("a folder was made in a missing one")
        } catch {
            #expect(error.description == "\(parent)/share/signatures/: creating the folder: the folder it goes in, \(parent)/share, is missing (No such file or directory)")
        }
    }

    /// Several kiosks often write to one folder on a network share. One starting must not
    /// remove a file another is writing at that moment: that write would fail (the rename
    /// finds nothing) and its kiosk would tell staff the folder is missing.
    @Test func aTemporaryFileAnotherWriterHoldsStaysAndOnlyAbandonedOnesGo() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let writer = FolderWriter(directory: dir)
        try writer.prepare()
        let inFlight = dir + "/\(FolderWriter.temporaryPrefix)other-kiosk.png", abandoned = dir + "/\(FolderWriter.temporaryPrefix)crashed.png"
        #expect(FileManager.default.createFile(atPath: abandoned, contents: Data([1, 2])))
        // Another writer, mid-write: its own open file description, locked as FolderWriter locks it.
        let other = open(inFlight, O_WRONLY | O_CREAT, 0o640)
        #expect(other >= 0 && flock(other, LOCK_EX | LOCK_NB) == 0)

        try writer.prepare()
        try writer.write([("mine.png", [7, 8, 9])])
        #expect(FileManager.default.fileExists(atPath: inFlight), "the file another writer holds was removed")
        #expect(!FileManager.default.fileExists(atPath: abandoned), "the crash's leftover stays")
        #expect(FileManager.default.contents(atPath: dir + "/mine.png") == Data([7, 8, 9]))

        // Once that writer is gone (the kernel drops its lock), its file is a leftover too.
        close(other)
        try writer.prepare()
        #expect(!FileManager.default.fileExists(atPath: inFlight))
    }

    /// A write lists nothing: listing takes time in proportion to everything the folder holds
    /// (years of signatures, on a share), so only the start looks for leftovers.
    @Test func aWriteTouchesNoOtherFileInTheFolder() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let writer = FolderWriter(directory: dir)
        try writer.prepare()
        let leftover = dir + "/\(FolderWriter.temporaryPrefix)from-a-crash.png"
        #expect(FileManager.default.createFile(atPath: leftover, contents: Data([1])))
        try writer.write([("b.png", [4, 5])])
        #expect(FileManager.default.fileExists(atPath: leftover), "the write listed the folder and cleaned it")
        try writer.prepare()
        #expect(!FileManager.default.fileExists(atPath: leftover), "the start's cleaning missed it")
    }

    /// A drop box: a folder on a share that kiosks may write into but not list.
    @Test(.enabled(if: getuid() != 0, "skipped: as root every folder can be listed"))
    func aFolderThatCannotBeListedIsWrittenTo() throws {
        let dir = temporaryDirectory()
        defer { chmod(dir, 0o700); try? FileManager.default.removeItem(atPath: dir) }
        let writer = FolderWriter(directory: dir)
        try writer.prepare()
        #expect(chmod(dir, 0o300) == 0)
        try writer.prepare()
        try writer.write([("c.png", [6])])
        chmod(dir, 0o700)
        #expect(FileManager.default.contents(atPath: dir + "/c.png") == Data([6]))
    }

    @Test func aMissingParentIsAClearError() {
        let writer = FolderWriter(directory: "/nonexistent-signpad/deeper/signatures")
        do {
            try writer.write([("a.png", [1])])
            Issue.record("expected an error")
        } catch {
            #expect("\(error)".contains("/nonexistent-signpad/deeper/signatures"))
            #expect("\(error)".contains("missing"))
        }
    }
}
