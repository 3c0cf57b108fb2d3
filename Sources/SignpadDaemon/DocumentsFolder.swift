import Glibc
import Logging

/// The folder a point of sale leaves its documents in, when it is missing: made 0770 and given
/// to the control socket's group. The package makes the default one 2770 (tmpfiles.d), whose
/// setgid bit keeps what the point of sale writes the group's; the unit's RestrictSUIDSGID=
/// keeps signpad from setting that bit itself, so a folder it makes says so.
enum DocumentsFolder {
    static func prepare(_ path: String, groupID: gid_t?, logger: Logger) {
        var info = stat()
        if lstat(path, &info) == 0 {
            if info.st_mode & S_IFMT != S_IFDIR { logger.error("documents folder is not a folder", metadata: ["path": "\(path)"]) }
            return
        }
        guard mkdir(path, 0o770) == 0 else {
            logger.error("documents folder not made", metadata: ["path": "\(path)", "reason": "\(String(cString: strerror(errno)))"])
            return
        }
        if let groupID, chown(path, uid_t.max, groupID) != 0 {
            logger.warning("documents folder not given to its group", metadata: ["path": "\(path)", "reason": "\(String(cString: strerror(errno)))"])
        }
        // mkdir's mode passes through the umask, which takes the group's write away.
        chmod(path, 0o770)
        logger.notice("documents folder made without setgid", metadata: ["path": "\(path)", "action": "make it 2770 (chmod g+s), or a point of sale's file may be unreadable to signpad"])
    }
}
