import FoundationEssentials
import Glibc
import SignpadVocabulary

/// Replaces one file an administrator owns (the configuration, for `calibrate --write`) so that a
/// reader sees the old file or the new one, never a mix.
public enum FileReplacement {
    /// Replaces the file at `path` (a symbolic link's target, when it is one) with `bytes`, keeping
    /// the old file's mode, owner and group. A file that did not exist is made 0644 in a folder
    /// made 0755 if needed, as the daemon's user must be able to read it. `what` names the file
    /// in the error ("the configuration").
    public static func replace(_ path: String, with bytes: [UInt8], what: String) throws(FileReplacementError) {
        let target = resolvedPath(path)
        let parent = PathText.folder(of: target), folder = parent.isEmpty ? "." : parent, name = PathText.name(of: target)
        var status = stat()
        var owner: (uid: uid_t, gid: gid_t)?
        var mode: mode_t = 0o644
        if stat(target, &status) == 0 {
            mode = status.st_mode & 0o7777
            owner = (status.st_uid, status.st_gid)
        } else if errno != ENOENT {
            throw FileReplacementError(path: target, what: what, operation: "stat", errno: errno)
        }
        if mkdir(folder, 0o755) != 0 && errno != EEXIST {
            throw FileReplacementError(path: folder, what: what, operation: "creating the folder", errno: errno)
        }
        do {
            try FolderWriter(directory: folder, fileMode: mode, owner: owner, role: "\(what)'s folder").write([(name: name, bytes: bytes)])
        } catch {
            throw FileReplacementError(path: error.path, what: what, operation: error.operation, errno: error.errno)
        }
    }

    private static func resolvedPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// Why a file could not be replaced; names the file, the step and the system's reason.
public struct FileReplacementError: Error, CustomStringConvertible, Equatable {
    public var path: String
    /// What the file is ("the configuration").
    public var what: String
    public var operation: String
    public var errno: Int32

    public var description: String {
        "\(path): cannot save \(what): \(operation) failed" + (errno == 0 ? "" : " (\(String(cString: strerror(errno))))")
    }
}
