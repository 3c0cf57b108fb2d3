import Foundation
import SignpadInput
import SignpadTestSupport
import SignpadVocabulary
import Testing

/// Temporary, while both decoders are in the tree: the front ends and `ContactPolicy`
/// (`ContactDecoder`) against the `TouchDecoder` they replace, over every recording and 10,000
/// seeded random streams. Each stream's stroke events, with the event that made them, and the
/// pen's proximity and position after each event must be identical.
@Suite struct DecoderDifferentialTests {
    /// Something a stream does to a decoder.
    enum Step {
        case event(InputEvent)
        case letGo
    }

    /// What a decoder did with a stream: every stroke event (with the step that made it), the
    /// pen after each step, and the position watch's word.
    struct Trace: Equatable, CustomStringConvertible {
        var lines: [String] = []
        var strokeEvents = 0

        var description: String { lines.suffix(12).joined(separator: "\n") }
    }

    static func trace(_ steps: [Step], device: DeviceDescription, width: Int, height: Int,
                      initial: (slots: [(trackingID: Int32, x: Int32, y: Int32)], touching: Bool, pen: Bool, eraser: Bool)?,
                      old: Bool) throws -> Trace {
        var trace = Trace()
        var oldDecoder = try TouchDecoder(device: device, screenWidth: width, screenHeight: height)
        var newDecoder = try ContactDecoder(device: device, screenWidth: width, screenHeight: height)
        if let initial {
            if old {
                oldDecoder.setInitialState(slots: initial.slots, currentSlot: 0, touching: initial.touching, penInRange: initial.pen,
                                           eraserInRange: initial.eraser, x: 500, y: 500)
            } else {
                newDecoder.setInitialState(slots: initial.slots, currentSlot: 0, touching: initial.touching, penInRange: initial.pen,
                                           eraserInRange: initial.eraser, x: 500, y: 500)
            }
        }
        for (index, step) in steps.enumerated() {
            let emit: (StrokeEvent) -> Void = { event in
                trace.lines.append("\(index): \(event)")
                trace.strokeEvents += 1
            }
            switch (step, old) {
            case (.event(let event), true):
                oldDecoder.feed(event, emit: emit)
                if event.type == EventCode.EV_SYN, let axes = oldDecoder.takeStuckPositionAxes() { trace.lines.append("\(index): stuck \(axes)") }
            case (.event(let event), false):
                newDecoder.feed(event, emit: emit)
                if event.type == EventCode.EV_SYN, let axes = newDecoder.takeStuckPositionAxes() { trace.lines.append("\(index): stuck \(axes)") }
            case (.letGo, true): oldDecoder.letGoOfContacts()
            case (.letGo, false): newDecoder.letGoOfContacts()
            }
            let pen = old ? (oldDecoder.penInProximity, oldDecoder.penPosition, oldDecoder.penNearAt)
                : (newDecoder.penInProximity, newDecoder.penPosition, newDecoder.penNearAt)
            if pen.0 || pen.1 != nil { trace.lines.append("\(index): pen \(pen)") }
        }
        let end: (StrokeEvent) -> Void = { trace.lines.append("end: \($0)") }
        if old { oldDecoder.cancel(emit: end) } else { newDecoder.cancel(emit: end) }
        return trace
    }

    /// Both decoders' traces; a failure names `label`. Returns the stroke events compared.
    @discardableResult
    static func compare(_ steps: [Step], device: DeviceDescription, width: Int = 1000, height: Int = 1000,
                        initial: (slots: [(trackingID: Int32, x: Int32, y: Int32)], touching: Bool, pen: Bool, eraser: Bool)? = nil,
                        label: String) throws -> Int {
        let old = try trace(steps, device: device, width: width, height: height, initial: initial, old: true)
        let new = try trace(steps, device: device, width: width, height: height, initial: initial, old: false)
        if old != new {
            let shorter = min(old.lines.count, new.lines.count)
            let first = (0..<shorter).first { old.lines[$0] != new.lines[$0] } ?? shorter
            Issue.record("\(label): the decoders differ at line \(first): old \(old.lines.dropFirst(max(first - 3, 0)).prefix(6)) new \(new.lines.dropFirst(max(first - 3, 0)).prefix(6))")
        }
        return old.strokeEvents
    }

    // MARK: Recordings

    static func recordings() throws -> [(name: String, recording: EvemuRecording)] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let demo = root.appendingPathComponent("demo/signature.evemu").path
        var found = [("demo", try EvemuRecording.parse(String(contentsOfFile: demo, encoding: .utf8), file: demo))]
        guard SharedRecordings.available else { return found }
        let svc = SharedRecordings.directory.appendingPathComponent("svc2004-train")
        let names = SharedRecordings.all + (try FileManager.default.contentsOfDirectory(atPath: svc.path))
            .filter { $0.hasSuffix(".evemu") }.sorted().map { "svc2004-train/" + $0 }
        for name in names {
            found.append((name, try EvemuRecording.parse(SharedRecordings.text(name), file: name)))
        }
        return found
    }

    @Test func everyRecordingDecodesAlike() throws {
        if !SharedRecordings.available {
            print("DecoderDifferentialTests: ../shared/data/recordings is absent: the shared recordings are skipped, only the demo is compared")
        }
        var compared = 0, events = 0
        for (name, recording) in try Self.recordings() {
            let steps = recording.events.map(Step.event)
            for (width, height) in [(800, 480), (1920, 1080)] {
                events += try Self.compare(steps, device: recording.device, width: width, height: height, label: "\(name) \(width)x\(height)")
            }
            // Let go of at seeded points, some in the middle of a frame.
            var random = SeededRandom(state: UInt64(name.utf8.reduce(0) { $0 &* 31 &+ Int($1) }.magnitude))
            var withLetGo: [Step] = []
            for step in steps {
                withLetGo.append(step)
                if Int.random(in: 0..<400, using: &random) == 0 { withLetGo.append(.letGo) }
            }
            events += try Self.compare(withLetGo, device: recording.device, width: 800, height: 480, label: "\(name) let go of")
            compared += 1
        }
        print("DecoderDifferentialTests: \(compared) recordings, \(events) stroke events alike")
        #expect(compared == (SharedRecordings.available ? 45 : 1))
    }

    // MARK: Random streams

    /// 10,000 seeds in 100 runs, so the two processors share them.
    @Test(arguments: 0..<100 as Range<UInt64>)
    func randomStreamsDecodeAlike(batch: UInt64) throws {
        var events = 0
        for seed in batch * 100..<(batch + 1) * 100 {
            var random = SeededRandom(state: seed)
            let (device, steps, initial) = Self.stream(&random)
            events += try Self.compare(steps, device: device, initial: initial, label: "seed \(seed)")
        }
        #expect(events > 0)
    }

    /// A device of any kind and a stream for it: contacts landing, moving, lifting, palms, slots
    /// reused, events dropped anywhere, the kiosk letting go at any point, and pauses long and short.
    static func stream(_ random: inout SeededRandom) -> (DeviceDescription, [Step], (slots: [(trackingID: Int32, x: Int32, y: Int32)], touching: Bool, pen: Bool, eraser: Bool)?) {
        let kind = Int.random(in: 0..<6, using: &random)
        var steps: [Step] = []
        var time: Int64 = 1_000_000
        let frames = Int.random(in: 20..<120, using: &random)
        func chance(_ n: Int) -> Bool { Int.random(in: 0..<n, using: &random) == 0 }
        func push(_ body: [(UInt16, UInt16, Int32)]) {
            time += chance(8) ? Int64.random(in: 100_000..<1_300_000, using: &random) : 10_000
            var events = body.map { InputEvent(microseconds: time, type: $0.0, code: $0.1, value: $0.2) }
            if chance(60) { events.insert(InputEvent(microseconds: time, type: C.EV_SYN, code: C.SYN_DROPPED, value: 0), at: Int.random(in: 0...events.count, using: &random)) }
            events.append(InputEvent(microseconds: time, type: C.EV_SYN, code: C.SYN_REPORT, value: 0))
            for event in events {
                steps.append(.event(event))
                if chance(150) { steps.append(.letGo) }
            }
        }
        func wander(_ v: Int32) -> Int32 {
            let step: Int32 = chance(2) ? 3 : (chance(6) ? 200 : 25)
            return min(max(v + Int32.random(in: -step...step, using: &random), 0), 999)
        }
        switch kind {
        case 0, 1:
            // Protocol B, the 4-slot test panel.
            var slots: [(id: Int32, x: Int32, y: Int32)?] = [nil, nil, nil, nil]
            var nextID: Int32 = 1
            var initial: [(trackingID: Int32, x: Int32, y: Int32)]?
            if chance(4) {
                initial = (0..<4).map { _ in chance(2) ? (-1, 0, 0) : (0, 0, 0) }
                for i in 0..<4 where initial![i].trackingID == 0 {
                    initial![i] = (nextID, 500, 500)
                    slots[i] = (nextID, 500, 500)
                    nextID += 1
                }
            }
            for _ in 0..<frames {
                var body: [(UInt16, UInt16, Int32)] = []
                for slot in 0..<4 where chance(3) {
                    let s = Int32(slot)
                    guard let contact = slots[slot] else {
                        guard chance(4) else { continue }
                        let x = Int32.random(in: 50..<950, using: &random), y = Int32.random(in: 50..<950, using: &random)
                        slots[slot] = (nextID, x, y)
                        body += touch(slot: s, id: nextID, x: x, y: y)
                        if chance(5) { body.append((C.EV_ABS, C.ABS_MT_TOOL_TYPE, C.MT_TOOL_PALM)) }
                        nextID += 1
                        continue
                    }
                    switch Int.random(in: 0..<24, using: &random) {
                    case 0...1:
                        slots[slot] = nil
                        body += lift(slot: s)
                    case 2:
                        body += [(C.EV_ABS, C.ABS_MT_SLOT, s), (C.EV_ABS, C.ABS_MT_TOOL_TYPE, C.MT_TOOL_PALM)]
                    case 3:
                        body += [(C.EV_ABS, C.ABS_MT_SLOT, s), (C.EV_ABS, C.ABS_MT_TOOL_TYPE, 0)]
                    case 4:
                        // Lifted and landed again in one frame: another contact in the slot.
                        let x = Int32.random(in: 50..<950, using: &random), y = Int32.random(in: 50..<950, using: &random)
                        slots[slot] = (nextID, x, y)
                        body += lift(slot: s) + touch(slot: s, id: nextID, x: x, y: y)
                        nextID += 1
                    case 5:
                        body += [(C.EV_ABS, C.ABS_MT_SLOT, s), (C.EV_ABS, C.ABS_MT_TRACKING_ID, -1), (C.EV_ABS, C.ABS_MT_POSITION_X, wander(contact.x))]
                        slots[slot] = nil
                    default:
                        let x = wander(contact.x), y = wander(contact.y)
                        slots[slot] = (contact.id, x, y)
                        body += moveTo(slot: s, x: x, y: y)
                        if chance(4) { body.append((C.EV_ABS, C.ABS_MT_PRESSURE, Int32.random(in: 0..<256, using: &random))) }
                    }
                }
                if chance(30) { body.append((C.EV_ABS, 0x02, Int32.random(in: 0..<999, using: &random))) }
                push(body)
            }
            var device = panel()
            device.codes[C.EV_ABS]?.insert(C.ABS_MT_PRESSURE)
            device.absInfo[C.ABS_MT_PRESSURE] = AbsInfo(minimum: 0, maximum: 255)
            return (device, steps, initial.map { ($0, false, false, false) })
        case 2:
            // Protocol A, with or without tracking ids.
            let ids = chance(2)
            var contacts: [(x: Int32, y: Int32, id: Int32, palm: Bool)] = []
            var nextID: Int32 = 0
            for _ in 0..<frames {
                contacts = contacts.compactMap { contact in
                    if chance(12) { return nil }
                    var c = contact
                    c.x = wander(c.x)
                    c.y = wander(c.y)
                    if chance(20) { c.palm.toggle() }
                    return c
                }
                if contacts.count < 5 && chance(5) {
                    contacts.insert((Int32.random(in: 0..<1000, using: &random), Int32.random(in: 0..<1000, using: &random), nextID, chance(6)),
                                    at: Int.random(in: 0...contacts.count, using: &random))
                    nextID = (nextID + 1) % 256
                }
                var body: [(UInt16, UInt16, Int32)] = []
                for (i, c) in contacts.enumerated() {
                    if ids { body.append((C.EV_ABS, C.ABS_MT_TRACKING_ID, c.id)) }
                    body += [(C.EV_ABS, C.ABS_MT_POSITION_X, c.x), (C.EV_ABS, C.ABS_MT_POSITION_Y, c.y)]
                    if c.palm { body.append((C.EV_ABS, C.ABS_MT_TOOL_TYPE, C.MT_TOOL_PALM)) }
                    // Some drivers leave out the last SYN_MT_REPORT.
                    if i < contacts.count - 1 || !chance(4) { body.append((C.EV_SYN, C.SYN_MT_REPORT, 0)) }
                }
                if contacts.isEmpty { body.append((C.EV_SYN, C.SYN_MT_REPORT, 0)) }
                body.append((C.EV_KEY, C.BTN_TOUCH, contacts.isEmpty ? 0 : 1))
                push(body)
            }
            var device = protocolAPanel(trackingIDs: ids)
            device.codes[C.EV_ABS]?.insert(C.ABS_MT_TOOL_TYPE)
            return (device, steps, nil)
        default:
            // One contact: a touchscreen, a pen (with an eraser end, or without proximity), a pointer.
            var device: DeviceDescription
            switch kind {
            case 3: device = .touchscreen(xMaximum: 999, yMaximum: 999)
            case 4:
                device = .pen(axisMaximum: 999)
                if chance(3) { device.codes[C.EV_KEY] = [C.BTN_STYLUS, C.BTN_TOUCH] } else { device.codes[C.EV_KEY]?.insert(C.BTN_TOOL_RUBBER) }
            default:
                device = DeviceDescription(name: "pointer")
                device.codes[C.EV_KEY] = [C.BTN_LEFT]
                device.codes[C.EV_ABS] = [C.ABS_X, C.ABS_Y]
                device.absInfo[C.ABS_X] = AbsInfo(minimum: 0, maximum: 999)
                device.absInfo[C.ABS_Y] = AbsInfo(minimum: 0, maximum: 999)
            }
            var x: Int32 = 500, y: Int32 = 500
            for _ in 0..<frames {
                var body: [(UInt16, UInt16, Int32)] = []
                // The kernel passes on only the keys a device declares.
                let keys = [C.BTN_TOUCH, C.BTN_LEFT, C.BTN_TOOL_PEN, C.BTN_TOOL_RUBBER].filter { device.hasKey($0) }
                if chance(5) { body.append((C.EV_KEY, keys.randomElement(using: &random)!, Int32.random(in: 0...1, using: &random))) }
                if chance(2) {
                    x = wander(x)
                    y = wander(y)
                    body += [(C.EV_ABS, C.ABS_X, x), (C.EV_ABS, C.ABS_Y, y)]
                }
                if chance(4) { body.append((C.EV_ABS, C.ABS_PRESSURE, Int32.random(in: 0..<1024, using: &random))) }
                if chance(30) { body.append((C.EV_ABS, 0x02, Int32.random(in: 0..<999, using: &random))) }
                body.shuffle(using: &random)
                push(body)
            }
            // At open, as libevdev reads the keys the device declares.
            let initial = chance(4) ? (slots: [(trackingID: Int32, x: Int32, y: Int32)](), touching: chance(2),
                                       pen: device.hasKey(C.BTN_TOOL_PEN) && chance(2), eraser: device.hasKey(C.BTN_TOOL_RUBBER) && chance(2)) : nil
            return (device, steps, initial)
        }
    }
}
