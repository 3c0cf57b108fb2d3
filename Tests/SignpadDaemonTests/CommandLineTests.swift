import Foundation
import SignpadTestSupport
import Testing

/// What the command line refuses before it touches a device or a file: its arguments' values,
/// checked by the debug build of `signpad` that `swift test` makes.
@Suite struct CommandLineTests {
    static let signpad = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/debug/signpad").path

    @Test(arguments: [
        (["calibrate", "--timeout=nan"], "--timeout: expected seconds from more than 0 to 86400, got nan"),
        (["calibrate", "--timeout=-inf"], "--timeout: expected seconds from more than 0 to 86400, got -inf"),
        (["calibrate", "--timeout=0"], "--timeout: expected seconds from more than 0 to 86400, got 0.0"),
        (["replay", "demo/signature.evemu", "--output-dir", "/nonexistent/signpad-test", "--screen", "1280xx800"],
         "--screen: expected WIDTHxHEIGHT from 1x1 to 16384x16384, such as 1920x1080, got 1280xx800"),
    ])
    func aValueOutOfReasonIsAUsageError(arguments: [String], expected: String) throws {
        let result = try run(Self.signpad, arguments)
        #expect(result.status == 64, "\(result.output)")
        #expect(result.output.contains("Error: \(expected)"), "\(result.output)")
    }

    /// check-config reads a file as `run` does: a background image that does not load stops
    /// the kiosk at start with status 78, and so it fails the check with that status.
    @Test func checkConfigRefusesABackgroundImageThatDoesNotLoad() throws {
        let dir = scratch()
        defer { removeScratch(dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: dir + "/brand.png", contents: Data("not a png".utf8))
        for (image, reason) in [(dir + "/missing.png", "not a readable PNG"), (dir + "/brand.png", "not a PNG file")] {
            let file = dir + "/kiosk.toml"
            try "[kiosk]\nbackground_image = \"\(image)\"\n".write(toFile: file, atomically: true, encoding: .utf8)
            let result = try run(Self.signpad, ["check-config", file])
            #expect(result.status == 78, "\(result.output)")
            #expect(result.output.contains("Error: \(file): kiosk.background_image: \(image): \(reason)"), "\(result.output)")
        }
    }

    /// A control socket group that does not exist stops `run` at start; check-config says so with
    /// the same status, and is content once the socket is off.
    @Test func checkConfigRefusesAControlGroupThatDoesNotExist() throws {
        let dir = scratch()
        defer { removeScratch(dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let file = dir + "/kiosk.toml"
        try "[control]\ngroup = \"signpad-no-such-group\"\n".write(toFile: file, atomically: true, encoding: .utf8)
        let refused = try run(Self.signpad, ["check-config", file])
        #expect(refused.status == 78, "\(refused.output)")
        #expect(refused.output.contains("Error: \(file): control.group: no group \"signpad-no-such-group\""), "\(refused.output)")
        let off = try run(Self.signpad, ["check-config", file, "--set", "control.socket=\"\""])
        #expect(off.status == 0, "\(off.output)")
    }
}
