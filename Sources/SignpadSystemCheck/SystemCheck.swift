import FoundationEssentials
import Glibc
import SignpadConfig
import SignpadExport
import SignpadOutbox
import SignpadPageRender
import SignpadText
import SignpadTimestamp

/// What a configuration that loads still needs of this machine: its keys, certificate, groups,
/// socket path and folders. `check-config`, the daemon's start and a reload run these same
/// checks, so that what one refuses the others refuse too, and a reload never hands the screen
/// to a start that would fail.
///
/// The export folder is not checked here: it may be a network share that does not answer, and
/// the daemon must show the kiosk meanwhile. The exporter's thread probes it at start, and
/// `GetStatus` says when that failed.
public struct SystemCheck {
    /// Who will run the kiosk: this process (the daemon's start and a reload), or the service's
    /// user while someone else runs `check-config`.
    public enum Runner: Sendable, Equatable {
        case thisProcess
        case serviceUser(String)
    }

    /// The unit's `RuntimeDirectory=` and `StateDirectory=`, which systemd makes before each
    /// start: while the service has never run they may be missing, and the start will have them.
    public static let unitDirectories = ["/run/signpad", "/var/lib/signpad"]
    /// The longest path a Unix socket's address holds (`sun_path` less its final NUL).
    public static let socketPathBytes = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    public let config: Config
    public let runner: Runner

    public init(_ config: Config, runner: Runner = .thisProcess) {
        self.config = config
        self.runner = runner
    }

    /// Everything that stops the kiosk from starting under this configuration, each naming its key.
    public var problems: [SystemProblem] {
        signingKeyProblems + certificateProblems + documentCertificateProblems + documentsFolderProblems + documentRendererProblems + exportGroupProblems + spoolProblems + controlProblems + backgroundImageProblems + timeStampProblems
    }

    /// An authority set, and libcurl, which asks it, not loadable: every token would fail.
    var timeStampProblems: [SystemProblem] {
        guard config.outbox.timestampURL != nil, let problem = TimeStampAuthority.libraryProblem else { return [] }
        return [SystemProblem(key: "export.timestamp_url", reason: "\(problem)")]
    }

    /// Throws every problem at once (a `SystemCheckError`, which ends signpad with EX_CONFIG).
    public func requireUsable() throws(SystemCheckError) {
        let found = problems
        if !found.isEmpty { throw SystemCheckError(problems: found) }
    }

    /// What does not stop the kiosk but deserves a word: text no installed font has, and, when
    /// someone else runs `check-config`, an export group the service's user is not in.
    public var warnings: [String] {
        var out = config.fontProblems
        if case .serviceUser(let user) = runner, let group = config.export.group {
            do { try ExportGroupError.check(group, user: user) } catch {
                out.append("\(error) (unless the unit gives \(user) the group already)")
            }
        }
        return out
    }

    /// The key must load; a missing one is made at start, so its folder must take it.
    /// (`SigningKeyFile.load` is where the key file itself is judged.)
    var signingKeyProblems: [SystemProblem] {
        let key = "export.signing_key", path = config.evidence.signingKey
        if config.evidence.signingKeyTPM != nil {
            do { _ = try EvidenceOptions.signingKey(at: path) } catch { return [SystemProblem(key: key, reason: "\(error)")] }
            return []
        }
        if Self.kind(of: path) == .folder {
            return [SystemProblem(key: key, reason: "\(path): expected the signing key's file, found a folder")]
        }
        do {
            if try SigningKeyFile(path: path).load() != nil { return [] }
        } catch {
            return [SystemProblem(key: key, reason: "\(error)")]
        }
        let folder = Self.folder(of: path)
        if let problem = Self.folderProblem(folder, for: "there is no signing key yet, and it is made in its folder") {
            return [SystemProblem(key: key, reason: "\(path): \(problem)")]
        }
        return []
    }

    /// The certificate must be readable, valid now and one CMS can seal to.
    var certificateProblems: [SystemProblem] {
        guard let path = config.evidence.recipientCertificate else { return [] }
        do {
            _ = try RecipientCertificateFile.load(path)
            return []
        } catch {
            return [SystemProblem(key: "export.recipient_certificate", reason: "\(error)")]
        }
    }

    /// The document certificate must be readable, the signing key's (P-256) and valid now.
    var documentCertificateProblems: [SystemProblem] {
        guard let path = config.evidence.documentCertificate else { return [] }
        // A key file is read, never made here; what is wrong with the key itself signingKeyProblems says.
        let signingKey = config.evidence.signingKey
        let found = config.evidence.signingKeyTPM != nil ? try? EvidenceOptions.signingKey(at: signingKey).key : try? SigningKeyFile(path: signingKey).load()
        guard let key = found else {
            return [SystemProblem(key: "export.document_certificate", reason: "\(path): there is no signing key at \(signingKey) to check it against; make the key first (signpad key create --algorithm p256), then its certificate")]
        }
        do {
            _ = try DocumentCertificateFile.load(path, for: key.publicKey)
            return []
        } catch {
            return [SystemProblem(key: "export.document_certificate", reason: "\(error)")]
        }
    }

    /// The program that draws a document's pages for the customer: without it every request with
    /// a document would fail at the pad, not here.
    var documentRendererProblems: [SystemProblem] {
        guard config.evidence.documentCertificate != nil else { return [] }
        let path = config.documents.renderer ?? PageRenderer.executable
        var info = stat()
        guard stat(path, &info) == 0 else {
            return [SystemProblem(key: "documents.renderer", reason: "\(path): \(String(cString: strerror(errno))): signpad-render draws a document's pages for the customer; install it with signpad")]
        }
        guard info.st_mode & S_IFMT == S_IFREG, access(path, X_OK) == 0 else {
            return [SystemProblem(key: "documents.renderer", reason: "\(path): expected signpad-render, a program this user may run")]
        }
        return []
    }

    /// The documents folder, which the daemon makes when documents are signed: it, or its parent, must be there.
    var documentsFolderProblems: [SystemProblem] {
        guard config.evidence.documentCertificate != nil else { return [] }
        let folder = config.documents.directory
        switch Self.kind(of: folder) {
        case .folder?: return []
        case .other?: return [SystemProblem(key: "documents.directory", reason: "\(folder): expected a folder, found a file")]
        case nil:
            guard let problem = Self.folderProblem(Self.folder(of: folder), for: "the documents folder is made in it") else { return [] }
            return [SystemProblem(key: "documents.directory", reason: "\(folder): \(problem)")]
        }
    }

    /// The group must exist; this process must be able to give files to it (what the service's
    /// user can is only a warning: a unit's SupplementaryGroups= is not seen from outside).
    var exportGroupProblems: [SystemProblem] {
        guard let group = config.export.group else { return [] }
        guard getgrnam(group) != nil else {
            return [SystemProblem(key: "export.group", reason: "no group \"\(group)\" on this machine; create it (groupadd \(group)), or leave the key empty for the signpad user's own group")]
        }
        guard runner == .thisProcess else { return [] }
        do {
            try ExportGroupError.check(group)
            return []
        } catch {
            return [SystemProblem(key: "export.group", reason: error.reason)]
        }
    }

    /// The spool is local disk the daemon makes if missing: it, or its parent folder, must be there.
    var spoolProblems: [SystemProblem] {
        guard let spool = config.outbox.spoolDirectory else { return [] }
        switch Self.kind(of: spool) {
        case .folder?: return []
        case .other?: return [SystemProblem(key: "export.spool_directory", reason: "\(spool): expected a folder, found a file")]
        case nil:
            let parent = Self.folder(of: spool)
            guard let problem = Self.folderProblem(parent, for: "the spool is made in it") else { return [] }
            return [SystemProblem(key: "export.spool_directory", reason: "\(spool): \(problem)")]
        }
    }

    /// The control socket: a path its address holds, in a folder that is there, a group that
    /// exists, and a results file whose folder takes it.
    var controlProblems: [SystemProblem] {
        guard let socket = config.control.socket else { return [] }
        var found: [SystemProblem] = []
        let bytes = socket.utf8.count
        if bytes > Self.socketPathBytes {
            found.append(SystemProblem(key: "control.socket", reason: "\(socket): \(bytes) bytes; a Unix socket's path holds at most \(Self.socketPathBytes): choose a shorter one"))
        } else if Self.kind(of: socket) == .folder {
            found.append(SystemProblem(key: "control.socket", reason: "\(socket): expected the socket's path, found a folder"))
        } else {
            if let problem = Self.folderProblem(Self.folder(of: socket), for: "the socket is made in it") {
                found.append(SystemProblem(key: "control.socket", reason: "\(socket): \(problem)"))
            }
        }
        if let group = config.control.group, getgrnam(group) == nil {
            found.append(SystemProblem(key: "control.group", reason: "no group \"\(group)\" on this machine; the package creates it (systemd-sysusers), else create it (groupadd \(group)) and add the point of sale's user, or set control.group = \"\" for the signpad user's own group"))
        }
        let results = config.control.results
        if Self.kind(of: results) == .folder {
            found.append(SystemProblem(key: "control.results", reason: "\(results): expected a file's path, found a folder"))
        } else if let problem = Self.folderProblem(Self.folder(of: results), for: "the results of the last requests are kept in it") {
            found.append(SystemProblem(key: "control.results", reason: "\(results): \(problem)"))
        }
        return found
    }

    /// The picture behind the kiosk must load.
    var backgroundImageProblems: [SystemProblem] {
        guard let path = config.kiosk.backgroundImage else { return [] }
        do {
            _ = try ChromePainter.loadPNG(path)
            return []
        } catch {
            return [SystemProblem(key: "kiosk.background_image", reason: "\(error)")]
        }
    }

    enum Kind: Equatable {
        case folder, other
    }

    /// What is at `path` (a symbolic link followed); nil: nothing.
    static func kind(of path: String) -> Kind? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT == S_IFDIR ? .folder : .other
    }

    static func folder(of path: String) -> String {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        return folder.isEmpty ? "/" : folder
    }

    /// Why `folder` cannot take a new file (nil when it can); `purpose` says why it must.
    static func folderProblem(_ folder: String, for purpose: String) -> String? {
        switch kind(of: folder) {
        case nil where unitDirectories.contains(folder): return nil
        case nil: return "\(purpose), but the folder \(folder) is missing; create it, or choose another path"
        case .other: return "\(purpose), but \(folder) is not a folder"
        case .folder:
            guard access(folder, W_OK | X_OK) == 0 else {
                return "\(purpose), but the folder \(folder) is not writable (\(String(cString: strerror(errno)))) by the user signpad runs as"
            }
            return nil
        }
    }
}

/// One thing this machine lacks for the configuration: the key it comes from, and why.
public struct SystemProblem: Error, Equatable, Sendable, CustomStringConvertible {
    public var key: String
    public var reason: String

    public init(key: String, reason: String) {
        self.key = key
        self.reason = reason
    }

    public var description: String { "\(key): \(reason)" }
}

/// The configuration loads but cannot run on this machine: a misconfiguration, which a restart
/// would meet again (EX_CONFIG).
public struct SystemCheckError: Error, Equatable, CustomStringConvertible {
    public var problems: [SystemProblem]

    public init(problems: [SystemProblem]) {
        self.problems = problems
    }

    public var description: String { problems.map(\.description).joined(separator: "; ") }
}
