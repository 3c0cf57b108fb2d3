import Foundation
import SignpadConfig
import SignpadExport
import SignpadInput
import SignpadOutbox
import SignpadSession
import SignpadTestSupport
import SignpadVocabulary
import Testing

/// `run --offscreen`'s customer: the recording played again for each request.
@Suite struct RecordingPlaybackTests {
    /// The demo panel's header and one stroke across the box, a quarter of a second long.
    static func strokeRecording() throws -> EvemuRecording {
        let header = try String(contentsOfFile: demoRecordingPath, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("E:") }.map(String.init)
        func at(_ x: Int, _ y: Int) -> (Int, Int) { (x * 4096 / 800, y * 4096 / 480) }
        func event(_ t: Double, _ type: Int, _ code: Int, _ value: Int) -> String {
            "E: \(String(format: "%.6f", t)) \(String(format: "%04x", type)) \(String(format: "%04x", code)) \(value)"
        }
        var (x, y) = at(200, 300)
        var events = [event(0, 3, 0x2f, 0), event(0, 3, 0x39, 78), event(0, 3, 0x35, x), event(0, 3, 0x36, y), event(0, 1, 0x14a, 1),
                      event(0, 3, 0, x), event(0, 3, 1, y), event(0, 0, 0, 0)]
        for step in 1...25 {
            let t = Double(step) * 0.01
            (x, y) = at(200 + step * 12, 300)
            events += [event(t, 3, 0x35, x), event(t, 3, 0x36, y), event(t, 3, 0, x), event(t, 3, 1, y), event(t, 0, 0, 0)]
        }
        events += [event(0.27, 3, 0x39, -1), event(0.27, 1, 0x14a, 0), event(0.27, 0, 0, 0)]
        return try EvemuRecording.parse((header + events).joined(separator: "\n") + "\n", file: "(stroke)")
    }

    /// A request cancelled while the recording's finger was down: the next request's playback
    /// starts with a finger that lands again, and draws, as a customer's next touch would.
    @Test func aRequestEndedMidStrokeLeavesNoFingerDownForTheNextPlayback() throws {
        let folder = scratch()
        defer { removeScratch(folder) }
        let config = try Config.load(text: "", file: "(test)", overrides: ["control.socket=\"\"", "kiosk.mode=\"requested\""])
        let exporter = Exporter(directory: folder, options: config.export, evidence: testEvidence, retrySeconds: 1)
        let session = try Session(SessionOptions(config), display: OffscreenDisplay(width: 800, height: 480), exporter: exporter,
                                  painter: { _, _ in BoxPainter() })
        let playback = try RecordingPlayback(Self.strokeRecording(), session: session, confirmAtEnd: false)

        session.beginRequest(id: "R1", context: SignatureRequest(reference: "R1"), timeout: 60, now: 10)
        playback.start(now: 10)
        playback.play(until: 10.1, into: session)
        let drewFirst = session.kiosk.hasInk
        #expect(drewFirst, "the first request's stroke is under way")
        session.cancelRequest(now: 10.1)
        let wiped = !session.kiosk.hasInk
        #expect(wiped)

        session.beginRequest(id: "R2", context: SignatureRequest(reference: "R2"), timeout: 60, now: 11)
        playback.start(now: 11)
        playback.play(until: 12, into: session)
        #expect(!playback.isPlaying)
        let drewSecond = session.kiosk.hasInk
        #expect(drewSecond, "the second request's customer drew the stroke")
    }

    /// A kiosk that never wipes (`idle_timeout = 0`) still ends a request the point of sale gave
    /// no timeout: its default is five minutes, not never (a till waited for ever).
    @Test func aRequestWithoutATimeoutEndsOnAKioskThatNeverWipes() throws {
        let folder = scratch()
        defer { removeScratch(folder) }
        let config = try Config.load(text: "", file: "(test)", overrides: ["control.socket=\"\"", "kiosk.mode=\"requested\"", "kiosk.idle_timeout=0"])
        let exporter = Exporter(directory: folder, options: config.export, evidence: testEvidence, retrySeconds: 1)
        let session = try Session(SessionOptions(config), display: OffscreenDisplay(width: 800, height: 480), exporter: exporter,
                                  painter: { _, _ in BoxPainter() })
        func ended() -> [Session.RequestEvent] {
            session.takeEvents().compactMap { if case .request(let event) = $0, case .ended = event { event } else { nil } }
        }
        session.beginRequest(id: "R1", context: SignatureRequest(reference: "R1"), timeout: nil, now: 10)
        session.tick(now: 10 + 299)
        #expect(ended().isEmpty, "not before five minutes untouched")
        session.tick(now: 10 + 301)
        let ended = ended()
        #expect(ended.count == 1)
        if case .ended(let id, let end)? = ended.first {
            #expect(id == "R1")
            #expect(end == .timedOut)
        }
    }
}
