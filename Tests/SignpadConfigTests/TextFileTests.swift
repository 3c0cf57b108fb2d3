import Foundation
@testable import SignpadConfig
import SignpadExport
import SignpadTestSupport
import Testing

/// The errors a configuration or recording that cannot be read gives: the path, what it was,
/// and why, as the CLI prints them.
@Suite struct TextFileTests {
    @Test func aMissingFileSaysSoWithItsPath() throws {
        let path = scratch() + ".toml"
        #expect(throws: TextFileError(path: path, what: "the configuration file", reason: "No such file or directory", isMissing: true)) {
            try TextFile.read(path, what: "the configuration file", format: "UTF-8 text (TOML)", limit: BoundedFile.configurationBytes)
        }
    }

    @Test func aFolderIsNotAFile() throws {
        let folder = scratch()
        defer { removeScratch(folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        do {
            _ = try TextFile.read(folder, what: "the recording", format: "UTF-8 text (an evemu-record file)", limit: BoundedFile.recordingBytes)
            Issue.record("a folder was read as a file")
        } catch {
            #expect(error.path == folder)
            #expect(!error.isMissing)
            #expect(error.description == "\(folder): cannot read the recording: Is a directory")
        }
    }

    @Test func bytesThatAreNotUTF8NameTheExpectedFormat() throws {
        let path = scratch() + ".evemu"
        defer { removeScratch(path) }
        try Data([0x45, 0x3A, 0x20, 0xFF, 0xFE, 0x0A]).write(to: URL(fileURLWithPath: path))
        #expect(throws: TextFileError(path: path, what: "the recording", reason: "expected UTF-8 text (an evemu-record file)", isMissing: false)) {
            try TextFile.read(path, what: "the recording", format: "UTF-8 text (an evemu-record file)", limit: BoundedFile.recordingBytes)
        }
    }

    @Test func aReadableFileGivesItsText() throws {
        let path = scratch() + ".toml"
        defer { removeScratch(path) }
        try "[ink]\nwidth = 3.0\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try TextFile.read(path, what: "the configuration file", format: "UTF-8 text (TOML)", limit: BoundedFile.configurationBytes) == "[ink]\nwidth = 3.0\n")
    }
}
