import Foundation
import SignpadTestSupport
import Testing

/// Every shared recording, replayed by `signpad replay` into InkML and an ISO/IEC 19794-7 record:
/// `signpad iso inspect --json` gives the InkML's points, stroke for stroke, to the record's
/// resolution. Skipped where `../shared` is absent (the demo recording is always here).
@Suite struct ISORoundTripTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let signpad = root.appendingPathComponent(".build/debug/signpad").path

    struct Inspected: Decodable {
        struct Channel: Decodable { var name: String; var scale: Double? }
        var channels: [Channel]
        var strokes: Int
        var points: [[Int]]
        var cbeff: Bool
    }

    @Test(arguments: ["demo"] + SharedRecordings.all)
    func theRecordGivesTheInkMLsPoints(recording: String) throws {
        let path = recording == "demo" ? Self.root.appendingPathComponent("demo/signature.evemu").path
            : SharedRecordings.directory.appendingPathComponent(recording).path
        guard recording == "demo" || SharedRecordings.available else {
            print("skipped: \(recording): ../shared/data/recordings is not beside the package")
            return
        }
        let dir = scratch()
        defer { removeScratch(dir) }
        let replayed = try run(Self.signpad, ["replay", path, "--screen", "1280x800", "--output-dir", dir,
                                               "--set", "export.formats=[\"inkml\",\"iso19794-7\",\"cbeff\"]"])
        #expect(replayed.status == 0, "\(replayed.output)")
        let id = try #require(names(dir).first { $0.hasSuffix(".inkml") }?.dropLast(".inkml".count))
        let traces = try InkMLReader.traces(String(contentsOfFile: "\(dir)/\(id).inkml", encoding: .utf8))
        var inspected: [Inspected] = []
        for file in ["\(id).sig.bin", "\(id).cbeff.xml"] {
            let out = try run("sh", ["-c", "'\(Self.signpad)' iso inspect --json '\(dir)/\(file)'"])
            #expect(out.status == 0, "\(file): \(out.output)")
            inspected.append(try JSONDecoder().decode(Inspected.self, from: Data(out.output.utf8)))
        }
        #expect(inspected[0].points == inspected[1].points && inspected[1].cbeff && !inspected[0].cbeff)
        let iso = inspected[0]
        let names = iso.channels.map(\.name)
        let x = try #require(names.firstIndex(of: "X")), y = try #require(names.firstIndex(of: "Y"))
        let t = try #require(names.firstIndex(of: "T")), s = try #require(names.firstIndex(of: "S"))
        let tScale = try #require(iso.channels[t].scale)
        let f = names.firstIndex(of: "F")
        #expect(iso.strokes == traces.count)
        // Strokes are the runs of S 1; each ends with one S 0 point.
        var strokes: [[[Int]]] = [], current: [[Int]] = []
        for point in iso.points {
            if point[s] == 1 { current.append(point) } else if !current.isEmpty { strokes.append(current); current = [] }
        }
        #expect(strokes.count == traces.count)
        let start = try #require(traces.first?.points.first?.t)
        var worst = (x: 0.0, t: 0.0, f: 0.0)
        for (stroke, trace) in zip(strokes, traces) {
            #expect(stroke.count == trace.points.count, "\(recording): a stroke of \(trace.points.count) samples has \(stroke.count) points")
            for (point, sample) in zip(stroke, trace.points) {
                worst.x = max(worst.x, abs(Double(point[x]) / 16 - sample.x), abs(Double(point[y]) / 16 - sample.y))
                worst.t = max(worst.t, abs(Double(point[t]) / tScale * 1000 - (sample.t - start)))
                if let f, let pressure = sample.f { worst.f = max(worst.f, abs(Double(point[f]) / 65535 - pressure)) }
            }
        }
        #expect(worst.x <= 1.0 / 32 + 1e-9, "\(recording): X or Y off by \(worst.x) px")
        #expect(worst.t <= 500 / tScale + 1e-6, "\(recording): T off by \(worst.t) ms at \(tScale) per second")
        #expect(worst.f <= 0.5 / 65535 + 1e-9, "\(recording): F off by \(worst.f)")
        // F when every sample has pressure.
        #expect((f != nil) == traces.allSatisfy { $0.points.allSatisfy { $0.f != nil } })
        // X and Y in 1/16 px, scaled by the pixels per millimetre of the device's surface, as
        // its axes' resolution (the recording's A: lines) and the 1280x800 screen give them;
        // without a resolution, unscaled (a replay has no panel to measure).
        let axes = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").filter { $0.hasPrefix("A: ") }.map { $0.split(separator: " ") }
        let multitouch = axes.contains { $0[1] == "35" }
        func millimetres(_ code: String) -> Double? {
            guard let a = axes.first(where: { $0[1] == code }), a.count > 6, let low = Double(a[2]), let high = Double(a[3]), let res = Double(a[6]), res > 0 else { return nil }
            return (high - low + 1) / res
        }
        // A pen that reports tilt (the Wacom ISDv4's ABS_TILT_X and _Y) has TX and TY in the record.
        let tilts = axes.contains { $0[1] == "1a" } && axes.contains { $0[1] == "1b" }
        #expect(names.contains("TX") == tilts && names.contains("TY") == tilts, "\(recording): \(names)")
        if let a = names.firstIndex(of: "TX"), let b = names.firstIndex(of: "TY") {
            #expect(iso.points.allSatisfy { abs($0[a]) <= 9000 && abs($0[b]) <= 9000 } && iso.points.contains { $0[a] != 0 || $0[b] != 0 })
        }
        if let wide = millimetres(multitouch ? "35" : "00"), let high = millimetres(multitouch ? "36" : "01") {
            let xScale = try #require(iso.channels[x].scale), yScale = try #require(iso.channels[y].scale)
            #expect(abs(xScale / (1280 / wide * 16) - 1) < 1.0 / 2048 && abs(yScale / (800 / high * 16) - 1) < 1.0 / 2048,
                    "\(recording): \(xScale) and \(yScale) units per mm for a \(wide) x \(high) mm surface")
        } else {
            #expect(iso.channels[x].scale == nil && iso.channels[y].scale == nil, "\(recording)")
        }
    }

    @Test func inspectNamesTheBrokenByteAndAnUnreadableFile() throws {
        let dir = scratch()
        defer { removeScratch(dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try Data("SDI\0 10\0".utf8).write(to: URL(fileURLWithPath: dir + "/short.sig.bin"))
        let broken = try run(Self.signpad, ["iso", "inspect", dir + "/short.sig.bin"])
        #expect(broken.status == 1 && broken.output.contains("short.sig.bin: byte 8: expected the channel inclusion bitmap, but the record ends (8 bytes)"),
                "\(broken.status) \(broken.output)")
        let missing = try run(Self.signpad, ["iso", "inspect", dir + "/none.sig.bin"])
        #expect(missing.status == 2 && missing.output.contains("none.sig.bin"), "\(missing.status) \(missing.output)")
    }

    /// `--compact` names the channels a compact record holds; a name that is no channel, or a
    /// record that does not fill its last point, is said so.
    @Test func inspectReadsACompactRecordWithItsChannelsNamed() throws {
        let dir = scratch()
        defer { removeScratch(dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try Data([0x90, 0x70, 0x05, 0x01, 0xFF, 0x00, 0x0A, 0x00]).write(to: URL(fileURLWithPath: dir + "/card.bin"))
        let read = try run(Self.signpad, ["iso", "inspect", "--compact", "x, y,dt,S", dir + "/card.bin"])
        #expect(read.status == 0 && read.output.hasPrefix("ISO/IEC 19794-7:2007 compact format\nchannels: X Y DT S\n")
                && read.output.hasSuffix("X\tY\tDT\tS\n16\t-16\t5\t1\n127\t-128\t10\t0\n"), "\(read.status) \(read.output)")
        let unknown = try run(Self.signpad, ["iso", "inspect", "--compact", "X,Y,Q", dir + "/card.bin"])
        #expect(unknown.status == 64 && unknown.output.contains("--compact: \"Q\" is no channel; expected some of X, Y, Z"), "\(unknown.status) \(unknown.output)")
        let full = try run(Self.signpad, ["iso", "inspect", dir + "/card.bin"])
        #expect(full.status == 1 && full.output.contains("card.bin: byte 0: expected the format identifier \"SDI\\0\" (53 44 49 00); a compact record has no header: name its channels with --compact X,Y,…"),
                "\(full.status) \(full.output)")
        let short = try run(Self.signpad, ["iso", "inspect", "--compact", "X,Y,DT", dir + "/card.bin"])
        #expect(short.status == 1 && short.output.contains("card.bin: byte 6: points of 3 bytes (X Y DT) leave 2 byte(s) over at the end"), "\(short.status) \(short.output)")
    }
}
