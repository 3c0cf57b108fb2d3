import Foundation
import SignpadCrypto
import SignpadExport
import SignpadInk
import SignpadOutbox
import SignpadTestSupport
import SignpadVocabulary
import Testing

/// Signatures no hand-written sample has: single-sample strokes, samples on the screen's very
/// edges, repeated samples and times, with and without pressure, on screens from 200x150 to 1080p, at
/// every export option. Each format reads back to what was captured, and so does the spool.
struct RandomRecord {
    var random: SeededRandom

    mutating func record() -> SignatureRecord {
        let width = [200, 800, 1920][Int.random(in: 0..<3, using: &random)]
        let height = [150, 480, 1080][Int.random(in: 0..<3, using: &random)]
        let edges = [0, Double(width) - 1.0 / 256]
        var time = Double.random(in: 0...1e6, using: &random)
        var strokes: [[Sample]] = []
        for _ in 0..<Int.random(in: 1...8, using: &random) {
            let withPressure = Bool.random(using: &random)
            strokes.append((0..<[1, 1, 2, Int.random(in: 3...80, using: &random)][Int.random(in: 0..<4, using: &random)]).map { _ in
                time += [0, 0.001, 0.0083][Int.random(in: 0..<3, using: &random)]
                let x = Int.random(in: 0..<5, using: &random) == 0 ? edges[Int.random(in: 0..<2, using: &random)] : Double.random(in: 0..<Double(width), using: &random)
                let y = Int.random(in: 0..<5, using: &random) == 0 ? 0 : Double.random(in: 0..<Double(height), using: &random)
                return Sample(Point(x, y), time: time, pressure: withPressure ? Double.random(in: 0...1, using: &random) : nil)
            })
        }
        let started = Double.random(in: 1.6e9...2e9, using: &random)
        let widths = (Double.random(in: 0.1...5, using: &random), Double.random(in: 5...100, using: &random))
        let pen = [PenWidth.constant(widths.0), .pressure(min: widths.0, max: widths.1),
                   .velocity(min: widths.0, max: widths.1, filterWeight: Double.random(in: 0...1, using: &random))][Int.random(in: 0..<3, using: &random)]
        let settings = CaptureSettings(kiosk: ["", "desk 7", "Café <Ü> & \"east\""][Int.random(in: 0..<3, using: &random)],
                                       inkColor: UInt32.random(in: 0...0xFFFFFF, using: &random) & 0x7F7F7F,  // dark, for the check that the PNG has ink
                                       pen: SmootherOptions(minDistance: Double.random(in: 0...100, using: &random), width: pen))
        return SignatureRecord(id: "20261122T120000Z-random-\(random.state % 1000)", signature: Signature(strokes: strokes),
                               startedAt: started, endedAt: started + 5, device: "Panel \"ü\" <&>", screenWidth: width, screenHeight: height,
                               settings: settings)
    }

    mutating func options() -> ExportOptions {
        var options = ExportOptions()
        options.margin = [0, 16, 300][Int.random(in: 0..<3, using: &random)]
        options.scale = [0.01, 0.5, 1, 2][Int.random(in: 0..<4, using: &random)]
        options.transparent = Bool.random(using: &random)
        return options
    }
}

@Suite struct RandomExportTests {
    @Test(arguments: 1...20)
    func everyFormatReadsBackToWhatWasCaptured(seed: UInt64) throws {
        var random = RandomRecord(random: SeededRandom(state: seed))
        let record = random.record(), options = random.options()
        let files = try SignatureEncoder.files(for: record, options: options, evidence: testEvidence)
        let byName = Dictionary(uniqueKeysWithValues: files.map { ($0.name, $0.bytes) })
        let strokes = record.signature.strokes

        let traces = try InkMLReader.traces(String(decoding: try #require(byName["\(record.id).inkml"]), as: UTF8.self))
        #expect(traces.map(\.points.count) == strokes.map(\.count), "seed \(seed): InkML traces")
        for (trace, stroke) in zip(traces, strokes) {
            #expect(zip(trace.points, stroke).allSatisfy { $0.x == $1.point.x && $0.y == $1.point.y && $0.f == $1.pressure },
                    "seed \(seed): an InkML point differs")
        }

        let groups = try JSONDecoder().decode([SignaturePadJSON.Group].self, from: Data(try #require(byName["\(record.id).json"])))
        #expect(groups.map { $0.points.map(\.x) } == strokes.map { $0.map(\.point.x) }, "seed \(seed): JSON x")
        #expect(groups.map { $0.points.map(\.y) } == strokes.map { $0.map(\.point.y) }, "seed \(seed): JSON y")

        let dir = scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let pngBytes = try #require(byName["\(record.id).png"])
        let image = SignatureImage(record.signature, pen: record.settings.pen, options: options)
        func bigEndian(_ at: Int) -> Int { pngBytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        #expect(bigEndian(16) == image.width && bigEndian(20) == image.height, "seed \(seed): PNG header size")
        // Decoded by a reader of its own (in Python: slow, so only the smaller images).
        if image.width * image.height <= 250_000 {
            let pngPath = dir + "/s.png"
            try Data(pngBytes).write(to: URL(fileURLWithPath: pngPath))
            let png = try PNGReader.rgb(pngPath)
            #expect(png.width == image.width && png.height == image.height && png.rgb.count == png.width * png.height, "seed \(seed): PNG size")
            if options.scale >= 0.5 { #expect(png.rgb.contains { $0 & 0xFF < 128 }, "seed \(seed): the PNG has ink") }
        }

        let meta = try JSONDecoder().decode(SignatureMetadata.self, from: Data(try #require(byName["\(record.id).meta.json"])))
        #expect(meta.device == record.device && meta.samples == record.signature.sampleCount)
        for file in files.dropLast(SignatureEncoder.sealCount) { #expect(meta.files[file.name]?.sha256 == SHA256.hex(file.bytes)) }
        #expect(testSigningKey.publicKey.verifies(try #require(byName["\(record.id).meta.json.sig"]), of: try #require(byName["\(record.id).meta.json"])),
                "seed \(seed): the manifest's signature")

        let spool = SignatureSpool(directory: dir + "/spool")
        let sealed = SealedSignature(id: record.id, files: files)
        try spool.keep(sealed)
        let recovered = try spool.recover(olderFilesAs: CaptureSettings(kiosk: "not this one", inkColor: 0x123456))
        #expect(recovered.problems.isEmpty, "seed \(seed): \(recovered.problems)")
        #expect(recovered.kept == [.sealed(sealed)], "seed \(seed): the spool gives back other files")
    }
}
