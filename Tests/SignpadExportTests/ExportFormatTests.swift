import Foundation
import FoundationXML
import SignpadCrypto
@testable import SignpadExport
import SignpadInk
import SignpadTestSupport
import SignpadVocabulary
import Testing

@Suite struct ExportFormatTests {
    @Test func sha256MatchesKnownVectors() {
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Array(repeating: 0x61, count: 1000)) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }

    @Test func pngPassesPngcheckInBothBackgrounds() throws {
        try requirePeer(.tool("pngcheck"))
        let dir = scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        var record = sampleRecord()
        record.device = "Stift\u{0} «Ü»"
        record.settings.kiosk = "Café desk ✓"
        for transparent in [false, true] {
            let files = try SignatureEncoder.files(for: record, options: ExportOptions(transparent: transparent), evidence: testEvidence)
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
        let coverage = one.coverage(rows: 0..<one.height)
        // The margin is blank, the ink is inside.
        let marginIsBlank = (0..<one.height).allSatisfy { y in coverage.level(x: 0, y: y) == 0 && coverage.level(x: 5, y: y) == 0 }
        #expect(marginIsBlank)
        #expect((0..<one.height).contains { y in (0..<one.width).contains { x in coverage.level(x: x, y: y) == 255 } })
    }

    /// The PNG is drawn a band of rows at a time, so that an image of any size never holds a
    /// frame; across the bands' edges its pixels are still exactly what the screen's renderer
    /// draws of the same pieces in one piece. Read back by Python's zlib.
    @Test(arguments: [1.0, 1.6])
    func thePNGDrawnInBandsIsWhatTheRendererDraws(scale: Double) throws {
        var record = sampleRecord()
        // Long strokes in every direction and speed, crossing many bands' edges.
        var strokes = record.signature.strokes
        for s in 0..<12 {
            let angle = Double(s) * 0.55
            strokes.append((0..<60).map { i in
                let t = Double(i)
                return Sample(Point(400 + cos(angle) * t * 6 + 20 * sin(t / 5), 240 + sin(angle) * t * 3.7 + 9 * cos(t / 3)),
                              time: 20 + Double(s) + t * 0.008, pressure: 0.2 + 0.6 * abs(sin(t / 7)))
            })
        }
        record.signature = Signature(strokes: strokes)
        record.inkArea = PixelRect(minX: 60, minY: 70, maxX: 760, maxY: 450)
        let image = SignatureImage(record.signature, pen: record.settings.pen, options: ExportOptions(margin: 8, scale: scale), inkArea: record.inkArea)
        #expect(image.height > 4 * SignatureImage.bandRows, "the image spans several bands")
        var whole = InkRenderer(width: image.width, height: image.height)
        whole.clip = image.clip
        var dirty = DirtyRegion()
        for stroke in image.pieces { for piece in stroke { whole.drawDry(piece, dirty: &dirty) } }
        let dir = scratch()
        defer { removeScratch(dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = dir + "/banded.png"
        try Data(image.png(transparent: false, ink: 0x102030)).write(to: URL(fileURLWithPath: path))
        let png = try PNGReader.rgb(path)
        #expect(png.width == image.width && png.height == image.height)
        var differing: [String] = []
        var inked = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let expected = XRGB.blend(0xFFFFFF, 0x102030, whole.dryCoverage(x: x, y: y))
                if whole.dryCoverage(x: x, y: y) > 0 { inked += 1 }
                if png.pixel(x, y) != expected { differing.append("(\(x), \(y))") }
            }
        }
        #expect(inked > 5000)
        #expect(differing.count == 0, "\(differing.count) pixels differ from one whole rendering, first \(differing.prefix(5))")
    }

    @Test func svgRendersToTheSameInkAsThePNG() throws {
        try requirePeer(.tool("rsvg-convert"))
        let record = sampleRecord()
        let options = ExportOptions(margin: 8)
        let image = SignatureImage(record.signature, pen: record.settings.pen, options: options)
        let dir = scratch()
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
        let coverage = image.coverage(rows: 0..<image.height)
        func ours(_ x: Int, _ y: Int) -> UInt32 { XRGB.blend(0xFFFFFF, 0, coverage.level(x: x, y: y)) }
        func dark(_ v: UInt32) -> Bool { (v & 0xFF) < 128 }
        var inkPixels = 0, unmatched = 0
        for y in 1..<(image.height - 1) {
            for x in 1..<(image.width - 1) where dark(ours(x, y)) {
                inkPixels += 1
                let near = (-1...1).contains { dy in (-1...1).contains { dx in dark(svgPixels.pixel(x + dx, y + dy)) } }
                if !near { unmatched += 1 }
            }
        }
        #expect(inkPixels > 500)
        #expect(Double(unmatched) / Double(inkPixels) < 0.01, "\(unmatched) of \(inkPixels) ink pixels have no SVG ink near them")
    }

    /// A stroke that left the signature box was clipped on the screen, but the images drew it on
    /// across the buttons. Both images (the PNG read by Python's zlib, the SVG drawn by
    /// rsvg-convert) now hold ink only inside the screen's ink area, as the customer saw it.
    @Test func theImagesAreClippedAsTheScreenWas() throws {
        try requirePeer(.tool("rsvg-convert"))
        var record = sampleRecord()
        // The first stroke runs on to x = 305 and the dot is at x = 320: past the area's edge.
        record.inkArea = PixelRect(minX: 90, minY: 100, maxX: 250, maxY: 300)
        let options = ExportOptions(formats: [.png, .svg], margin: 8, scale: 2)
        let dir = scratch()
        defer { removeScratch(dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for file in try SignatureEncoder.files(for: record, options: options, evidence: testEvidence) {
            try Data(file.bytes).write(to: URL(fileURLWithPath: "\(dir)/\(file.name)"))
        }
        let conversion = try run("rsvg-convert", ["-o", dir + "/svg.png", "\(dir)/\(record.id).svg"])
        #expect(conversion.status == 0, "\(conversion.output)")
        let clip = SignatureImage(record.signature, pen: record.settings.pen, options: options, inkArea: record.inkArea).clip
        for (name, path) in [("PNG", "\(dir)/\(record.id).png"), ("SVG", dir + "/svg.png")] {
            let image = try PNGReader.rgb(path)
            var inside = 0, outside = 0
            for y in 0..<image.height {
                for x in 0..<image.width where image.pixel(x, y) & 0xFF < 200 {
                    if (clip.minX..<clip.maxX).contains(x) && (clip.minY..<clip.maxY).contains(y) { inside += 1 } else { outside += 1 }
                }
            }
            #expect(inside > 500, "\(name): the ink inside the area is there")
            #expect(outside == 0, "\(name): \(outside) ink pixels outside the screen's ink area \(clip)")
        }
        let unclipped = SignatureImage(record.signature, pen: record.settings.pen, options: options)
        #expect(unclipped.width > clip.maxX + 16, "without the area the image reaches the dot at x = 320")
    }

    @Test func inkmlRoundTripsToTheSameSamples() throws {
        var record = sampleRecord()
        // A start between two milliseconds, as a real capture's is.
        record.startedAt = 1_795_786_179.9538894
        let text = InkMLEncoder.encode(record)
        let document = try InkMLReader.read(text)
        let traces = document.traces
        #expect(document.start == (record.startedAt * 1000).rounded(.down), "the timestamp is the capture's start in whole milliseconds")
        #expect(traces.count == record.signature.strokes.count)
        for (trace, stroke) in zip(traces, record.signature.strokes) {
            // Some strokes have pressure and some not: F is intermittent, with no value where none was given.
            #expect(trace.channels == ["X", "Y", "T"] && trace.intermittentChannels == ["F"])
            #expect(trace.points.count == stroke.count)
            #expect(trace.points.first?.x == stroke.first?.point.x && trace.points.first?.y == stroke.first?.point.y)
            #expect(trace.points.last?.x == stroke.last?.point.x && trace.points.last?.y == stroke.last?.point.y)
            for (p, s) in zip(trace.points, stroke) {
                #expect(p.x == s.point.x && p.y == s.point.y)
                // The start and T together give each sample's time to the microsecond.
                #expect(abs(document.start + p.t - (record.startedAt * 1000 + (s.time - record.firstSampleTime) * 1000)) < 0.002)
                #expect(p.f == s.pressure)
            }
        }
    }

    /// A pen and a finger on one signature: one trace format and one context serve every stroke,
    /// so a reader that keeps only one context still reads each trace by its channels. F is
    /// the pen's pressure as captured; the touch stroke gets none. A pen or a finger alone keeps
    /// F regular or leaves it out.
    @Test func aPenAndATouchStrokeShareOneContextAndOneTraceFormat() throws {
        let pen = (0..<6).map { i in Sample(Point(50 + Double(i) * 2.5, 80), time: 3 + Double(i) * 0.01, pressure: Double(i) / 8) }
        let touch = (0..<4).map { i in Sample(Point(70, 60 + Double(i) * 3.75), time: 4 + Double(i) * 0.012) }
        let cases: [(strokes: [[Sample]], regular: [String], intermittent: [String])] = [
            ([pen, touch], ["X", "Y", "T"], ["F"]), ([pen, pen], ["X", "Y", "T", "F"], []), ([touch, touch], ["X", "Y", "T"], []),
        ]
        for (strokes, regular, intermittent) in cases {
            var record = sampleRecord()
            record.signature.strokes = strokes
            let document = try InkMLReader.read(InkMLEncoder.encode(record))
            #expect(document.contexts.count == 1 && document.traceFormats.count == 1,
                    "contexts \(document.contexts), trace formats \(document.traceFormats)")
            #expect(document.traces.count == strokes.count)
            for (trace, stroke) in zip(document.traces, strokes) {
                #expect(trace.contextRef == "#" + (document.contexts.first ?? ""))
                #expect(trace.channels == regular && trace.intermittentChannels == intermittent)
                #expect(trace.points.count == stroke.count)
                for (p, s) in zip(trace.points, stroke) {
                    #expect(p.x == s.point.x && p.y == s.point.y && p.f == s.pressure)
                    #expect(abs(document.start + p.t - (record.startedAt * 1000 + (s.time - record.firstSampleTime) * 1000)) < 0.002)
                }
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

    /// What signpad wrote before (channels outside an inkSource, `units="px"`, −1 for a device
    /// with no pressure) and each way a file can leave the specification: a strict reader refuses
    /// them all, so its accepting signpad's InkML means something.
    @Test func theStrictInkMLReaderRefusesWhatTheSpecificationDoesNot() throws {
        let before = """
        <?xml version="1.0" encoding="UTF-8"?>
        <ink xmlns="http://www.w3.org/2003/InkML" documentID="x">
          <definitions>
            <context xml:id="ctx0">
              <canvas xml:id="screen" traceFormatRef="#tf0"/>
              <traceFormat xml:id="tf0">
                <channel name="X" type="decimal" units="px"/>
                <channel name="Y" type="decimal" units="px"/>
                <channel name="T" type="decimal" units="ms"/>
                <channel name="F" type="decimal"/>
              </traceFormat>
            </context>
          </definitions>
          <trace contextRef="#ctx0">100.0 200.0 0.0 -1.0</trace>
        </ink>
        """
        #expect(throws: InkMLReader.Failure.self) { try InkMLReader.read(before) }
        let text = InkMLEncoder.encode(sampleRecord())
        _ = try InkMLReader.read(text)
        // A pen alone: F is a regular channel, which every point must give.
        var penOnly = sampleRecord()
        penOnly.signature.strokes = [penOnly.signature.strokes[0]]
        let penText = InkMLEncoder.encode(penOnly)
        _ = try InkMLReader.read(penText)
        let broken: [(String, String)] = [
            ("units px", text.replacingOccurrences(of: "<channel name=\"X\" type=\"decimal\"/>", with: "<channel name=\"X\" type=\"decimal\" units=\"px\"/>")),
            ("a dangling context", text.replacingOccurrences(of: "contextRef=\"#ctx\"", with: "contextRef=\"#ctx9\"")),
            ("T from no timestamp", text.replacingOccurrences(of: "respectTo=\"#captureStart\"", with: "respectTo=\"#device\"")),
            ("a missing T", text.replacingOccurrences(of: "<trace contextRef=\"#ctx\">100.0 200.0 0.0 0.0,", with: "<trace contextRef=\"#ctx\">100.0 200.0,")),
            ("a missing regular F", penText.replacingOccurrences(of: "<trace contextRef=\"#ctx\">100.0 200.0 0.0 0.0,", with: "<trace contextRef=\"#ctx\">100.0 200.0 0.0,")),
            ("no value for a regular channel", text.replacingOccurrences(of: "<trace contextRef=\"#ctx\">100.0 200.0", with: "<trace contextRef=\"#ctx\">100.0 ?")),
            ("a value beyond the channels", text.replacingOccurrences(of: "<trace contextRef=\"#ctx\">100.0 200.0 0.0 0.0,", with: "<trace contextRef=\"#ctx\">100.0 200.0 0.0 0.0 0.0,")),
            ("F both regular and intermittent", text.replacingOccurrences(of: "<intermittentChannels>", with: "<channel name=\"F\" type=\"decimal\"/><intermittentChannels>")),
            ("intermittent channels first", text.replacingOccurrences(of: "<channel name=\"X\" type=\"decimal\"/>", with: "<intermittentChannels><channel name=\"B1\"/></intermittentChannels><channel name=\"X\" type=\"decimal\"/>")),
            ("an exponent", text.replacingOccurrences(of: "<trace contextRef=\"#ctx\">100.0 200.0", with: "<trace contextRef=\"#ctx\">1e2 200.0")),
            ("an inkSource without its format", text.replacingOccurrences(of: "<inkSource xml:id=\"device\"", with: "<inkSource").replacingOccurrences(of: "inkSourceRef=\"#device\"", with: "")),
            ("the same id twice", text.replacingOccurrences(of: "xml:id=\"tf\"", with: "xml:id=\"ctx\"")),
            ("a channel outside", text.replacingOccurrences(of: "</definitions>", with: "</definitions><channel name=\"Q\"/>")),
        ]
        for (what, file) in broken {
            #expect(file != text && file != penText, "\(what): the edit applies")
            #expect(throws: InkMLReader.Failure.self, "\(what)") { try InkMLReader.read(file) }
        }
    }

    /// A panel that reports its size gives the resolution, per millimetre as the specification's
    /// units go; numbers far from 1 are written without an exponent and read back exactly.
    @Test func inkmlGivesTheResolutionAndExactPlainNumbers() throws {
        var record = sampleRecord()
        record.pixelDensity = PixelDensity(x: 3.7795275590551185, y: 4.25)
        record.signature.strokes[2] = [Sample(Point(0.000012345, 1e-300), time: record.signature.strokes[2][0].time, pressure: 7.5e-9),
                                       Sample(Point(123456789012345683968, 5), time: record.signature.strokes[2][0].time + 1, pressure: 1)]
        let document = try InkMLReader.read(InkMLEncoder.encode(record))
        #expect(document.resolution?.x == 3.7795275590551185 && document.resolution?.y == 4.25)
        let dot = document.traces[2].points
        #expect(dot[0].x == 0.000012345 && dot[0].y == 1e-300)
        #expect(dot[1].x == 123456789012345683968 && dot[0].f == 7.5e-9)
        #expect(try InkMLReader.read(InkMLEncoder.encode(sampleRecord())).resolution == nil, "no size, no resolution")
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
        // signature_pad takes its widths as radii (it draws `arc(x, y, width)`): half signpad's.
        for (width, expected) in [(PenWidth.constant(2.5), (1.25, 1.25, 1.25)), (.velocity(min: 1, max: 4, filterWeight: 0.6), (0.5, 2, 1.25))] {
            var wide = record
            wide.settings.pen.width = width
            let group = try JSONDecoder().decode([SignaturePadJSON.Group].self, from: Data(try SignaturePadJSON.encode(wide)))[0]
            #expect((group.minWidth, group.maxWidth, group.dotSize) == expected, "\(width)")
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
        let files = try SignatureEncoder.files(for: record, options: ExportOptions(), evidence: testEvidence)
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

    /// Issue 54, defect 15: a device or a request's line that reads "Kiosk: …" cannot forge the
    /// SVG description's Kiosk line; a value's own lines are folded under its keyword.
    @Test func noValueForgesAnotherLineOfTheSVGDescription() throws {
        var record = sampleRecord()
        record.device = SignatureRecord.deviceLabel(["pen\nKiosk: forged"])
        record.settings.kiosk = "desk 1"
        record.request = SignatureRequest(reference: "R", title: "Total", lines: ["Kiosk: forged too"])
        let files = try SignatureEncoder.files(for: record, options: ExportOptions(formats: [.svg]), evidence: testEvidence)
        let svg = try XMLDocument(data: Data(try #require(files.first { $0.name.hasSuffix(".svg") }).bytes))
        let desc = try #require(try svg.nodes(forXPath: "/*[local-name()='svg']/*[local-name()='desc']").first?.stringValue)
        let kioskLines = desc.split(separator: "\n").filter { $0.hasPrefix("Kiosk:") }
        #expect(kioskLines == ["Kiosk: desk 1"], "\(desc)")
        #expect(desc.contains("Shown: Total\n  Kiosk: forged too"), "\(desc)")
    }

    @Test func metadataNamesEveryFileWithItsHash() throws {
        let files = try SignatureEncoder.files(for: sampleRecord(), options: ExportOptions(), evidence: testEvidence)
        #expect(files.map(\.name).last == "20261121T170502Z-test.meta.json", "metadata is written last")
        let meta = try JSONDecoder().decode(SignatureMetadata.self, from: Data(files.last!.bytes))
        #expect(meta.strokes == 3 && meta.samples == 66)
        #expect(meta.files.count == 4)
        for file in files.dropLast(SignatureEncoder.sealCount) { #expect(meta.files[file.name]?.sha256 == SHA256.hex(file.bytes)) }
        #expect(files.map(\.name).suffix(2) == ["20261121T170502Z-test.meta.json.sig", "20261121T170502Z-test.meta.json"])
    }
}

