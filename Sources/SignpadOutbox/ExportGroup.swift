import Glibc

/// `export.group` must be one the daemon can give its files: a member's (primary or
/// supplementary), or any for root, which may chown at will. Otherwise every write would fail
/// with a permission error that names no group, so signpad does not start and says the fix.
public struct ExportGroupError: Error, Equatable, CustomStringConvertible {
    public var group: String
    public var user: String

    public var description: String { "export.group: \(reason)" }

    public var reason: String {
        "this process (user \(user)) is not in the group \"\(group)\" and so cannot give the exports to it; "
            + "add SupplementaryGroups=\(group) to the unit (systemctl edit signpad), or usermod -aG \(group) \(user)"
    }

    /// Throws when the user `name` (as /etc/group has it: what a unit's SupplementaryGroups= adds
    /// is not seen) may not give files `group`; nothing for a user that does not exist.
    public static func check(_ group: String, user name: String) throws(ExportGroupError) {
        guard let entry = getgrnam(group), let user = getpwnam(name) else { return }
        let gid = entry.pointee.gr_gid, primary = user.pointee.pw_gid
        var count: Int32 = 64
        var groups = [gid_t](repeating: 0, count: Int(count))
        if getgrouplist(name, primary, &groups, &count) < 0 {
            groups = [gid_t](repeating: 0, count: Int(count))
            _ = getgrouplist(name, primary, &groups, &count)
        }
        if let problem = problem(group: group, gid: gid, primary: primary, supplementary: Array(groups.prefix(Int(max(count, 0)))),
                                 isRoot: user.pointee.pw_uid == 0, user: name) {
            throw problem
        }
    }

    /// Throws when this process may not give its files `group` (which the configuration checked exists).
    public static func check(_ group: String) throws(ExportGroupError) {
        guard let entry = getgrnam(group) else { return }
        let gid = entry.pointee.gr_gid
        var groups = [gid_t](repeating: 0, count: Int(max(getgroups(0, nil), 0)))
        let count = getgroups(Int32(groups.count), &groups)
        if let problem = problem(group: group, gid: gid, primary: getegid(), supplementary: Array(groups.prefix(Int(max(count, 0)))),
                                 isRoot: geteuid() == 0, user: getpwuid(geteuid()).map { String(cString: $0.pointee.pw_name) } ?? "\(geteuid())") {
            throw problem
        }
    }

    static func problem(group: String, gid: gid_t, primary: gid_t, supplementary: [gid_t], isRoot: Bool, user: String) -> ExportGroupError? {
        isRoot || primary == gid || supplementary.contains(gid) ? nil : ExportGroupError(group: group, user: user)
    }
}
