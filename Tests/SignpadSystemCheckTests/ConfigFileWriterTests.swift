import Foundation
import SignpadConfig
import SignpadOutbox
import SignpadSystemCheck
import SignpadTestSupport
import Testing

/// `calibrate --write`'s edit on disk: the file replaced whole, its mode, owner and link kept.
@Suite struct ConfigFileWriterTests {
    static let matrix = TOMLValue.array([1.02, 0.0, -0.011, 0.0, 0.985, 0.007].map { .float($0) })
    static let line = "calibration = [1.02, 0.0, -0.011, 0.0, 0.985, 0.007]"

    @Test func setWritesTheFileKeepingItsModeAndFollowingASymlink() throws {
        let folder = scratch()
        defer { removeScratch(folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let real = folder + "/kiosk-7.toml", link = folder + "/signpad.toml"
        try "[input]\ngrab = false\n".write(toFile: real, atomically: false, encoding: .utf8)
        #expect(chmod(real, 0o640) == 0)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)

        let line = try ConfigFileWriter.set("input.calibration", to: ConfigFileWriterTests.matrix, inFile: link)
        #expect(line == 3)
        #expect(try String(contentsOfFile: real, encoding: .utf8) == "[input]\ngrab = false\n\(ConfigFileWriterTests.line)\n")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == real, "the link is still a link")
        var status = stat()
        #expect(stat(real, &status) == 0 && status.st_mode & 0o7777 == 0o640)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["kiosk-7.toml", "signpad.toml"], "no temporary file is left")
    }

    @Test func setMakesAMissingFileReadableByTheDaemon() throws {
        let folder = scratch()
        defer { removeScratch(folder) }
        let path = folder + "/etc/signpad.toml"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        #expect(try ConfigFileWriter.set("input.calibration", to: ConfigFileWriterTests.matrix, inFile: path) == 2)
        var status = stat()
        #expect(stat(path, &status) == 0 && status.st_mode & 0o7777 == 0o644)
        #expect(stat(folder + "/etc", &status) == 0 && status.st_mode & 0o7777 == 0o755)
    }

    @Test func setWritesNothingWhenTheValueIsNotValidThere() throws {
        let folder = scratch()
        defer { removeScratch(folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/signpad.toml", original = "[input]\ngrab = false\n"
        try original.write(toFile: path, atomically: false, encoding: .utf8)
        #expect(throws: ConfigError.self) { try ConfigFileWriter.set("input.calibration", to: .array([.float(1)]), inFile: path) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == original)
    }

    @Test func aFolderThatTakesNoFilesNamesTheFileAndTheReason() {
        // procfs refuses new files even to root, as a read-only /etc would.
        do {
            _ = try ConfigFileWriter.set("input.calibration", to: ConfigFileWriterTests.matrix, inFile: "/proc/signpad.toml")
            Issue.record("/proc took a file")
        } catch let error as FileReplacementError {
            #expect(error.description.hasPrefix("/proc/") && error.description.contains("cannot save the configuration: creating failed ("), "\(error)")
        } catch {
            Issue.record("expected a FileReplacementError, got \(error)")
        }
    }
}
