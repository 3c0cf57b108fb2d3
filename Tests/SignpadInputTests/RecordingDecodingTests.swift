import SignpadInput
import SignpadTestSupport
import SignpadVocabulary
import Testing

struct StrokeSummary {
    var strokes: [[Sample]] = []
    var endings: [StrokeEvent] = []

    init(_ events: [StrokeEvent]) {
        for event in events {
            switch event {
            case .down(let s): strokes.append([s])
            case .move(let s): strokes[strokes.count - 1].append(s)
            case .up, .cancel, .withdraw: endings.append(event)
            }
        }
    }
}

@Suite(.enabled(if: SharedRecordings.available, "skipped: ../shared/data/recordings is absent (a fresh clone has no shared recordings)"))
struct RecordingDecodingTests {
    func recording(_ name: String) throws -> EvemuRecording {
        try EvemuRecording.parse(SharedRecordings.text(name), file: name)
    }

    @Test func atmelScribbleIsOneLongStrokeInsideTheScreen() throws {
        let summary = StrokeSummary(try SharedRecordings.strokeEvents(SharedRecordings.atmel, width: 800, height: 480))
        #expect(summary.strokes.count == 1)
        #expect(summary.endings.count == 1)
        #expect(summary.strokes[0].count > 1000)
        #expect(summary.strokes[0].allSatisfy { $0.point.x >= 0 && $0.point.x < 800 && $0.point.y >= 0 && $0.point.y < 480 })
    }

    /// Fingers of the 3M panel rest while others draw. One contact is followed at a time; every
    /// stroke starts where and when a contact landed, never in the middle of a path; a stroke taken
    /// back (`withdraw`) lay still while another finger wrote.
    @Test func threeMFollowsOneContactAtATimeFromWhereItLanded() throws {
        let rec = try recording(SharedRecordings.threeM)
        // Count touch sequences, and the frames where a contact landed, independently of the decoder.
        var ids = [Int32](repeating: -1, count: 60), slot = 0, wasActive = false, sequences = 0
        var landed = false, landingTimes: Set<Double> = []
        for e in rec.events {
            if e.type == EventCode.EV_ABS && e.code == EventCode.ABS_MT_SLOT { slot = Int(e.value) }
            if e.type == EventCode.EV_ABS && e.code == EventCode.ABS_MT_TRACKING_ID {
                if e.value >= 0 && e.value != ids[slot] { landed = true }
                ids[slot] = e.value
            }
            if e.type == EventCode.EV_SYN && e.code == EventCode.SYN_REPORT {
                let active = ids.contains { $0 >= 0 }
                if active && !wasActive { sequences += 1 }
                wasActive = active
                if landed { landingTimes.insert(e.seconds) }
                landed = false
            }
        }
        let events = try rec.strokeEvents(screenWidth: 1920, screenHeight: 1080).map(\.event)
        let summary = StrokeSummary(events)
        #expect(sequences == 11)
        #expect(summary.strokes.count >= sequences, "each sequence's first contact is followed")
        #expect(summary.endings.count == summary.strokes.count, "every stroke ends")
        #expect(events.last == .cancel, "the last finger never lifts: the recording's end closes it")
        for stroke in summary.strokes {
            #expect(landingTimes.contains(stroke[0].time), "a stroke starts when its contact landed")
            // A followed contact never jumps to another finger: consecutive samples stay close.
            for (a, b) in zip(stroke, stroke.dropFirst()) { #expect(a.point.distance(to: b.point) < 200) }
        }
        let withdrawn = zip(summary.strokes, summary.endings).filter { $0.1 == .withdraw }.map(\.0)
        #expect(!withdrawn.isEmpty, "the recording has fingers resting while another draws")
        for stroke in withdrawn {
            #expect(stroke.allSatisfy { $0.point.distance(to: stroke[0].point) <= StrokeEvent.stillRadius }, "it lay still")
        }
    }

    @Test func wacomHoverDrawsNothingAndPressureIsNormalised() throws {
        let rec = try recording(SharedRecordings.wacom)
        #expect(DeviceClassifier.classify(rec.device) == .usable(.pen, .single))
        let summary = StrokeSummary(try rec.strokeEvents(screenWidth: 1920, screenHeight: 1080).map(\.event))
        #expect(summary.strokes.count == 1)
        let touchFrames = rec.events.filter { $0.type == EventCode.EV_KEY && $0.code == EventCode.BTN_TOUCH && $0.value == 1 }.first!
        #expect(summary.strokes[0][0].time >= touchFrames.seconds, "nothing is drawn before the pen touches")
        let syncFrames = rec.events.filter { $0.type == EventCode.EV_SYN }.count
        #expect(summary.strokes[0].count < syncFrames, "hover frames are not ink")
        #expect(summary.strokes[0].allSatisfy { ($0.pressure ?? -1) >= 0 && ($0.pressure ?? 2) <= 1 })
        #expect(summary.strokes[0].contains { ($0.pressure ?? 0) > 0.1 })
    }

    /// What `InputArbiter` is told: near all through a stroke and not once the pen has left. The
    /// Wacom reports proximity (BTN_TOOL_PEN), so it is near in the hover frames before it
    /// touches; the UC-Logic does not, so it is near only while touching.
    @Test(arguments: [(SharedRecordings.wacom, true), (SharedRecordings.uclogic, false)])
    func aPenIsNearAllThroughItsStroke(name: String, reportsProximity: Bool) throws {
        let rec = try recording(name)
        var decoder = try ContactDecoder(device: rec.device, screenWidth: 1920, screenHeight: 1080)
        var nearAtLastFrame = false, nearBeforeDown = false, strokeEvents = 0, farFramesInStroke = 0, drawing = false
        for event in rec.events {
            var emitted: [StrokeEvent] = []
            decoder.feed(event) { emitted.append($0) }
            for stroke in emitted {
                switch stroke {
                case .down: nearBeforeDown = nearBeforeDown || nearAtLastFrame; drawing = true
                case .up, .cancel, .withdraw: drawing = false
                case .move: break
                }
                strokeEvents += 1
            }
            // A frame is judged whole at its SYN_REPORT, as the decoder does.
            guard event.type == EventCode.EV_SYN else { continue }
            if drawing && !decoder.pen.near { farFramesInStroke += 1 }
            nearAtLastFrame = decoder.pen.near
        }
        #expect(strokeEvents > 10)
        #expect(nearBeforeDown == reportsProximity)
        #expect(farFramesInStroke == 0)
        let lastProximity = rec.events.last { $0.type == EventCode.EV_KEY && $0.code == EventCode.BTN_TOOL_PEN }
        #expect(decoder.pen.near == (lastProximity?.value == 1))
    }

    @Test func ucLogicPenIsOneStroke() throws {
        let rec = try recording(SharedRecordings.uclogic)
        #expect(DeviceClassifier.classify(rec.device) == .usable(.pen, .single))
        let summary = StrokeSummary(try rec.strokeEvents(screenWidth: 1920, screenHeight: 1080).map(\.event))
        #expect(summary.strokes.count == 1)
        #expect(summary.strokes[0].allSatisfy { $0.pressure != nil })
    }

    @Test func atmelIsATouchscreen() throws {
        #expect(DeviceClassifier.classify(try recording(SharedRecordings.atmel).device) == .usable(.touchscreen, .multitouchB(slots: 10)))
        #expect(DeviceClassifier.classify(try recording(SharedRecordings.threeM).device) == .usable(.touchscreen, .multitouchB(slots: 60)),
                "the 3M panel predates INPUT_PROP_DIRECT; udev's rule still calls it a touchscreen")
    }
}
