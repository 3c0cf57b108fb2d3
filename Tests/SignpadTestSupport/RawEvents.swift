import Foundation
import SignpadInput
import SignpadVocabulary

/// The demo signature in the repository (`demo/signature.evemu`): a real stroke for any test.
public func demoRecording() throws -> EvemuRecording {
    try EvemuRecording.parse(String(contentsOfFile: demoRecordingPath, encoding: .utf8), file: demoRecordingPath)
}

public let demoRecordingPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("demo/signature.evemu").path

/// One raw event, `seconds` after the clock's zero.
public func rawEvent(_ seconds: Double, _ type: UInt16, _ code: UInt16, _ value: Int32) -> InputEvent {
    InputEvent(microseconds: Int64((seconds * 1e6).rounded()), type: type, code: code, value: value)
}

/// Raw event streams built frame by frame, each frame 10 ms after the last and ended by its
/// SYN_REPORT, as the kernel sends them.
public struct RawEventStream {
    public var events: [InputEvent] = []
    public var time: Int64 = 1_000_000

    public init() {}

    public mutating func frame(_ body: [(UInt16, UInt16, Int32)]) {
        time += 10_000
        for (type, code, value) in body { events.append(InputEvent(microseconds: time, type: type, code: code, value: value)) }
        events.append(InputEvent(microseconds: time, type: EventCode.EV_SYN, code: EventCode.SYN_REPORT, value: 0))
    }

    /// One event at the current time, outside a frame (a SYN_DROPPED, say).
    public mutating func raw(_ type: UInt16, _ code: UInt16, _ value: Int32) {
        events.append(InputEvent(microseconds: time, type: type, code: code, value: value))
    }

    /// The stroke events one decoder makes of the stream on a screen of the given size.
    public func decode(_ device: DeviceDescription, width: Int = 1000, height: Int = 1000) throws -> [StrokeEvent] {
        var decoder = try ContactDecoder(device: device, screenWidth: width, screenHeight: height)
        var out: [StrokeEvent] = []
        for e in events { decoder.feed(e) { out.append($0) } }
        return out
    }
}
