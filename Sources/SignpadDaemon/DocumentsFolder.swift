import Glibc
import Logging

/// The folder a point of sale leaves its documents in: made 2770 and given to the control
/// socket's group, so that its members write there and the files they make stay the group's.
enum DocumentsFolder {
    static func prepare(_ path: String, groupID: gid_t?, logger: Logger) {
        var info = stat()
        if lstat(path, &info) == 0 {
            if info.st_mode & S_IFMT != S_IFDIR { logger.error("documents folder is not a folder", metadata: ["path": "\(path)"]) }
            return
        }
        guard mkdir(path, 0o2770) == 0 else {
            logger.error("documents folder not made", metadata: ["path": "\(path)", "reason": "\(String(cString: strerror(errno)))"])
            return
        }
        // mkdir's mode passes through the umask, which takes the group's write away.
        if let groupID, chown(path, uid_t.max, groupID) != 0 {
            logger.warning("documents folder not given to its group", metadata: ["path": "\(path)", "reason": "\(String(cString: strerror(errno)))"])
        }
        chmod(path, 0o2770)
        logger.info("documents folder made", metadata: ["path": "\(path)"])
    }
}
