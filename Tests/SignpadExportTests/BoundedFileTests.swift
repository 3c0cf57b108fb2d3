import Foundation
import SignpadExport
import SignpadTestSupport
import Testing

@Suite struct BoundedFileTests {
    @Test func aFileIsReadUpToItsBoundAndNamedPastIt() throws {
        let dir = scratch()
        defer { removeScratch(dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let bytes = (0..<5000).map { UInt8($0 % 251) }
        #expect(FileManager.default.createFile(atPath: dir + "/f", contents: Data(bytes)))
        #expect(try BoundedFile.read(dir + "/f", limit: 5000) == bytes)
        #expect(throws: BoundedFile.Failure.tooLarge(limit: 4999)) { try BoundedFile.read(dir + "/f", limit: 4999) }
        #expect(throws: BoundedFile.Failure.unreadable(errno: ENOENT)) { try BoundedFile.read(dir + "/none", limit: 10) }
        #expect(throws: BoundedFile.Failure.unreadable(errno: EISDIR)) { try BoundedFile.read(dir, limit: 10) }
        #expect(try BoundedFile.read("/dev/null", limit: 10) == [])
    }
}
