// libFuzzer target for everything an evemu recording goes through: parse, classify, decode,
// smooth, draw. Bad input may be refused with an error; it must never crash, hang or exhaust memory.
// Built by scripts/fuzz with the sources of SignpadInk and SignpadInput in one module.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzInputPath(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let recording = try? EvemuRecording.parse(text, file: "fuzz.evemu"),
          (try? recording.requireUsableDevice(file: "fuzz.evemu")) != nil,
          let events = try? recording.strokeEvents(screenWidth: 200, screenHeight: 120) else { return 0 }
    var smoother = MidpointSmoother()
    var renderer = InkRenderer(width: 200, height: 120)
    for (_, event) in events {
        var dirty = DirtyRegion()
        renderer.apply(smoother.handle(event), dirty: &dirty)
    }
    return 0
}
