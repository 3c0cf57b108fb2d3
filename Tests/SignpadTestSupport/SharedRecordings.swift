import Foundation
import SignpadVocabulary

/// The real recordings in `../shared/data/recordings/`, beside the package. They are not in a
/// user's fresh clone: tests that need them are skipped there, and say so.
public enum SharedRecordings {
    public static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/data/recordings")


    public static var available: Bool {
        FileManager.default.fileExists(atPath: directory.appendingPathComponent("SOURCES.md").path)
    }

    public static let atmel = "atmel-maxtouch-scribble.evemu"
    public static let threeM = "3m-microtouch-multitouch.evemu"
    public static let wacom = "wacom-isdv4-pen.evemu"
    public static let uclogic = "uclogic-wp5540u-pen.evemu"
    public static let all = [atmel, threeM, wacom, uclogic]

    public static func text(_ name: String) throws -> String {
        try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
    }
}

import SignpadInput

extension SharedRecordings {
    /// The stroke events of a shared recording on a screen of the given size.
    public static func strokeEvents(_ name: String, width: Int = 800, height: Int = 480) throws -> [StrokeEvent] {
        let recording = try EvemuRecording.parse(text(name), file: name)
        return try recording.strokeEvents(screenWidth: width, screenHeight: height).map(\.event)
    }
}
