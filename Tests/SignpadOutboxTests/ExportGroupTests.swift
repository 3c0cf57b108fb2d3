import Glibc
@testable import SignpadOutbox
import Testing

/// `export.group`: a group the daemon's user is not in failed every write with a message that
/// named no group; now signpad does not start, and says the fix.
@Suite struct ExportGroupTests {
    @Test func aMemberOrRootMayGiveFilesTheGroup() {
        #expect(ExportGroupError.problem(group: "pos", gid: 120, primary: 120, supplementary: [], isRoot: false, user: "signpad") == nil)
        #expect(ExportGroupError.problem(group: "pos", gid: 120, primary: 998, supplementary: [44, 120], isRoot: false, user: "signpad") == nil)
        #expect(ExportGroupError.problem(group: "pos", gid: 120, primary: 0, supplementary: [], isRoot: true, user: "root") == nil)
    }

    @Test func anyoneElseIsToldTheFix() {
        let problem = ExportGroupError.problem(group: "pos", gid: 120, primary: 998, supplementary: [44, 13], isRoot: false, user: "signpad")
        #expect(problem?.description == "export.group: this process (user signpad) is not in the group \"pos\" and so cannot give the exports to it; "
            + "add SupplementaryGroups=pos to the unit (systemctl edit signpad), or usermod -aG pos signpad")
    }

    /// `nobody` is in no group but its own (nogroup): check-config's question for the unit's user.
    @Test(.enabled(if: getpwnam("nobody") != nil && getgrnam("root") != nil, "skipped: no nobody user or root group here"))
    func aUserOutsideTheGroupIsFound() {
        #expect(throws: ExportGroupError(group: "root", user: "nobody")) { try ExportGroupError.check("root", user: "nobody") }
    }
}
