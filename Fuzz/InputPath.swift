// libFuzzer target for everything an evemu recording goes through: parse, classify, decode, the
// kiosk (boxes, buttons, eraser, idle timeout, saves), smooth, draw, as a session does it. Bad
// input may be refused with an error; it must never crash, hang or exhaust memory.
// Built by scripts/fuzz with the sources of SignpadInk, SignpadInput and SignpadKiosk in one module.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzInputPath(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let (width, height) = (320, 200)
    guard let recording = try? EvemuRecording.parse(text, file: "fuzz.evemu"),
          (try? recording.requireUsableDevice(file: "fuzz.evemu")) != nil,
          let events = try? recording.strokeEvents(screenWidth: width, screenHeight: height) else { return 0 }
    var rules = KioskRules()
    rules.idleTimeout = 0.5
    rules.doubleTapConfirms = true
    var session = FuzzedSession(kiosk: Kiosk(layout: KioskLayout(width: width, height: height), rules: rules), width: width, height: height)
    for (time, event) in events {
        session.apply(session.kiosk.tick(now: time), now: time)
        var effects: [KioskEffect] = []
        session.kiosk.handle(event, now: time, into: &effects)
        session.apply(effects, now: time)
    }
    return 0
}

/// What `Session` does with the kiosk's effects, without a display or an exporter: a save
/// finishes at once, failing every other time.
struct FuzzedSession {
    var kiosk: Kiosk
    var smoother = MidpointSmoother()
    var renderer: InkRenderer
    var saves = 0

    init(kiosk: Kiosk, width: Int, height: Int) {
        self.kiosk = kiosk
        renderer = InkRenderer(background: Canvas(width: width, height: height), clip: kiosk.layout.box)
    }

    mutating func apply(_ effects: [KioskEffect], now: Double) {
        var dirty = DirtyRegion()
        for effect in effects {
            switch effect {
            case .ink(let event):
                renderer.apply(smoother.handle(event), dirty: &dirty)
            case .clearInk:
                smoother = MidpointSmoother()
                renderer.clearInk(dirty: &dirty)
            case .redrawInk, .withdrawInk:
                smoother = MidpointSmoother()
                renderer.clearInk(dirty: &dirty)
                for stroke in kiosk.signature.strokes {
                    var redraw = MidpointSmoother()
                    for (index, sample) in stroke.enumerated() {
                        renderer.apply(redraw.handle(index == 0 ? .down(sample) : .move(sample)), dirty: &dirty)
                    }
                    renderer.apply(redraw.handle(.up), dirty: &dirty)
                }
            case .save(_, let exportID):
                saves += 1
                apply(kiosk.exportFinished(exportID, error: saves % 2 == 0 ? "the folder failed" : nil, now: now), now: now)
            case .repaintChrome, .sleep, .letGoOfTouch, .flickerHeld, .layoutChanged, .requestProgress, .requestEnded:
                break
            }
        }
    }
}
