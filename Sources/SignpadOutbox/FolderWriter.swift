#if canImport(Glibc)
import Glibc
import SignpadExport
#endif

/// Why a signature could not be written; the signature itself is kept and retried.
public struct ExportError: Error, CustomStringConvertible, Equatable {
    public var path: String
    public var operation: String
    public var errno: Int32
    /// What the folder holds, as a person names it: "the export folder", "the spool", "the key's folder".
    public var folder: String

    public init(path: String, operation: String, errno: Int32, folder: String = "the export folder") {
        self.path = path
        self.operation = operation
        self.errno = errno
        self.folder = folder
    }

    public var description: String {
        let reason = String(cString: strerror(errno))
        switch errno {
        case ENOSPC: return "\(path): \(operation): the disk is full (\(reason))"
        case ENOENT where operation == Self.creatingFolder:
            return "\(path): \(operation): the folder it goes in, \(Self.parent(of: path)), is missing (\(reason))"
        case ENOENT where !operation.hasPrefix(Self.creatingFolder): return "\(path): \(operation): \(folder) is missing (\(reason))"
        case EACCES, EPERM, EROFS: return "\(path): \(operation): \(folder) is not writable (\(reason))"
        default: return "\(path): \(operation) failed: \(reason)"
        }
    }

    static let creatingFolder = "creating the folder"

    /// The folder `path` is in, as given (relative stays relative).
    static func parent(of path: String) -> String {
        var above = path
        while above.count > 1 && above.hasSuffix("/") { above.removeLast() }
        return above.lastIndex(of: "/").map { $0 == above.startIndex ? "/" : String(above[..<$0]) } ?? "."
    }
}

/// Writes files so that a reader of the folder never sees a partial one: each goes to a hidden
/// temporary name in the same folder, is fsynced, renamed into place, and the folder is fsynced.
public struct FolderWriter: Sendable {
    public let directory: String
    public let group: String?
    /// Whether `prepare` and `write` make the folder when it is missing (see `ExportOptions.createsFolder`).
    public let createsFolder: Bool
    /// Exports are 0640; a configuration file keeps the mode it had.
    public let fileMode: mode_t
    /// Given when the files must keep the owner and group of the ones they replace.
    public let owner: (uid: uid_t, gid: gid_t)?
    /// What the folder is, for the errors (`ExportError.folder`).
    public let role: String

    public init(directory: String, group: String? = nil, createsFolder: Bool = true, fileMode: mode_t = 0o640, owner: (uid: uid_t, gid: gid_t)? = nil,
                role: String = "the folder") {
        self.directory = directory
        self.role = role
        self.group = group
        self.createsFolder = createsFolder
        self.fileMode = fileMode
        self.owner = owner
    }

    public static let temporaryPrefix = ".signpad-"

    /// At start: creates the folder if needed (and allowed) and removes temporary files a crash left behind.
    /// A folder signpad may write but not list (a drop box on a share) keeps any leftovers.
    public func prepare() throws(ExportError) {
        try createFolder()
        let names: [String]
        do {
            names = try allNames()
        } catch where error.errno == EACCES {
            return
        }
        for name in names where name.hasPrefix(Self.temporaryPrefix) { removeIfAbandoned("\(directory)/\(name)") }
    }

    /// Creates the folder (0750) if it is missing and `createsFolder` allows it.
    private func createFolder() throws(ExportError) {
        guard createsFolder else { return }
        if mkdir(directory, 0o750) != 0 && errno != EEXIST {
            let error = errno
            // ENOENT also comes from a file system that makes no folders (/proc): say the parent is missing only when it is.
            let parent = ExportError.parent(of: directory)
            let operation = error == ENOENT && access(parent, F_OK) == 0 ? "creating the folder in \(parent)" : ExportError.creatingFolder
            throw ExportError(path: directory, operation: operation, errno: error, folder: role)
        }
        if let gid = groupID() { _ = chown(directory, UInt32.max, gid) }
    }

    /// A writer keeps its temporary file locked until the file has its final name, and the
    /// kernel drops the lock when the writer dies. So a temporary file that can be locked is a
    /// crash's leftover, and one that cannot is being written: by another kiosk sharing the
    /// folder on a network share, or another signpad here. A file that cannot be opened, or on a
    /// file system without locks, stays: a hidden leftover is harmless, a write cut short is not.
    private func removeIfAbandoned(_ path: String) {
        // Opened for writing (never truncated): NFS takes flock as a POSIX lock, and an exclusive
        // one needs a descriptor open for writing.
        let fd = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return }
        defer { close(fd) }
        if flock(fd, LOCK_EX | LOCK_NB) == 0 { unlink(path) }
    }

    /// Writes the files, creating the folder if it went missing (and that is allowed). It never lists the folder:
    /// that takes time in proportion to all it holds, and a back office may let years of
    /// signatures collect in it, on a network share.
    /// One that fails (a disk full) takes back the files it had put in place before: the folder
    /// holds complete signatures only, and the caller still has the files to write again.
    /// The last `durableBeforeLast` files go in only once the others are durable (the folder
    /// fsynced): a manifest never names a file a power cut could take back.
    public func write(_ files: [(name: String, bytes: [UInt8])], durableBeforeLast: Int = 0) throws(ExportError) {
        try createFolder()
        var placed: [String] = []
        do {
            for (index, file) in files.enumerated() {
                if durableBeforeLast > 0 && index == files.count - durableBeforeLast && index > 0 { try syncDirectory() }
                try writeOne(name: file.name, bytes: file.bytes)
                placed.append(file.name)
            }
        } catch {
            for name in placed { unlink("\(directory)/\(name)") }
            throw error
        }
        try syncDirectory()
    }

    private func writeOne(name: String, bytes: [UInt8]) throws(ExportError) {
        let final = "\(directory)/\(name)", temporary = "\(directory)/\(Self.temporaryPrefix)\(name)"
        let fd = try openLocked(temporary)
        var failure: ExportError?
        bytes.withUnsafeBytes { buffer in
            var written = 0
            while written < buffer.count {
                let n = Glibc.write(fd, buffer.baseAddress! + written, buffer.count - written)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = ExportError(path: temporary, operation: "writing", errno: errno, folder: role)
                    return
                }
                written += n
            }
        }
        if failure == nil, let owner, fchown(fd, owner.uid, owner.gid) != 0 {
            failure = ExportError(path: temporary, operation: "chown to \(owner.uid):\(owner.gid)", errno: errno, folder: role)
        }
        // After the chown, which clears set-id bits.
        if failure == nil && fchmod(fd, fileMode) != 0 { failure = ExportError(path: temporary, operation: "chmod", errno: errno, folder: role) }
        if failure == nil, let gid = groupID(), fchown(fd, UInt32.max, gid) != 0 {
            failure = ExportError(path: temporary, operation: "chown to group \(group ?? "")", errno: errno, folder: role)
        }
        if failure == nil && fsync(fd) != 0 { failure = ExportError(path: temporary, operation: "fsync", errno: errno, folder: role) }
        // Renamed while still locked (closing drops the lock), so no `prepare` can take it for a leftover.
        if failure == nil && rename(temporary, final) != 0 { failure = ExportError(path: final, operation: "rename", errno: errno, folder: role) }
        if failure != nil { unlink(temporary) }
        if close(fd) != 0 && failure == nil { failure = ExportError(path: final, operation: "close", errno: errno, folder: role) }
        if let failure { throw failure }
    }

    /// Opens (creating) the temporary file and locks it (see `removeIfAbandoned`); truncated
    /// only once locked. A lock taken on a file some `prepare` unlinked meanwhile is no lock on
    /// the name, so the file is opened again.
    private func openLocked(_ temporary: String) throws(ExportError) -> Int32 {
        for _ in 0..<3 {
            let fd = open(temporary, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, fileMode)
            guard fd >= 0 else {
                // A missing folder is named, not the hidden file that could not go in it: staff need its name.
                let error = errno
                throw error == ENOENT && access(directory, F_OK) != 0 ? ExportError(path: directory, operation: "writing into it", errno: error, folder: role)
                                                                      : ExportError(path: temporary, operation: "creating", errno: error, folder: role)
            }
            if flock(fd, LOCK_EX | LOCK_NB) != 0 {
                let error = errno
                // Another writer has this very file: the same signature written twice at once.
                if error == EWOULDBLOCK {
                    close(fd)
                    throw ExportError(path: temporary, operation: "locking (another writer has it)", errno: error, folder: role)
                }
                // A file system without locks: written as before, unlocked.
            }
            var opened = stat(), named = stat()
            if fstat(fd, &opened) == 0 && stat(temporary, &named) == 0 && opened.st_ino == named.st_ino && opened.st_dev == named.st_dev {
                if ftruncate(fd, 0) != 0 {
                    let error = errno
                    close(fd)
                    throw ExportError(path: temporary, operation: "truncating", errno: error, folder: role)
                }
                return fd
            }
            close(fd)
        }
        throw ExportError(path: temporary, operation: "creating (it was removed each time it was opened)", errno: EAGAIN, folder: role)
    }

    /// Removes a file for good: unlinked, then the folder fsynced.
    public func remove(_ name: String) throws(ExportError) {
        let path = "\(directory)/\(name)"
        if unlink(path) != 0 && errno != ENOENT { throw ExportError(path: path, operation: "removing", errno: errno, folder: role) }
        try syncDirectory()
    }

    /// The names in the folder, hidden temporary files left out.
    public func names() throws(ExportError) -> [String] { try allNames().filter { !$0.hasPrefix(".") } }

    private func allNames() throws(ExportError) -> [String] {
        guard let dir = opendir(directory) else { throw ExportError(path: directory, operation: "opening the folder", errno: errno, folder: role) }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            names.append(name)
        }
        return names
    }

    private func syncDirectory() throws(ExportError) {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        // A folder that may be written but not read (a drop box) cannot be opened to fsync. Such
        // folders are shares, whose server commits a rename before it answers.
        if fd < 0 && errno == EACCES { return }
        guard fd >= 0 else { throw ExportError(path: directory, operation: "opening the folder to fsync", errno: errno, folder: role) }
        defer { close(fd) }
        if fsync(fd) != 0 { throw ExportError(path: directory, operation: "fsync of the folder", errno: errno, folder: role) }
    }

    private func groupID() -> gid_t? {
        guard let group, let entry = getgrnam(group) else { return nil }
        return entry.pointee.gr_gid
    }
}
