import SignpadInput
import SignpadTestSupport
import SignpadVocabulary
import Testing

/// Random multitouch streams on the 4-slot test panel (axes and screen both 0…999, so a position
/// is its point): hands resting, fingers landing, writing, jittering and lifting in any order, and
/// contacts the panel calls palms. The decoder's strokes are checked against what each contact did.
@Suite struct ContactDecoderRandomTests {
    /// What one contact (tracking id) did, frame by frame.
    struct Contact {
        var landing: Sample
        var landingFrame: Int
        /// Its position at the end of each frame it was down, by frame time.
        var positions: [Double: Point] = [:]
        /// The first frame at whose end it was further than `StrokeEvent.stillRadius` from where it landed.
        var wroteAt: Int?
        /// Frames at whose end the panel called it a palm.
        var palmFrames: Set<Int> = []
        var liftFrame: Int?
    }

    struct Stroke {
        var samples: [Sample]
        var startFrame: Int
        var end: StrokeEvent?
        var endFrame: Int?
    }

    struct Run {
        var contacts: [Int32: Contact] = [:]
        var frameTimes: [Double] = []
        var strokes: [Stroke] = []
    }

    static func run(seed: UInt64) throws -> Run {
        var random = SeededRandom(state: seed)
        var decoder = try ContactDecoder(device: panel(), screenWidth: 1000, screenHeight: 1000)
        var run = Run()
        var slots: [(id: Int32, x: Int32, y: Int32, palm: Bool)?] = [nil, nil, nil, nil]
        var nextID: Int32 = 1
        var time: Int64 = 1_000_000
        var decoded: [StrokeEvent] = []
        for frame in 0..<400 {
            time += 10_000
            var body: [(UInt16, UInt16, Int32)] = []
            let last = frame == 399
            for slot in 0..<4 where last || Int.random(in: 0..<3, using: &random) == 0 {
                let s = Int32(slot)
                guard let contact = slots[slot] else {
                    guard !last, Int.random(in: 0..<4, using: &random) == 0 else { continue }
                    let x = Int32.random(in: 50..<950, using: &random), y = Int32.random(in: 50..<950, using: &random)
                    slots[slot] = (nextID, x, y, false)
                    body += touch(slot: s, id: nextID, x: x, y: y)
                    nextID += 1
                    continue
                }
                switch last ? 0 : Int.random(in: 0..<20, using: &random) {
                case 0...1:
                    slots[slot] = nil
                    body += lift(slot: s)
                case 2:
                    slots[slot]!.palm = true
                    body += [(C.EV_ABS, C.ABS_MT_SLOT, s), (C.EV_ABS, C.ABS_MT_TOOL_TYPE, C.MT_TOOL_PALM)]
                default:
                    // Jitter a hand or water makes, or a finger's stride.
                    let step: Int32 = Int.random(in: 0..<2, using: &random) == 0 ? 3 : 25
                    let x = min(max(contact.x + Int32.random(in: -step...step, using: &random), 0), 999)
                    let y = min(max(contact.y + Int32.random(in: -step...step, using: &random), 0), 999)
                    slots[slot]!.x = x
                    slots[slot]!.y = y
                    body += moveTo(slot: s, x: x, y: y)
                }
            }
            let seconds = Double(time) / 1e6
            run.frameTimes.append(seconds)
            for (type, code, value) in body { decoder.feed(rawEvent(Double(time) / 1e6, type, code, value)) { decoded.append($0) } }
            decoder.feed(rawEvent(Double(time) / 1e6, C.EV_SYN, C.SYN_REPORT, 0)) { decoded.append($0) }
            // What each contact did by the end of this frame.
            for case let contact? in slots {
                let point = Point(Double(contact.x), Double(contact.y))
                if run.contacts[contact.id] == nil {
                    run.contacts[contact.id] = Contact(landing: Sample(point, time: seconds), landingFrame: frame)
                }
                run.contacts[contact.id]!.positions[seconds] = point
                if run.contacts[contact.id]!.wroteAt == nil && point.distance(to: run.contacts[contact.id]!.landing.point) > StrokeEvent.stillRadius {
                    run.contacts[contact.id]!.wroteAt = frame
                }
                if contact.palm { run.contacts[contact.id]!.palmFrames.insert(frame) }
            }
            for (id, contact) in run.contacts where contact.liftFrame == nil && !slots.contains(where: { $0?.id == id }) {
                run.contacts[id]!.liftFrame = frame
            }
            for event in decoded {
                switch event {
                case .down(let sample):
                    #expect(run.strokes.last.map { $0.end != nil } ?? true, "seed \(seed): a stroke begins while another is open")
                    run.strokes.append(Stroke(samples: [sample], startFrame: frame))
                case .move(let sample):
                    #expect(run.strokes.last.map { $0.end == nil } ?? false, "seed \(seed): a move outside a stroke")
                    run.strokes[run.strokes.count - 1].samples.append(sample)
                case .up, .cancel, .withdraw:
                    #expect(run.strokes.last.map { $0.end == nil } ?? false, "seed \(seed): an end outside a stroke")
                    run.strokes[run.strokes.count - 1].end = event
                    run.strokes[run.strokes.count - 1].endFrame = frame
                }
            }
            decoded.removeAll()
        }
        return run
    }

    @Test(arguments: 1...40 as ClosedRange<UInt64>)
    func everyStrokeIsOneContactFromWhereItLandedAndARestingOneGivesWayToAWriter(seed: UInt64) throws {
        let run = try Self.run(seed: seed)
        #expect(run.strokes.allSatisfy { $0.end != nil }, "seed \(seed): every contact lifted, so every stroke ended")
        var followedContacts: [(id: Int32, stroke: Stroke)] = []
        for stroke in run.strokes {
            // The contact that drew it: the one that landed where and when it starts.
            let owners = run.contacts.filter { $0.value.landing == stroke.samples[0] }
            #expect(owners.count == 1, "seed \(seed): a stroke starting at \(stroke.samples[0]) starts where no contact landed")
            guard let (id, contact) = owners.first else { continue }
            followedContacts.append((id, stroke))
            for sample in stroke.samples {
                #expect(contact.positions[sample.time] == sample.point, "seed \(seed): contact \(id)'s stroke has a sample it never made")
            }
            #expect(zip(stroke.samples, stroke.samples.dropFirst()).allSatisfy { $0.time < $1.time }, "seed \(seed): samples in order")
            let endFrame = stroke.endFrame ?? 0
            let layStill = contact.wroteAt.map { $0 > endFrame } ?? true
            if stroke.end == .withdraw { #expect(layStill, "seed \(seed): contact \(id) wrote, yet was withdrawn") }
            if stroke.end == .cancel {
                #expect(!layStill && contact.palmFrames.contains(endFrame), "seed \(seed): only a palm that wrote is cancelled (no events are dropped here)")
            }
            if stroke.end == .up { #expect(contact.liftFrame == stroke.endFrame, "seed \(seed): contact \(id)'s stroke ends where it lifted") }
        }
        // A contact that lands when none is down is followed.
        for (id, contact) in run.contacts where contact.palmFrames.isEmpty {
            let othersDown = run.contacts.contains { other in
                other.key != id && other.value.landingFrame <= contact.landingFrame && (other.value.liftFrame ?? .max) > contact.landingFrame
            }
            if !othersDown { #expect(followedContacts.contains { $0.id == id }, "seed \(seed): contact \(id) landed alone and drew nothing") }
        }
        // A finger that writes while no other contact's stroke that wrote is in progress is followed.
        for (id, contact) in run.contacts where contact.palmFrames.isEmpty {
            guard let wrote = contact.wroteAt else { continue }
            let writingBeside = followedContacts.contains { other in
                other.id != id && other.stroke.startFrame <= wrote && (other.stroke.endFrame ?? .max) >= wrote
                    && (run.contacts[other.id]!.wroteAt ?? .max) <= wrote
            }
            if !writingBeside { #expect(followedContacts.contains { $0.id == id }, "seed \(seed): contact \(id) wrote at frame \(wrote) beside no writing, and drew nothing") }
        }
        // A tap (lifted within a second, never having written) beside a followed contact that
        // landed before it (not in the same frame: that is a second finger) and lies still then is followed.
        for (id, contact) in run.contacts where contact.palmFrames.isEmpty && contact.wroteAt == nil {
            guard let lift = contact.liftFrame, run.frameTimes[lift] - contact.landing.time <= 1 else { continue }
            let besideStill = followedContacts.contains { other in
                let beside = run.contacts[other.id]!
                return other.id != id && other.stroke.startFrame < lift && (other.stroke.endFrame ?? .max) >= lift
                    && beside.landingFrame < contact.landingFrame && (beside.wroteAt ?? .max) > lift && beside.palmFrames.isEmpty
            }
            if besideStill { #expect(followedContacts.contains { $0.id == id }, "seed \(seed): contact \(id) tapped beside a still one and drew nothing") }
        }
        // A followed contact still at a frame where one that landed after it has written is withdrawn by then.
        for (id, stroke) in followedContacts where stroke.startFrame == run.contacts[id]!.landingFrame {
            let contact = run.contacts[id]!
            let lastFrame = min(stroke.endFrame ?? .max, contact.wroteAt.map { $0 - 1 } ?? .max, contact.palmFrames.min().map { $0 - 1 } ?? .max)
            let writer = run.contacts.filter { other in
                other.key != id && other.value.landingFrame >= contact.landingFrame && other.value.palmFrames.isEmpty
            }.compactMap { other -> Int? in
                guard let wrote = other.value.wroteAt, wrote <= lastFrame, (other.value.liftFrame ?? .max) > wrote else { return nil }
                return wrote
            }.min()
            if let writer {
                #expect(stroke.end == .withdraw && (stroke.endFrame ?? .max) <= writer,
                        "seed \(seed): contact \(id) lay still while another wrote at frame \(writer), and was not withdrawn")
            }
        }
    }
}
