import Foundation
import SignpadExport
@testable import SignpadOutbox
import SignpadTestSupport
import SignpadVocabulary
import Testing

@Suite struct FolderWriterTests {
    @Test func writesAtomicallyWithTheRightModesAndCleansUpCrashLeftovers() throws {
        let dir = scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let writer = FolderWriter(directory: dir)
        try writer.prepare()
        #expect(FileManager.default.createFile(atPath: dir + "/\(FolderWriter.temporaryPrefix)half.png", contents: Data([1, 2])))
        // As a start after a crash does.
        try writer.prepare()
        try writer.write([("a.png", [1, 2, 3]), ("a.meta.json", Array("{}".utf8))])
        let names = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(names == ["a.meta.json", "a.png"], "no temporary file is left")
        let fileMode = try FileManager.default.attributesOfItem(atPath: dir + "/a.png")[.posixPermissions] as? Int
        let dirMode = try FileManager.default.attributesOfItem(atPath: dir)[.posixPermissions] as? Int
        #expect(fileMode == 0o640)
        #expect(dirMode == 0o750)
        #expect(FileManager.default.contents(atPath: dir + "/a.png") == Data([1, 2, 3]))
    }

    /// A write that fails part way (a full disk; here the manifest's name taken by a folder) used
    /// to leave the image files without their manifest; it takes them back. Files it did not
    /// touch stay; one it replaced goes too, as the caller (the spool) writes the signature again.
    @Test func aWriteThatFailsPartWayLeavesNoneOfItsFiles() throws {
        let dir = scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let writer = FolderWriter(directory: dir)
        try writer.prepare()
        try writer.write([("kept.png", [9])])
        try FileManager.default.createDirectory(atPath: dir + "/a.meta.json/in-the-way", withIntermediateDirectories: true)
        #expect(throws: ExportError.self) {
            try writer.write([("a.png", [1, 2, 3]), ("a.svg", Array("<svg/>".utf8)), ("a.meta.json", Array("{}".utf8))])
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(names == ["a.meta.json", "kept.png"], "only what was there before")
        #expect(throws: ExportError.self) { try writer.write([("kept.png", [7]), ("a.meta.json", [1])]) }
        #expect(FileManager.default.contents(atPath: dir + "/kept.png") == nil, "a rewrite that failed takes back what it put in place")
    }

    @Test func aFolderThatMayNotBeMadeIsNamedMissingAndAMissingParentIsNamed() throws {
        let parent = scratch()
        defer { try? FileManager.default.removeItem(atPath: parent) }
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        let notMade = FolderWriter(directory: parent + "/signatures", createsFolder: false, role: "the export folder")
        #expect(throws: ExportError(path: parent + "/signatures", operation: "writing into it", errno: ENOENT)) { try notMade.write([("a.json", [1])]) }
        #expect(!FileManager.default.fileExists(atPath: parent + "/signatures"))
        #expect(throws: ExportError(path: parent + "/signatures", operation: "opening the folder", errno: ENOENT)) { try notMade.prepare() }

        // Made, but in a folder that is not there (with the trailing slash a configuration may have).
        do {
            try FolderWriter(directory: parent + "/share/signatures/").prepare()
            Issue.record("a folder was made in a missing one")
        } catch {
            #expect(error.description == "\(parent)/share/signatures/: creating the folder: the folder it goes in, \(parent)/share, is missing (No such file or directory)")
        }
        // Issue 54, defect 24: a folder /proc will not hold was said to need a missing /proc.
        do {
            try FolderWriter(directory: "/proc/signpad-test-signatures").prepare()
            Issue.record("a folder was made in /proc")
        } catch {
            #expect(!error.description.contains("is missing") && error.description.contains("/proc/signpad-test-signatures: creating the folder in /proc failed"),
                    "\(error)")
        }
        // A relative path names its folder as given, not as if it began at /.
        #expect(ExportError(path: "share/signatures", operation: "creating the folder", errno: ENOENT).description
                == "share/signatures: creating the folder: the folder it goes in, share, is missing (No such file or directory)")
    }

    /// Several kiosks often write to one folder on a network share. One starting must not
    /// remove a file another is writing at that moment: that write would fail (the rename
    /// finds nothing) and its kiosk would tell staff the folder is missing.
    /// Issue 54, defect 24: a key made in a missing folder was said to miss "the export folder".
    /// Each writer names its own folder: the key's, the spool, the export folder.
    @Test func aMissingFolderIsNamedForWhatItHolds() throws {
        let dir = scratch()
        defer { removeScratch(dir) }
        do {
            _ = try SigningKeyFile(path: dir + "/keys/signing.key").loadOrCreate()
            Issue.record("a key was made in a missing folder")
        } catch {
            #expect(error.description.contains("its folder \(dir)/keys is missing") && !error.description.contains("export folder"), "\(error)")
        }
        do {
            try FolderWriter(directory: dir + "/spool/inner", createsFolder: false, role: "the spool").write([("a", [1])])
            Issue.record("written into a missing folder")
        } catch {
            #expect("\(error)".contains("the spool is missing") && !"\(error)".contains("export folder"), "\(error)")
        }
    }

    @Test func aTemporaryFileAnotherWriterHoldsStaysAndOnlyAbandonedOnesGo() throws {
        let dir = scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let writer = FolderWriter(directory: dir)
        try writer.prepare()
        let inFlight = dir + "/\(FolderWriter.temporaryPrefix)other-kiosk.png", abandoned = dir + "/\(FolderWriter.temporaryPrefix)crashed.png"
        #expect(FileManager.default.createFile(atPath: abandoned, contents: Data([1, 2])))
        // Another writer, mid-write: its own open file description, locked as FolderWriter locks it.
        let other = open(inFlight, O_WRONLY | O_CREAT, 0o640)
        #expect(other >= 0 && flock(other, LOCK_EX | LOCK_NB) == 0)

        try writer.prepare()
        try writer.write([("mine.png", [7, 8, 9])])
        #expect(FileManager.default.fileExists(atPath: inFlight), "the file another writer holds was removed")
        #expect(!FileManager.default.fileExists(atPath: abandoned), "the crash's leftover stays")
        #expect(FileManager.default.contents(atPath: dir + "/mine.png") == Data([7, 8, 9]))

        // Once that writer is gone (the kernel drops its lock), its file is a leftover too.
        close(other)
        try writer.prepare()
        #expect(!FileManager.default.fileExists(atPath: inFlight))
    }

    /// A write lists nothing: listing takes time in proportion to everything the folder holds
    /// (years of signatures, on a share), so only the start looks for leftovers.
    @Test func aWriteTouchesNoOtherFileInTheFolder() throws {
        let dir = scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let writer = FolderWriter(directory: dir)
        try writer.prepare()
        let leftover = dir + "/\(FolderWriter.temporaryPrefix)from-a-crash.png"
        #expect(FileManager.default.createFile(atPath: leftover, contents: Data([1])))
        try writer.write([("b.png", [4, 5])])
        #expect(FileManager.default.fileExists(atPath: leftover), "the write listed the folder and cleaned it")
        try writer.prepare()
        #expect(!FileManager.default.fileExists(atPath: leftover), "the start's cleaning missed it")
    }

    /// A drop box: a folder on a share that kiosks may write into but not list.
    @Test(.enabled(if: getuid() != 0, "skipped: as root every folder can be listed"))
    func aFolderThatCannotBeListedIsWrittenTo() throws {
        let dir = scratch()
        defer { chmod(dir, 0o700); try? FileManager.default.removeItem(atPath: dir) }
        let writer = FolderWriter(directory: dir)
        try writer.prepare()
        #expect(chmod(dir, 0o300) == 0)
        try writer.prepare()
        try writer.write([("c.png", [6])])
        chmod(dir, 0o700)
        #expect(FileManager.default.contents(atPath: dir + "/c.png") == Data([6]))
    }

    @Test func aMissingParentIsAClearError() {
        let writer = FolderWriter(directory: "/nonexistent-signpad/deeper/signatures")
        do {
            try writer.write([("a.png", [1])])
            Issue.record("expected an error")
        } catch {
            #expect("\(error)".contains("/nonexistent-signpad/deeper/signatures"))
            #expect("\(error)".contains("missing"))
        }
    }
}
