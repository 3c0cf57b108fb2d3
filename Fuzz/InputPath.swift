// libFuzzer target for everything an evemu recording goes through, in the real Session: parse,
// classify, the input pipeline (decoder, arbiter, let-go), the kiosk (boxes, buttons, undo,
// eraser, idle timeout, a point of sale's request), smooth, draw, save. Bad input may be refused
// with an error; it must never crash, hang or exhaust memory.
// Built by scripts/fuzz with the sources of the modules a Session is made of, in one module.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzInputPath(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let recording = try? EvemuRecording.parse(text, file: "fuzz.evemu"),
          (try? recording.requireUsableDevice(file: "fuzz.evemu")) != nil else { return 0 }
    // Writes that succeed and fail in turn, in memory: the point is the session, not the disk.
    var writes = 0
    let exporter = Exporter(directory: "/nonexistent", options: FuzzSession.config.export, evidence: FuzzSession.evidence, retrySeconds: 0.01, spool: nil, write: { _ in
        writes += 1
        if writes % 2 == 0 { throw FuzzSession.WriteFailed() }
    }, prepare: {})
    defer { exporter.stop() }
    let display = OffscreenDisplay(width: 320, height: 200)
    guard let session = try? Session(SessionOptions(FuzzSession.config), display: display, exporter: exporter,
                                     painter: { _, _ in FuzzSession.Painter() }),
          let device = try? session.addInput(recording) else { return 0 }
    // Half the inputs sign for a point of sale's request, its text taking room from the box.
    let requested = size % 2 == 0
    if requested {
        session.beginRequest(id: "fuzz", context: SignatureRequest(reference: "fuzz", title: "Total", lines: ["one line", "and another"]),
                             timeout: 1, now: recording.events.first?.seconds ?? 0)
    }
    let now = session.play(recording.events, from: device)
    session.tick(now: now)
    if session.kiosk.hasInk { session.confirm(now: now) }
    if requested { session.cancelRequest(now: now) }
    return 0
}

enum FuzzSession {
    /// The shipped defaults, with the rules that have most to do on a short recording.
    static let config: Config = {
        try! Config.load(text: "", file: "(fuzz)", overrides: ["kiosk.idle_timeout=0.5", "kiosk.double_tap_confirm=true",
                                                              "kiosk.decline_label=\"No\"", "control.socket=\"\""])
    }()

    /// Signs what a Done hands to the exporter, which writes nowhere.
    static let evidence: Evidence = {
        do { return Evidence(signingKey: try SigningKey.generate()) } catch { fatalError("\(error)") }
    }()

    struct WriteFailed: Error {}

    /// The chrome as one colour, and every line of text one row.
    struct Painter: ScreenPainter {
        func paint(_ items: [ChromeItem], into canvas: inout Canvas, within rects: [PixelRect]) {
            for r in rects { for y in r.minY..<r.maxY { for x in r.minX..<r.maxX { canvas[x, y] = 0xEEEEEE } } }
        }
        func textRows(_ text: String, width: Int, size: Double) -> Int { 1 }
    }
}
