import Dispatch
import FoundationEssentials
import Glibc
import SignpadCrypto
import SignpadExport
import SignpadTimestamp
import Synchronization

/// Fetches a trusted time stamp (RFC 3161) for each written signature, on a thread of its own,
/// after its files are safe: a request is never held up for the authority. Its token goes beside
/// the manifest as `<id>.meta.json.tsr`, over the SHA-256 of the manifest's signature. What awaits
/// a token is kept in the spool folder (`<id>.tsq`, the digest), so an authority down for days
/// or a restart loses none; tries back off from 5 s to 10 min. A signed document (`<id>.pdf`)
/// gets a second token, over its PAdES signature, put into that signature (PAdES B-T); the
/// queue file's second line is its imprint.
public final class TimeStamper: Sendable {
    public enum Event: Sendable, Equatable {
        case stamped(id: String, time: Double)
        /// The signed document's own token is in it.
        case documentStamped(id: String, time: Double)
        /// The first failure after a success (or at start), and then one an hour while it lasts.
        case failing(id: String, reason: String, awaiting: Int)
        case resumed(awaiting: Int)
        case unkept(id: String, reason: String)
    }

    static let pendingSuffix = ".tsq"

    private struct Pending: Sendable {
        var id: String
        var digest: [UInt8]
        var nextTry: Double
        var failures: Int
        /// The authority's reply once it came, while its write to the folder fails: only the
        /// write is tried again, so no second token is asked for (some authorities charge).
        var reply: TimeStampReply?
        /// The imprint of the signed document's PAdES signature, while it awaits its token.
        var document: [UInt8]?
        var documentReply: TimeStampReply?
    }

    private struct State: Sendable {
        var pending: [Pending] = []
        var stopping = false
        var failingSince: Double?
        var lastFailureReport = -Double.infinity
    }

    public let authority: TimeStampAuthority
    private let folder: FolderWriter
    private let queueFolder: FolderWriter?
    private let report: @Sendable (Event) -> Void
    private let state = Mutex(State())
    private let wakeUp = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    private let clock: @Sendable () -> Double

    /// `folder`: where the tokens go (the export folder); `queueFolder`: where what awaits one is
    /// kept (the spool's), nil for memory only.
    public init(authority: TimeStampAuthority, folder: FolderWriter, queueFolder: FolderWriter?,
                clock: @escaping @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime },
                report: @escaping @Sendable (Event) -> Void) {
        self.authority = authority
        self.folder = folder
        self.queueFolder = queueFolder
        self.report = report
        self.clock = clock
        var recovered: [Pending] = []
        if let queueFolder, let names = try? queueFolder.names() {
            for name in names.sorted() where name.hasSuffix(Self.pendingSuffix) {
                let id = String(name.dropLast(Self.pendingSuffix.count))
                let lines = ((try? BoundedFile.read("\(queueFolder.directory)/\(name)", limit: 256)) ?? [])
                    .split(separator: UInt8(ascii: "\n")).map { Hex.bytes(String(decoding: $0, as: UTF8.self).trimmed) }
                guard (1...2).contains(lines.count), lines.allSatisfy({ $0?.count == 32 }), let digest = lines[0] else {
                    report(.unkept(id: id, reason: "\(queueFolder.directory)/\(name): expected a SHA-256 in hexadecimal, and a document's on a second line; left in place"))
                    continue
                }
                guard !recovered.contains(where: { $0.id == id }) else { continue }
                recovered.append(Pending(id: id, digest: digest, nextTry: 0, failures: 0, document: lines.count == 2 ? lines[1] : nil))
            }
        }
        state.withLock { $0.pending = recovered }
        WorkerThread.start(name: "signpad-stamp") { [self] in
            loop()
            done.signal()
        }
    }

    /// How many written signatures await their token.
    public var awaiting: Int { state.withLock { $0.pending.count } }

    /// A signature whose files are written: its token is asked for. Called on the exporter's
    /// writer thread before the spool lets the signature go, so what awaits a token is on disk
    /// first (`<id>.tsq`); a signature already awaiting one is not asked for twice.
    /// `document`: the signed document written with it, whose signature gets a token too.
    public func submit(id: String, manifestSignature: [UInt8], document: [UInt8]? = nil) {
        let digest = SHA256.digest(manifestSignature)
        guard !state.withLock({ s in s.pending.contains { $0.id == id } }) else { return }
        var documentImprint: [UInt8]?
        if let document {
            do {
                documentImprint = try DocumentTimeStamp.imprint(of: document)
            } catch {
                report(.unkept(id: id, reason: "the signed document's signature cannot be read, so it gets no time stamp of its own: \(error)"))
            }
        }
        if let queueFolder {
            do {
                let text = ([digest] + (documentImprint.map { [$0] } ?? [])).map { Hex.string($0) + "\n" }.joined()
                try queueFolder.write([(id + Self.pendingSuffix, Array(text.utf8))])
            } catch {
                report(.unkept(id: id, reason: "kept in memory only: \(error)"))
            }
        }
        state.withLock { s in
            if !s.pending.contains(where: { $0.id == id }) {
                s.pending.append(Pending(id: id, digest: digest, nextTry: 0, failures: 0, document: documentImprint))
            }
        }
        wakeUp.signal()
    }

    /// Ends the thread. An exchange under way (up to the authority's time limit) is waited
    /// for at most a second: a stop or a reload must not wait on a slow authority, and what it
    /// has not finished is still in the queue folder for the next start.
    public func stop() {
        state.withLock { $0.stopping = true }
        wakeUp.signal()
        _ = done.wait(timeout: .now() + 1)
    }

    private func loop() {
        while true {
            let now = clock()
            let (next, stopping) = state.withLock { s in (s.pending.first { $0.nextTry <= now }, s.stopping) }
            if stopping { return }
            guard let next else {
                let soonest = state.withLock { $0.pending.map(\.nextTry).min() }
                if let soonest { _ = wakeUp.wait(timeout: .now() + max(0.05, soonest - now)) } else { wakeUp.wait() }
                continue
            }
            let token = next.id + SignatureEncoder.manifestSuffix + ManifestCheck.tokenSuffix
            var reply = next.reply, documentReply = next.documentReply
            do {
                // A record retention swept, or a back office took, while the authority was down
                // (or while it answered) gets no token left behind on its own.
                var present = try recordIsThere(next.id)
                // One it already has (a crash between the token and the queue's file) keeps its
                // earliest proof of time: no second token replaces it.
                if present && !FileManager.default.fileExists(atPath: folder.directory + "/" + token) {
                    if reply == nil { reply = try authority.stamp(sha256: next.digest) }
                    present = try recordIsThere(next.id)
                    if present { try folder.write([(token, reply!.der)]) }
                }
                if present, let imprint = next.document, let time = try stampDocument(next.id, imprint: imprint, reply: &documentReply) {
                    report(.documentStamped(id: next.id, time: time))
                }
                try? queueFolder?.remove(next.id + Self.pendingSuffix)
                let (resumed, left) = state.withLock { s -> (Bool, Int) in
                    s.pending.removeAll { $0.id == next.id }
                    defer { s.failingSince = nil }
                    return (s.failingSince != nil, s.pending.count)
                }
                if resumed { report(.resumed(awaiting: left)) }
                if let reply { report(.stamped(id: next.id, time: reply.time)) }
            } catch {
                let (tell, left) = state.withLock { s -> (Bool, Int) in
                    if let i = s.pending.firstIndex(where: { $0.id == next.id }) {
                        s.pending[i].failures += 1
                        s.pending[i].reply = reply
                        s.pending[i].documentReply = documentReply
                        s.pending[i].nextTry = clock() + min(600, 5 * pow(2, Double(min(s.pending[i].failures - 1, 10))))
                    }
                    let tell = s.failingSince == nil || clock() - s.lastFailureReport >= 3600
                    if s.failingSince == nil { s.failingSince = clock() }
                    if tell { s.lastFailureReport = clock() }
                    return (tell, s.pending.count)
                }
                if tell { report(.failing(id: next.id, reason: "\(error)", awaiting: left)) }
            }
        }
    }

    /// Puts the authority's token into the signed document's signature; the time it gives, or
    /// nil when there is nothing to do: the document has its token already (a crash before the
    /// queue's file went), or cannot take one here (gone, unreadable, no longer the one signed,
    /// or the token too large), which is reported once and left. Only the authority and the
    /// final write are tried again.
    private func stampDocument(_ id: String, imprint: [UInt8], reply: inout TimeStampReply?) throws -> Double? {
        let name = "\(id).\(SignatureEncoder.documentSuffix)", path = folder.directory + "/" + name
        /// The document as it is now, if it still awaits this token. A folder that cannot be
        /// read for now (a share that stalls) throws, to be tried again; only a document that is
        /// gone, or is no longer the one signed, is let go.
        func unstamped() throws -> [UInt8]? {
            guard try recordIsThere(id) else { return nil }
            let pdf: [UInt8]
            do {
                pdf = try BoundedFile.read(path, limit: BoundedFile.exportedFileBytes)
            } catch {
                guard error.isMissing else { throw error }
                report(.unkept(id: id, reason: "\(path) is gone: its signature keeps no time stamp of its own (the manifest's token still dates the record)"))
                return nil
            }
            do {
                guard try DocumentTimeStamp.asSigned(pdf).token == nil else { return nil }
                guard try DocumentTimeStamp.imprint(of: pdf) == imprint else {
                    report(.unkept(id: id, reason: "\(path) is not the document signed: left without a time stamp"))
                    return nil
                }
                return pdf
            } catch {
                report(.unkept(id: id, reason: "\(path) cannot take its time stamp: \(error)"))
                return nil
            }
        }
        guard try unstamped() != nil else { return nil }
        if reply == nil { reply = try authority.stamp(sha256: imprint) }
        // Read again after the authority's answer, which may take its time: a document moved
        // or deleted meanwhile (retention, a back office collecting the folder) is not put back.
        guard let pdf = try unstamped() else { return nil }
        let stamped: [UInt8]
        do {
            stamped = try DocumentTimeStamp.adding(reply!.token, to: pdf)
        } catch {
            // Asking again would give a token as large: the document stays B-B.
            report(.unkept(id: id, reason: "\(path): the authority's token does not go into its signature: \(error)"))
            return nil
        }
        try folder.write([(name, stamped)])
        return reply!.time
    }

    /// Whether the record's manifest is still in the folder: false (reported) once retention or
    /// a back office has taken it, and a throw when the folder cannot say for now (a share
    /// that stalls or is not mounted: a missing folder is not a missing record).
    private func recordIsThere(_ id: String) throws -> Bool {
        let manifest = folder.directory + "/" + id + SignatureEncoder.manifestSuffix
        var info = stat()
        if stat(manifest, &info) == 0 { return true }
        let missing = errno == ENOENT
        guard missing, stat(folder.directory, &info) == 0 else {
            throw ExportError(path: missing ? folder.directory : manifest, operation: "looking for", errno: errno, folder: "the export folder")
        }
        report(.unkept(id: id, reason: "\(manifest) is gone (retention, or taken from the folder): no token is written for it"))
        return false
    }
}
