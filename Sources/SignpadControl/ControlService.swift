import FoundationEssentials
import Logging
import SignpadExport
import SignpadKiosk
import SignpadOutbox
import SignpadPDF
import SignpadSession
import SignpadVarlink
import SignpadVocabulary

/// `org.signpad.Kiosk` served on the control socket: a point of sale's requests shown in the
/// session, their progress and results answered, and the results kept for `GetResult`.
public final class ControlService {
    public let server: VarlinkServer
    private let logger: Logger
    private var results: RequestResults
    /// The kiosk on the display; nil while there is none (requests are `NotReady`).
    public private(set) var session: Session?
    private let exportsPNG: Bool
    private let time: TimeSource

    /// The answer owed to the caller of the request under way: the result it will be (as the book
    /// keeps it), the call waiting for it and how it asked. What the request shows and where it
    /// stands on the pad are the kiosk's (`KioskRequest`); the answer outlives the kiosk when the
    /// display goes, as it is still owed.
    private struct Owed {
        /// Its id, reference, start and owner (the uid that asked: its cancel and result are that
        /// user's, or root's), and once Done sent its signature out, `confirmed`.
        var result: RequestResult
        /// The call waiting for its result; nil once its client hung up.
        var call: VarlinkCallID?
        var more: Bool
        var returnImage: Bool
        /// The book's ticket for the request's record: its progress goes out once the book holds
        /// it, so that GetResult after a crash knows a request the point of sale was told of.
        var booked = 0

        var id: String { result.id }
        var owner: UInt32? { result.owner }
        var confirmed: Bool { result.confirmed == true }
    }
    private var active: Owed?

    /// A request whose document `intake` is taking: nothing is shown until it is taken, and the
    /// call is answered with the request's progress, or refused.
    private struct Taking {
        var ticket: Int
        var call: VarlinkCallID?
        var caller: VarlinkCaller
        var asked: Asked
        var path: String
    }
    private var taking: Taking?
    private var lastTicket = 0
    private let intake: DocumentIntake?
    /// Where the export folder is, for the signed document's path in a result.
    private let exportFolder: String?

    /// What a RequestSignature call asked, checked.
    private struct Asked {
        var context: SignatureRequest
        var timeout: Double?
        var returnImage: Bool
        var more: Bool
        var document: SignedDocument?
        var review: DocumentReview?
    }
    private var clientLines = ClientLogBudget()
    /// Lines for calls, and apart from them for calls refused: a point of sale polling GetStatus,
    /// or a client flooding the socket, must not push the lines that matter out of the journal,
    /// nor the polling hide a refusal.
    private var callLines = ClientLogBudget()
    private var refusedLines = ClientLogBudget()
    /// Replies waiting for the book to hold what they tell: its ticket, the call, the reply, and
    /// whether more follow (a request's progress) or it is the final answer.
    private var endings: [(ticket: Int, call: VarlinkCallID, answer: [String: JSONValue], continues: Bool)] = []

    /// `time`: where a request's start and end are read.
    /// `intake` takes the documents requests name (nil: this kiosk signs none); `exportFolder`
    /// is where a signed document is written, for its path in the result.
    public init(server: VarlinkServer, results: RequestResults, exportsPNG: Bool, logger: Logger, time: TimeSource = .system,
                intake: DocumentIntake? = nil, exportFolder: String? = nil) {
        self.intake = intake
        self.exportFolder = exportFolder
        self.time = time
        self.server = server
        self.results = results
        self.exportsPNG = exportsPNG
        self.logger = logger
    }

    /// The request under way, for `GetStatus`.
    public var requestUnderWay: (id: String, reference: String, since: Double)? { active.map { ($0.id, $0.result.reference, $0.result.startedAt) } }

    /// The session requests are shown in from now on (nil: the display went away). Its events
    /// come through `consume`, from the daemon, and from this service after its own calls.
    public func attach(_ session: Session?) {
        self.session = session
    }

    /// What the session told: a request's progress and end, and exports' results.
    public func consume(_ event: Session.Event) {
        switch event {
        case .request(let request): requestEvent(request)
        case .exportResult(let result): exportResult(result)
        case .notice(let notice): logger.tell(notice)
        }
    }

    /// The session went away (`what`: the display was lost, signpad stopped): a request under way
    /// fails; one signed whose export has not answered yet is answered signed, with where it waits.
    public func detach(because what: String) {
        session = nil
        sayHeldBack(calls: callLines.drainHeldBack(), refused: refusedLines.drainHeldBack(), clients: clientLines.drainHeldBack())
        defer {
            // The loop may not turn again: the book is written now and every answer sent.
            results.flush()
            sendEndings(all: true)
        }
        guard let active else { return }
        if !active.confirmed {
            finish(.failed, reason: "\(what) during the request")
        } else {
            finish(.signed, reason: "\(what) before the export folder answered; the signature waits in the spool and is written from there (the journal says if it could not be kept)")
        }
    }

    /// A write of the results book has ended (the daemon hears it from the book's `written`):
    /// the final answers it holds now go out.
    public func bookWritten() {
        sendEndings()
    }

    /// Handles what the server saw in one turn of the loop.
    /// Answers the calls among `events`; `host` says the kiosk's status and whether it can take a request.
    public func handle(_ events: [VarlinkEvent], now: Double, host: some ControlHost) {
        sayHeldBack(calls: callLines.ended(now: now), refused: refusedLines.ended(now: now), clients: clientLines.ended(now: now))
        for event in events {
            switch event {
            case .call(let id, let call, let caller):
                var log = logger
                log[metadataKey: "caller"] = "uid=\(caller.uid) pid=\(caller.pid)"
                log[metadataKey: "method"] = "\(call.methodName)"
                if callLines.take(now: now) { log.info("control call") }
                do {
                    try answer(call, id: id, caller: caller, now: now, log: log, host: host)
                } catch {
                    if refusedLines.take(now: now) {
                        log.notice("control call refused", metadata: ["error": "\(error.name)", "detail": "\(String(decoding: JSONValue.object(error.parameters).encoded, as: UTF8.self))"])
                    }
                    if !call.oneway { server.fail(id, error.name, error.parameters) }
                }
            case .dropped(let caller, let reason):
                guard clientLines.take(now: now) else { continue }
                logger.notice("control client dropped", metadata: ["caller": "uid=\(caller.uid) pid=\(caller.pid)", "reason": "\(reason)"])
            case .refused(let caller, let reason):
                guard clientLines.take(now: now) else { continue }
                logger.warning("control client refused", metadata: ["caller": "uid=\(caller.uid) pid=\(caller.pid)", "reason": "\(reason)"])
            case .hungUp(let id, let caller):
                if let pending = taking, pending.call == id {
                    taking = nil
                    logger.notice("control client hung up while its document was taken; nothing is shown", metadata: ["caller": "uid=\(caller.uid) pid=\(caller.pid)", "path": "\(pending.path)"])
                    continue
                }
                guard active?.call == id else { continue }
                active?.call = nil
                logger.notice("control client hung up; the request goes on, its result waits for GetResult",
                              metadata: ["caller": "uid=\(caller.uid) pid=\(caller.pid)", "request": "\(active?.id ?? "")"])
            }
        }
    }

    /// How many lines each budget held back in an interval now ended, or at a stop.
    private func sayHeldBack(calls: Int, refused: Int, clients: Int) {
        if calls > 0 { logger.notice("control calls held back", metadata: ["count": "\(calls)", "seconds": "\(Int(callLines.interval))"]) }
        if refused > 0 { logger.notice("control calls refused held back", metadata: ["count": "\(refused)", "seconds": "\(Int(refusedLines.interval))"]) }
        if clients > 0 {
            logger.warning("control clients: more lines about dropped or refused clients held back",
                           metadata: ["count": "\(clients)", "seconds": "\(Int(clientLines.interval))"])
        }
    }

    /// Whether `caller` may see, cancel and read a request `owner` asked for: its own, or root.
    private static func mayAct(_ caller: VarlinkCaller, on owner: UInt32?) -> Bool { caller.uid == 0 || caller.uid == owner }

    /// Busy, naming the request under way only to whom it belongs.
    private static func busy(_ active: Owed, for caller: VarlinkCaller) -> ControlError {
        mayAct(caller, on: active.owner) ? .busy(id: active.id, reference: active.result.reference) : .busy(id: nil, reference: nil)
    }

    private func answer(_ call: VarlinkCall, id: VarlinkCallID, caller: VarlinkCaller, now: Double, log: Logger, host: some ControlHost) throws(ControlError) {
        var parameters = CallParameters(call.parameters)
        switch call.methodName {
        case "RequestSignature":
            try requestSignature(&parameters, call: call, id: id, caller: caller, now: now, log: log, host: host)
        case "CancelRequest":
            let requestID = try parameters.string("id")
            try parameters.rejectOthers()
            guard let active, active.id == requestID, Self.mayAct(caller, on: active.owner), !active.confirmed, let session else {
                throw .noSuchRequest(requestID)
            }
            session.cancelRequest(now: now)
            for event in session.takeEvents() { consume(event) }
            server.reply(id, [:])
        case "GetResult":
            let requestID = try parameters.string("id")
            try parameters.rejectOthers()
            if let active, active.id == requestID, Self.mayAct(caller, on: active.owner) { throw Self.busy(active, for: caller) }
            guard let result = results.result(requestID), Self.mayAct(caller, on: result.owner) else { throw .noSuchRequest(requestID) }
            if result.status == nil {
                throw .notReady("the request was confirmed before signpad stopped; whether its signature is in the export folder is being checked")
            }
            var answer = result.parameters
            answer["endedAt"] = .string(ISO8601.string(result.endedAt ?? result.startedAt))
            server.reply(id, answer)
        case "GetStatus":
            try parameters.rejectOthers()
            var answer = host.kioskStatus()
            if let active {
                var request: [String: JSONValue] = ["since": .string(ISO8601.string(active.result.startedAt))]
                if Self.mayAct(caller, on: active.owner) {
                    request["id"] = .string(active.id)
                    request["reference"] = .string(active.result.reference)
                }
                answer["request"] = .object(request)
            }
            server.reply(id, answer)
        default:
            throw .methodNotFound(call.method)
        }
    }

    private func requestSignature(_ parameters: inout CallParameters, call: VarlinkCall, id: VarlinkCallID, caller: VarlinkCaller,
                                  now: Double, log: Logger, host: some ControlHost) throws(ControlError) {
        let reference = try parameters.string("reference")
        let title = try parameters.optionalString("title")
        let lines = try parameters.optionalStrings("lines") ?? []
        let signer = try parameters.optionalString("signer")
        let reason = try parameters.optionalString("reason")
        var hash = try parameters.optionalString("documentSha256")
        let timeout = try parameters.optionalNumber("timeoutSeconds")
        let returnImage = try parameters.optionalBool("returnImage") ?? false
        let document = try documentAsked(&parameters)
        try parameters.rejectOthers()
        if let active { throw Self.busy(active, for: caller) }
        if taking != nil { throw .busy(id: nil, reference: nil) }
        if let document {
            guard hash == nil || hash?.lowercased() == document.sha256 else {
                throw .invalidParameter("documentSha256", expected: "the document's sha256 (\(document.sha256)), or nothing")
            }
            hash = document.sha256
        }
        let context = try RequestLimits.checked(SignatureRequest(reference: reference, title: title, lines: lines, signer: signer, reason: reason,
                                                                 documentSha256: hash), timeout: timeout)
        let asked = Asked(context: context, timeout: timeout, returnImage: returnImage, more: call.more)
        try checkShowable(asked, host: host)
        guard let document, let intake else {
            try begin(asked, call: call.oneway ? nil : id, caller: caller, now: now, log: log)
            return
        }
        lastTicket += 1
        taking = Taking(ticket: lastTicket, call: call.oneway ? nil : id, caller: caller, asked: asked, path: document.path)
        log.info("document being taken", metadata: ["path": "\(document.path)", "reference": "\(context.reference)"])
        intake.submit(DocumentIntake.Job(ticket: lastTicket, path: document.path, sha256: document.sha256, placement: document.placement))
    }

    /// `document`'s fields checked: a file in the documents folder, its SHA-256, and where to sign.
    private func documentAsked(_ parameters: inout CallParameters) throws(ControlError) -> (path: String, sha256: String, placement: PDFSignaturePlacement)? {
        guard var fields = try parameters.optionalObject("document") else { return nil }
        let path = try fields.string("path")
        let sha256 = try fields.string("sha256").lowercased()
        let field = try fields.optionalString("field")
        let page = try fields.optionalNumber("page")
        let rect = try fields.optionalNumbers("rect")
        try fields.rejectOthers()
        guard let intake else {
            throw .invalidParameter("document", expected: "no document: this kiosk signs none (export.document_certificate is not set)")
        }
        let folder = intake.directory.hasSuffix("/") ? intake.directory : intake.directory + "/"
        let name = path.hasPrefix(folder) ? String(path.dropFirst(folder.count)) : ""
        guard !name.isEmpty, !name.contains("/"), name != ".", name != "..", path.utf8.count <= 4096 else {
            throw .invalidParameter(fields.named("path"), expected: "a file directly in the documents folder, \(folder)NAME")
        }
        guard sha256.utf8.count == 64, sha256.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            throw .invalidParameter(fields.named("sha256"), expected: "the file's SHA-256: 64 hexadecimal digits")
        }
        if let field {
            guard !field.isEmpty, field.utf8.count <= 255, !field.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw .invalidParameter(fields.named("field"), expected: "a field's name: 1 to 255 bytes, no control characters")
            }
        }
        var pageNumber: Int?
        if page != nil, rect == nil { throw .invalidParameter(fields.named("page"), expected: "nothing without rect: a page is where a new field's rectangle goes") }
        if let page {
            guard page == page.rounded(), page >= 1, page <= 100_000 else { throw .invalidParameter(fields.named("page"), expected: "a page number from 1") }
            pageNumber = Int(page)
        }
        var box: PDFRect?
        if let rect {
            guard rect.count == 4, rect.allSatisfy({ $0.isFinite && abs($0) <= 1e6 }) else {
                throw .invalidParameter(fields.named("rect"), expected: "four numbers, [x0, y0, x1, y1] in points from the page's bottom left")
            }
            let given = PDFRect(rect[0], rect[1], rect[2], rect[3])
            guard given.width >= 1, given.height >= 1 else { throw .invalidParameter(fields.named("rect"), expected: "a rectangle at least a point wide and high") }
            box = given
        }
        return (path, sha256, PDFSignaturePlacement(field: field, page: pageNumber, rect: box))
    }

    /// Whether the kiosk can show `asked` now: a session, nothing keeping it from requests, and
    /// text that fits.
    private func checkShowable(_ asked: Asked, host: some ControlHost) throws(ControlError) {
        guard let session else { throw .notReady("no display yet") }
        if let why = host.notReadyReason() { throw .notReady(why) }
        let base = session.kiosk.baseLayout
        let rows = session.requestRows(asked.context.lines).reduce(0, +), room = KioskLayout.maxRequestLines(width: base.width, height: base.height)
        guard rows <= room else {
            throw .invalidParameter("lines", expected: "at most \(room) rows of text on this \(base.width)x\(base.height) screen, which keeps at least half the box to sign in; these lines wrap to \(rows) rows")
        }
        if asked.returnImage && !exportsPNG { throw .invalidParameter("returnImage", expected: "false: this kiosk exports no PNG in clear (export.formats, export.encrypt_images)") }
    }

    /// The request shown: from here it has an id, and the caller hears its progress.
    private func begin(_ asked: Asked, call: VarlinkCallID?, caller: VarlinkCaller, now: Double, log: Logger) throws(ControlError) {
        guard let session else { throw .notReady("no display yet") }
        let wallNow = time.wall()
        let requestID = SignatureRequest.requestID(prefix: asked.context.fileNamePrefix, at: wallNow)
        var started = RequestResult(id: requestID, reference: asked.context.reference, startedAt: wallNow)
        started.owner = caller.uid
        active = Owed(result: started, call: call, more: asked.more, returnImage: asked.returnImage)
        active?.booked = record(started)
        log.info("request shown", metadata: ["request": "\(requestID)", "reference": "\(asked.context.reference)"])
        session.beginRequest(id: requestID, context: asked.context, timeout: asked.timeout, now: now, document: asked.document, review: asked.review)
        progress("shown")
        for event in session.takeEvents() { consume(event) }
    }

    /// The documents `intake` has taken (or refused) since the last call: the request waiting on
    /// one is shown, or its call refused with why.
    public func documentsTaken(now: Double, host: some ControlHost) {
        guard let intake else { return }
        for (ticket, outcome) in intake.outcomes() {
            guard let pending = taking, pending.ticket == ticket else { continue }
            taking = nil
            var log = logger
            log[metadataKey: "caller"] = "uid=\(pending.caller.uid) pid=\(pending.caller.pid)"
            log[metadataKey: "path"] = "\(pending.path)"
            do throws(ControlError) {
                switch outcome {
                case .refused(let reason):
                    throw .documentRefused(path: pending.path, reason: reason)
                case .taken(let document, let review, let field):
                    log.info("document taken", metadata: ["pages": "\(review.pageCount)", "field": "\(field)"])
                    var asked = pending.asked
                    asked.document = document
                    asked.review = review
                    if let active { throw Self.busy(active, for: pending.caller) }
                    try checkShowable(asked, host: host)
                    try begin(asked, call: pending.call, caller: pending.caller, now: now, log: log)
                }
            } catch {
                log.notice("control call refused", metadata: ["error": "\(error.name)", "detail": "\(String(decoding: JSONValue.object(error.parameters).encoded, as: UTF8.self))"])
                if let call = pending.call { server.fail(call, error.name, error.parameters) }
            }
        }
    }

    private func progress(_ name: String) {
        guard let active, active.more, let call = active.call else { return }
        endings.append((active.booked, call, ["id": .string(active.id), "reference": .string(active.result.reference), "progress": .string(name)], true))
        sendEndings()
    }

    private func requestEvent(_ event: Session.RequestEvent) {
        switch event {
        case .progress(_, .ink): progress("ink")
        case .progress(_, .cleared): progress("cleared")
        case .progress(_, .reviewed): progress("reviewed")
        case .ended(_, .signed):
            // Confirmed: a stop before its answer leaves it to be settled, never failed; its
            // export's result (of the record named by its id) is the answer.
            active?.result.confirmed = true
            if let active { record(active.result) }
        case .ended(_, .declined): finish(.cancelled, reason: "declined by the customer")
        case .ended(_, .timedOut): finish(.timedOut, reason: "nobody touched the pad for the request's timeout")
        case .ended(_, .cancelled): finish(.cancelled, reason: "cancelled by the point of sale")
        case .ended(_, .failed(let reason)): finish(.failed, reason: reason)
        }
    }

    /// Requests confirmed before signpad stopped (see `RequestResults.unsettled`): those whose
    /// signature the spool gave back are signed and kept (their write's result says when they
    /// are saved); the export folder is asked about the others.
    public func settleUnsettled(spooled: [String: [Exporter.ExportedFile]], exporter: Exporter) {
        let now = time.wall()
        var lookUps: [String] = []
        for id in results.unsettled {
            if let files = spooled[id] {
                do { try results.settle(id, kept: true, files: files.map(RequestResult.File.init), now: now) } catch { reportBook(error) }
            } else {
                lookUps.append(id)
            }
        }
        // Answered kept, and no longer in the spool: written, unless the stop came between.
        lookUps += results.kept.filter { spooled[$0] == nil }
        if !lookUps.isEmpty { logger.notice("requests of the last run: looking for their signatures", metadata: ["count": "\(lookUps.count)"]) }
        exporter.lookUp(lookUps)
    }

    /// An export's result: the answer of the request under way, or news of an earlier one.
    private func exportResult(_ result: Exporter.Result) {
        guard let active, active.confirmed, result.recordID == active.id, !result.lookedUp else {
            settle(result)
            return
        }
        let stored: RequestResult.Stored = result.error == nil ? .saved : result.spooled ? .kept : .held
        let files = result.files.map { RequestResult.File(name: $0.name, bytes: $0.bytes, sha256: $0.sha256) }
        let documentName = "\(active.id).\(SignatureEncoder.documentSuffix)"
        if let exportFolder, files.contains(where: { $0.name == documentName }) {
            self.active?.result.documentPath = (exportFolder.hasSuffix("/") ? exportFolder : exportFolder + "/") + documentName
        }
        finish(.signed, reason: result.error.map { "not in the export folder yet: \($0)" }, stored: stored, files: files,
               image: active.returnImage ? result.image : nil)
    }

    private func finish(_ status: RequestResult.Status, reason: String?, stored: RequestResult.Stored? = nil,
                        files: [RequestResult.File]? = nil, image: [UInt8]? = nil) {
        guard let active else { return }
        self.active = nil
        var result = active.result
        result.confirmed = nil
        result.status = status
        result.reason = reason
        result.stored = stored
        result.files = files
        result.endedAt = time.wall()
        let ticket = record(result)
        logger.info("request ended", metadata: ["request": "\(active.id)", "status": "\(status.rawValue)", "stored": "\(stored?.rawValue ?? "-")"])
        guard let call = active.call else { return }
        var answer = result.parameters
        if let image { answer["image"] = .string(Data(image).base64EncodedString()) }
        // Sent once the book holds it, so that GetResult after a crash says what the answer said.
        endings.append((ticket, call, answer, false))
    }

    /// Sends the final answers whose results the book now holds (all of them, with `all`).
    private func sendEndings(all: Bool = false) {
        let through = all ? Int.max : results.writtenThrough
        while let first = endings.first, first.ticket <= through {
            endings.removeFirst()
            server.reply(first.call, first.answer, continues: first.continues)
        }
    }

    /// A result for a request that was answered (or left unsettled by a stop) before its
    /// signature was written: the book then says where the signature is now.
    private func settle(_ result: Exporter.Result) {
        guard let entry = results.result(result.recordID) else { return }
        let files = result.files.map { RequestResult.File(name: $0.name, bytes: $0.bytes, sha256: $0.sha256) }
        let now = time.wall()
        do {
            switch (entry.status, entry.stored) {
            case (nil, _) where result.error == nil:
                try results.settle(result.recordID, kept: false, files: files, now: now)
            case (nil, _) where result.lookedUp:
                try results.failUnsettled(result.recordID, now: now)
            case (nil, _) where result.spooled:
                try results.settle(result.recordID, kept: true, files: files, now: now)
            case (.signed?, .kept?) where result.lookedUp && result.error != nil:
                logger.error("a signature answered kept is neither in the spool nor in the export folder",
                             metadata: ["request": "\(result.recordID)", "reason": "\(result.error ?? "")"])
            case (.signed?, .kept?) where result.error == nil:
                var saved = entry
                saved.stored = .saved
                saved.reason = nil
                saved.files = files
                try results.record(saved, now: now)
            default:
                break
            }
        } catch {
            reportBook(error)
        }
    }

    /// Records `result`; returns its ticket (0 when it could not be recorded: nothing to wait for).
    @discardableResult
    private func record(_ result: RequestResult) -> Int {
        do { return try results.record(result, now: time.wall()) } catch {
            reportBook(error)
            return 0
        }
    }

    private func reportBook(_ error: RequestResultsError) {
        logger.error("request results not kept", metadata: ["path": "\(results.path)", "reason": "\(error.reason)"])
    }
}
