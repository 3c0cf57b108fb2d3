import FoundationEssentials
import SignpadExport
import SignpadInk
import SignpadInput
import SignpadKiosk
import SignpadOutbox
import SignpadVocabulary

/// One kiosk on one display: input events in, pixels and exports out. The daemon and the
/// offscreen replay both drive this, through the same input pipeline, so what a recording shows
/// is what the panel shows.
public final class Session: InputSink {
    public let options: SessionOptions
    private let time: TimeSource
    public let display: Display
    public let exporter: Exporter
    // The properties an input event touches skip the run-time exclusivity check each access to a
    // class's property otherwise makes (a tenth of an event's instructions): a session is driven
    // from one thread, and what runs while one of them is modified (the kiosk's rules, the
    // renderer, the smoothers, the predictor) is value code that cannot reach the session. The
    // input pipeline's callbacks come back into the session: it is entered only by `withInput`,
    // which traps on re-entry as the run-time check would, for a fraction of its cost.
    @exclusivity(unchecked) public private(set) var kiosk: Kiosk
    @exclusivity(unchecked) public private(set) var renderer: InkRenderer
    /// The devices read, their decoders and the arbiter between them.
    public var input: InputPipeline {
        precondition(!inputEntered, "the input pipeline was read from its own callback")
        return inputPipeline
    }
    @exclusivity(unchecked) private var inputPipeline = InputPipeline()
    @exclusivity(unchecked) private var inputEntered = false
    /// The device of the last stroke event, for what the journal says of the panel.
    @exclusivity(unchecked) private var lastDevice = ""
    /// Move events drawn, for the daemon's latency figures.
    @exclusivity(unchecked) public private(set) var movesDrawn = 0
    /// A device the daemon cannot keep up with drops events again and again.
    private var droppedEvents = RepeatedMessage(interval: 60)
    /// Counters for the latency report.
    @exclusivity(unchecked) public private(set) var inkEvents = 0
    @exclusivity(unchecked) public private(set) var inkBytes = 0
    /// How many signatures were written, and the last export failure seen: counts, not lists,
    /// as the daemon runs for months.
    public private(set) var savedCount = 0
    public private(set) var lastFailure: String?

    public enum RequestEvent: Equatable, Sendable {
        case progress(id: String, KioskRequestProgress)
        case ended(id: String, KioskRequestEnd)
    }

    /// What the session tells whoever drives it, in order (`takeEvents`).
    public enum Event: Sendable {
        /// What the customer did during a request, and how it ended.
        case request(RequestEvent)
        /// An export's result, written or not (a write that hangs, as a failure), or a look-up's.
        case exportResult(Exporter.Result)
        /// Something for the journal, at its level.
        case notice(Notice)
    }
    /// Room is kept, so that a request's progress told on a touch event does not allocate.
    @exclusivity(unchecked) private var events: [Event] = []
    private static let eventCapacity = 16
    /// A folder that stays unwritable fails every `retry_seconds`: said once, then every ten minutes.
    private var journal: ExportJournal

    @exclusivity(unchecked) private var smoother: MidpointSmoother
    private let painter: any ScreenPainter
    /// The furniture on the screen, and its buttons' pictures.
    private var chrome = ShownChrome()
    @exclusivity(unchecked) private var dirty = DirtyRegion()
    /// Reused for every touch event so the hot path does not allocate.
    @exclusivity(unchecked) private var effects: [KioskEffect] = []
    /// Each stroke's dry pieces and where it could have put ink, in the kiosk's order of its
    /// strokes: taking strokes away clears only there and draws again only what meets it.
    @exclusivity(unchecked) private var kept = KeptInk()
    /// Where the contact will be a moment ahead: drawn at the end of the wet tail, on screen only.
    @exclusivity(unchecked) private var predictor: InkPredictor
    /// What the input pipeline told during events, logged by `tick`: a line made on the touch
    /// event would allocate there.
    @exclusivity(unchecked) private var notices: [InputNotice] = []
    /// What the kiosk asked of the input (a touch given up), for the pipeline to obey once the
    /// call under way returns: after the event fed, or after a request's begin or cancel, or `tick`.
    @exclusivity(unchecked) private var inputCommand: InputCommand?
    /// Wall-clock time minus sample time, taken at the signature's first sample: the capture
    /// start is then that of its first stroke left, should the first ones be taken away.
    @exclusivity(unchecked) private var wallClockOffset: Double?
    /// A write running this long is shown to staff as a failure until it returns.
    var stalledWriteSeconds = 30.0
    /// The signature whose hanging write staff have been told of.
    private var reportedStall: String?
    /// Whether the journal has been told that the folder's preparation hangs.
    private var reportedPreparationStall = false
    /// Where signatures wait while the folder does not answer.
    /// The document the request under way goes into, by the request's id: it joins the record
    /// its Done makes, and nothing else.
    private var requestDocument: (id: String, document: SignedDocument)?
    /// Draws a request's document for the customer to read; nil: no document is shown.
    private let pages: (any PageSource)?
    /// The page of the document under review, as drawn; nil while it is drawn.
    private var reviewPage: (page: Int, canvas: Canvas)?
    private var keptWhere: String { exporter.spoolDirectory.map { "kept in the spool \($0)" } ?? "held in memory" }

    /// `time`: where the capture's wall-clock times are read.
    /// `pages`: what draws a request's document for review.
    public init(_ options: SessionOptions, display: Display, exporter: Exporter, painter makePainter: MakeScreenPainter, time: TimeSource = .system,
                pages: (any PageSource)? = nil) throws {
        self.options = options
        self.pages = pages
        self.time = time
        self.display = display
        self.exporter = exporter
        journal = ExportJournal(directory: exporter.directory, retrySeconds: exporter.retrySeconds)
        let width = display.scanout.logicalWidth, height = display.scanout.logicalHeight
        try KioskLayout.requireRoom(width: width, height: height)
        let layout = KioskLayout(width: width, height: height, undo: !options.kiosk.labels.undo.isEmpty)
        kiosk = Kiosk(layout: layout, rules: options.kiosk.rules)
        smoother = MidpointSmoother(options: options.ink.pen)
        predictor = InkPredictor(horizon: options.ink.predictMilliseconds / 1000)
        painter = try makePainter(width, height)
        // Black, a memset, cheaper than a fill of white: the first paint below covers all of it.
        renderer = InkRenderer(background: Canvas(width: width, height: height, fill: 0), inkColor: options.ink.color, clip: layout.box.insetBy(2))
        effects.reserveCapacity(16)
        events.reserveCapacity(Self.eventCapacity)
        notices.reserveCapacity(16)
        repaintChrome(whole: true)
        renderer.present(DirtyRegion([renderer.canvas.bounds]), on: display)
    }

    /// What happened since the last take, in order: taken after each call that drives the
    /// session (input, a request's begin or cancel, `tick`), so that each reaches the point of sale
    /// and the daemon before the next call does.
    public func takeEvents() -> [Event] {
        guard !events.isEmpty else { return [] }
        let taken = events
        events = []
        events.reserveCapacity(Self.eventCapacity)
        return taken
    }

    /// Reads a device from now on (see `InputPipeline.add`); returns its index for `feed`.
    @discardableResult
    public func addInput(path: String, name: String, kind: DeviceKind, decoder: consuming ContactDecoder) -> Int {
        surfaceDensities[name] = decoder.mapping.surfaceDensity
        let added = decoder
        return withInput { $0.add(path: path, name: name, kind: kind, decoder: added) }
    }

    /// Each device's screen pixels per millimetre of its surface, by the name strokes carry.
    private var surfaceDensities: [String: PixelDensity] = [:]

    /// One raw event of input device `index`; `now` is monotonic seconds.
    public func feed(_ event: InputEvent, from index: Int, now: Double) {
        withInput { $0.feed(event, from: index, now: now, into: self) }
    }

    /// The only way into the input pipeline: its callbacks must not enter it again.
    @inline(__always)
    private func withInput<R>(_ body: (inout InputPipeline) -> R) -> R {
        precondition(!inputEntered, "the input pipeline was entered again from its own callback")
        inputEntered = true
        defer { inputEntered = false }
        return body(&inputPipeline)
    }

    /// Ends what is in progress on input device `index` (the end of a recording).
    public func finishInput(_ index: Int, now: Double) { withInput { $0.finish(index, now: now, into: self) } }

    /// Device `path` is gone; a stroke of its in progress ends at its last sample.
    public func removeInput(_ path: String, now: Double) { withInput { $0.remove(path, now: now, into: self) } }

    /// Forgets every device (the display they map to is gone).
    public func removeAllInputs() { withInput { $0.removeAll() } }

    /// One stroke event of the device `device`; `now` is monotonic seconds.
    public func handle(_ event: StrokeEvent, device: String, now: Double) {
        if lastDevice != device { lastDevice = device }
        // Taken out while applied, not passed from the property, which retains it for the call.
        var made: [KioskEffect] = []
        swap(&made, &effects)
        defer { swap(&made, &effects) }
        made.removeAllKeepingStorage()
        kiosk.handle(event, device: device, now: now, into: &made)
        apply(made, now: now)
    }

    /// A pen near the glass is at `point`: one that moves is a customer still at the pad (see
    /// `Kiosk.penHovers`).
    public func penHovers(at point: Point, now: Double) { kiosk.penHovers(at: point, now: now) }

    public func takeInputCommand() -> InputCommand? {
        defer { inputCommand = nil }
        return inputCommand
    }

    public func inputNotice(_ notice: InputNotice, now: Double) {
        // Past the room kept, a flood is dropped rather than allocated for.
        if notices.count < notices.capacity { notices.append(notice) }
    }

    /// Tells the journal (see `takeEvents`).
    private func tell(_ notice: Notice) { events.append(.notice(notice)) }

    private func tell(_ notice: InputNotice, now: Double) {
        switch notice {
        case .eventsDropped(let path):
            let dropped = Notice(.warning, "the kernel dropped events (SYN_DROPPED); the stroke ends at its last good sample", ["device": path])
            if let told = droppedEvents.notice(dropped, now: now) { tell(told) }
        case .penTookBackTouch(let path, let landed):
            tell(Notice(.info, "the pen \(landed ? "landed" : "came near") during a touch: the touch is taken back", ["device": path, "why": "a resting hand"]))
        case .touchTakenBack(let path):
            tell(Notice(.info, "a touch is taken back, its ink no part of the signature", [
                "device": path, "why": "it lay still while another finger wrote (a hand resting, or water), or the panel called it a palm",
            ]))
        case .touchBesidePutDownPen(let path):
            tell(Notice(.info, "a touch draws though a pen is near: the pen lies still, put down", [
                "device": path, "still_seconds": "\(Int(InputArbiter.restingSeconds))",
            ]))
        case .positionNeverMoves(let path, let axes):
            tell(Notice(.warning, "touches never move on the axes signpad reads: nothing is drawn; see `signpad devices`", [
                "device": path, "read": "ABS_X and ABS_Y, or ABS_MT_POSITION_X and ABS_MT_POSITION_Y", "moving": axes.joined(separator: ", "),
                "remedy": "check the kernel driver, or set input.device to another device",
            ]))
        case .touchLetGo(let path):
            tell(Notice(.info, "a touch down and still at the idle timeout is let go of; the next finger is followed", [
                "device": path, "idle_timeout": "\(options.kiosk.rules.idleTimeout)", "why": "a customer gone, or water or dirt on the glass",
            ]))
        }
    }

    /// Maps every page of the ink's levels now (`InkRenderer.makeLevelsResident`): the session
    /// of a kiosk that has taken signatures all over its box, whose ink finds its pages mapped.
    public func makeInkLevelsResident() { renderer.makeLevelsResident() }

    /// Time passes (see `Kiosk.tick`).
    public func tick(now: Double) {
        kept.reserveRoom()
        let timed = kiosk.tick(now: now)
        apply(timed, now: now)
        for page in pages?.drawn() ?? [] { show(page, now: now) }
        // A touch the kiosk gave up (its idle timeout) is let go of by its device, and told below.
        withInput { $0.obeyCommands(now: now, from: self) }
        for notice in notices { tell(notice, now: now) }
        notices.removeAll(keepingCapacity: true)
        for result in exporter.results() {
            events.append(.exportResult(result))
            // An answer about a signature written before this start, for the point of sale only.
            if result.lookedUp { continue }
            for notice in journal.notices(for: result, now: now) { tell(notice) }
            if let error = result.error {
                lastFailure = error
            } else {
                savedCount += 1
            }
            apply(kiosk.exportFinished(result.exportID, error: result.error, now: now), now: now)
        }
        // And what the export results' effects asked for.
        defer { withInput { $0.obeyCommands(now: now, from: self) } }
        switch exporter.stall(longerThan: stalledWriteSeconds) {
        case .preparing? where !reportedPreparationStall:
            // Said before any customer's signature waits on it: whoever reads the journal learns of a dead share at boot, not from a customer.
            reportedPreparationStall = true
            tell(Notice(.warning, "the export folder does not answer; signatures are kept until it does", [
                "folder": exporter.directory, "seconds": "\(Int(stalledWriteSeconds))", "kept": keptWhere, "why": "a network share whose server is down?",
            ]))
        case .signature(let exportID, let recordID, let files, let spooled)? where recordID != reportedStall:
            reportedStall = recordID
            let reason = "\(exporter.directory): no answer for \(Int(stalledWriteSeconds)) s"
            tell(Notice(.warning, "an export has not returned; still waiting, signatures kept", [
                "signature": recordID, "folder": exporter.directory, "seconds": "\(Int(stalledWriteSeconds))", "kept": keptWhere,
                "why": "a network share that stopped answering?",
            ]))
            lastFailure = reason
            events.append(.exportResult(Exporter.Result(exportID: exportID, recordID: recordID, error: reason, files: files, spooled: spooled)))
            apply(kiosk.exportFinished(exportID, error: reason, now: now), now: now)
        default:
            break
        }
    }

    /// No signature is taken from now (see `Kiosk.takeOutOfService`).
    public func takeOutOfService(_ reason: String, now: Double) {
        apply(kiosk.takeOutOfService(reason, now: now), now: now)
    }

    /// Shows a point of sale's request (see `Kiosk.beginRequest`); `id` names its signature.
    /// `timeout` nil: the kiosk's default (`RequestRules.defaultTimeout`). With `review`, the
    /// customer reads `document` first.
    public func beginRequest(id: String, context: SignatureRequest, timeout: Double?, now: Double, document: SignedDocument? = nil,
                             review: DocumentReview? = nil) {
        requestDocument = document.map { (id, $0) }
        reviewPage = nil
        let timeout = timeout ?? RequestRules.defaultTimeout(idleTimeout: kiosk.rules.idleTimeout)
        let shown = KioskRequest(id: id, context: context, lineRows: requestRows(context.lines), timeout: timeout, review: document == nil ? nil : review)
        apply(kiosk.beginRequest(shown, now: now), now: now)
        obeyInput(now: now, cause: "a request began under it")
    }

    /// The rows each of a request's lines takes on this screen, long ones wrapping.
    public func requestRows(_ lines: [String]) -> [Int] {
        let base = kiosk.baseLayout
        let size = base.lineTextSize
        return lines.map { max(painter.textRows($0, width: base.prompt.width, size: size), 1) }
    }

    /// Ends the request on screen unsaved: its events end with `.cancelled`.
    public func cancelRequest(now: Double) {
        apply(kiosk.cancelRequest(now: now), now: now)
        obeyInput(now: now, cause: "the request under it was cancelled")
    }

    /// Has the input obey what the kiosk asked of it outside an event, and tells the journal now
    /// why a touch was let go of (the notice says the idle timeout when `tick` logs it).
    private func obeyInput(now: Double, cause: String) {
        withInput { $0.obeyCommands(now: now, from: self) }
        for (index, notice) in notices.enumerated().reversed() {
            guard case .touchLetGo(let path) = notice else { continue }
            tell(Notice(.info, "a touch is let go of; the next finger to land is followed", ["device": path, "why": cause]))
            notices.remove(at: index)
        }
    }

    /// Confirms as the Done button does (the end of a replay).
    public func confirm(now: Double) { apply(kiosk.confirm(now: now), now: now) }

    public var nextDeadline: Double { kiosk.nextDeadline() }

    /// Wipes ink and messages: nothing of a signature stays on screen at exit.
    public func blank() {
        dirty.removeAll()
        smoother.reset()
        renderer.clearInk(dirty: &dirty)
        renderer.present(dirty, on: display)
    }

    /// One stroke event through the smoother, the predictor and the renderer.
    private func draw(_ event: StrokeEvent, now: Double) {
        if case .down(let sample) = event {
            if kiosk.signature.strokes.count == 1 {
                wallClockOffset = time.wall() - max(now - sample.time, 0) - sample.time
                kept.removeAll()
            }
            kept.beginStroke()
        }
        var step = SmootherStep()
        smoother.handle(event, into: &step)
        switch event {
        case .down(let sample):
            reachOfThisStroke(sample.point)
            predictor.reset()
            predictor.add(sample)
        case .move(let sample):
            reachOfThisStroke(sample.point)
            predictor.add(sample)
            // Ahead of the newest sample, as part of the wet tail: replaced at the next
            // event, gone at the lift, never in the signature.
            if let ahead = predictor.predicted(), step.wet.extendAhead(to: ahead) { reachOfThisStroke(ahead) }
        default: break
        }
        kept.add(step.dry)
        renderer.apply(step, dirty: &dirty)
        inkEvents += 1
        if case .move = event { movesDrawn += 1 }
    }

    private func apply(_ effects: [KioskEffect], now: Double) {
        guard !effects.isEmpty else { return }
        dirty.removeAll()
        var drewInk = false
        for index in effects.indices {
            switch effects[index] {
            case .ink(let event):
                drewInk = true
                draw(event, now: now)
            case .clearInk:
                smoother.reset()
                // The kiosk has forgotten the signature: its curves go too.
                kept.removeAll()
                renderer.clearInk(dirty: &dirty)
            case .redrawInk(let removed):
                var reach = InkReach()
                for index in removed.reversed() { reach.add(kept.removeStroke(at: index)) }
                takeBack(reach)
            case .withdrawInk:
                takeBack(kept.removeLastStroke())
            case .save(let signature, let devices, let exportID, let request):
                exporter.submit(record(for: signature, devices: devices, request: request, now: now), exportID: exportID)
            case .repaintChrome:
                repaintChrome()
            case .sleep(let off):
                display.setAsleep(off)
                tell(off ? Notice(.info, "the screen is off until the next touch", ["idle_seconds": "\(options.kiosk.rules.sleepAfter)"])
                         : Notice(.info, "a touch: the screen is on"))
            case .letGoOfTouch:
                // The input obeys after the event being fed, or after this call (`obeyCommands`).
                inputCommand = .letGoOfTouch
            case .layoutChanged:
                if kiosk.review == nil { reviewPage = nil }
                renderer.clip = kiosk.layout.box.insetBy(2)
                repaintChrome(whole: true)
            case .pageWanted(let id, let page):
                reviewPage = nil
                if let pages, let pending = requestDocument, pending.id == id {
                    pages.draw(pending.document.bytes, page: page, width: kiosk.reviewLayout.page.width, for: id)
                } else {
                    // Handled after this list: the request ends as the effects it makes are applied.
                    missingPages = id
                }
            case .reviewScrolled:
                repaintPage()
            case .reviewChanged:
                repaintChrome()
            case .requestProgress(let id, let progress):
                events.append(.request(.progress(id: id, progress)))
            case .requestEnded(let id, let end):
                // Unsigned, its document goes now, not at the next request.
                if case .signed = end {} else if requestDocument?.id == id { requestDocument = nil }
                reviewPage = nil
                events.append(.request(.ended(id: id, end)))
            case .flickerHeld(let place):
                tell(Notice(.notice, "touches keep landing and lifting in one place: while nobody signs they do nothing", [
                    "device": lastDevice, "at": "\(Int(place.x)),\(Int(place.y))", "why": "water or dirt on the glass?",
                ]))
            }
        }
        if drewInk { inkBytes += dirty.area * 4 }
        renderer.present(dirty, on: display)
        if let id = missingPages {
            missingPages = nil
            show(DrawnPage(id: id, page: kiosk.review?.page ?? 0, outcome: .failed("this kiosk has nothing to draw a document's pages with")), now: now)
        }
    }

    /// A request asked for a page with nothing to draw it.
    private var missingPages: String?

    /// A page drawn for the request under review: shown, and kept in its record, if it is still
    /// the page the customer is on.
    private func show(_ drawn: DrawnPage, now: Double) {
        guard let request = kiosk.request, request.id == drawn.id, let review = request.review, review.page == drawn.page else { return }
        var outcome = drawn.outcome
        // Pages the renderer shows and signpad never counted would be signed unread.
        if case .drawn(_, _, _, _, let pages) = outcome, pages != review.pageCount {
            outcome = .failed("the renderer finds \(pages) pages where signpad finds \(review.pageCount)")
        }
        switch outcome {
        case .failed(let reason):
            tell(Notice(.warning, "a document cannot be shown; the request fails", ["request": drawn.id, "page": "\(drawn.page + 1)", "reason": reason]))
            apply(kiosk.reviewFailed("page \(drawn.page + 1) of the document cannot be shown: \(reason)", now: now), now: now)
            obeyInput(now: now, cause: "the request under it failed")
        case .drawn(let canvas, let scale, let sha256, let renderer, _):
            reviewPage = (drawn.page, canvas)
            tell(Notice(.info, "a document's page is shown", ["request": drawn.id, "page": "\(drawn.page + 1)", "sha256": sha256]))
            if requestDocument?.id == drawn.id {
                var shown = requestDocument?.document.review ?? ShownDocument(renderer: renderer)
                if !shown.pages.contains(where: { $0.page == drawn.page + 1 }) {
                    shown.pages.append(.init(page: drawn.page + 1, width: canvas.width, height: canvas.height, scale: scale, sha256: sha256))
                }
                requestDocument?.document.review = shown
            }
            apply(kiosk.pageDrawn(drawn.page, height: canvas.height, now: now), now: now)
        }
    }

    /// Widens the stroke being drawn's reach to `point`.
    private func reachOfThisStroke(_ point: Point) { kept.reach(point) }

    /// Takes strokes off the screen (a withdrawn resting hand's dot, strokes undone or erased):
    /// only where their ink could `reach` is cleared, and the pieces of the strokes left that
    /// meet it are drawn again as they were drawn (see `InkRenderer.clearInk(in:)`). A dot costs
    /// its own few pixels, not the whole signature.
    private func takeBack(_ reach: InkReach) {
        smoother.reset()
        let margin = options.ink.pen.width.maximum + 2
        guard let rect = reach.rect(margin: margin) else { return }
        let cleared = renderer.clearInk(in: rect, dirty: &dirty)
        guard !cleared.isEmpty else { return }
        // The dry pieces as they were drawn, without the wet tails in between, which would only
        // raise pixels and take them back.
        kept.forEachPiece(meeting: cleared, margin: margin) { renderer.redrawDry($0, within: cleared, dirty: &dirty) }
    }

    private static func inFirstUseOrder(_ names: [String]) -> [String] {
        var seen = Set<String>()
        return names.filter { seen.insert($0).inserted }
    }

    private func record(for signature: Signature, devices: [String], request: KioskRequest?, now: Double) -> SignatureRecord {
        let first = signature.strokes.first?.first?.time ?? now
        let last = signature.strokes.last?.last?.time ?? now
        let start = wallClockOffset.map { $0 + first } ?? time.wall()
        var record = SignatureRecord(id: request?.id ?? SignatureEncoder.newID(at: start), signature: signature, startedAt: start,
                                     endedAt: start + (last - first),
                                     device: SignatureRecord.deviceLabel(Self.inFirstUseOrder(devices)),
                                     screenWidth: renderer.canvas.width, screenHeight: renderer.canvas.height, settings: CaptureSettings(kiosk: options.kioskName, inkColor: options.ink.color, pen: options.ink.pen),
                                     inkArea: renderer.clip, request: request?.context, pixelDensity: display.scanout.pixelDensity)
        if let first = devices.first, let density = surfaceDensities[first] {
            record.inputDensity = InputDensity(device: SignatureRecord.deviceLabel([first]), density: density)
        }
        if let request, let pending = requestDocument, pending.id == request.id {
            record.document = pending.document
            requestDocument = nil
        }
        return record
    }

    private func repaintChrome(whole: Bool = false) {
        let items = KioskScreen.items(kiosk: kiosk, labels: options.kiosk.labels, style: options.kiosk.style)
        if let review = kiosk.review {
            let layout = kiosk.reviewLayout, page = reviewPage
            let changing = whole ? [renderer.canvas.bounds] : [layout.prompt, layout.page] + layout.buttonPlaces
            renderer.repaintBackground(changed: changing, dirty: &dirty) { [painter] canvas, rects in
                painter.paint(items, into: &canvas, within: rects)
                Self.draw(page, of: review, layout: layout, into: &canvas, within: rects)
            }
            chrome.painted(items)
            return
        }
        guard !whole else {
            renderer.repaintBackground(changed: [renderer.canvas.bounds], dirty: &dirty) { [painter] canvas, rects in
                painter.paint(items, into: &canvas, within: rects)
                chrome.keepButtons(of: items, from: canvas)
                // Each button's other state too, painted and taken before the first press needs it.
                let others = chrome.otherStatesToKeep(of: items)
                // A button that stands alone is all there is in its rectangle: painted by itself,
                // no other text is laid out for it.
                for other in others {
                    painter.paint([other], into: &canvas, within: [other.rect])
                    chrome.keepButtons(of: [other], from: canvas)
                }
                for item in items where others.contains(where: { $0.rect == item.rect }) {
                    chrome.picture(of: item)?.draw(into: &canvas, at: (item.rect.minX, item.rect.minY))
                }
            }
            chrome.painted(items)
            return
        }
        chrome.change(to: items)
        guard !chrome.changed.isEmpty else { return }
        renderer.repaintBackground(changed: chrome.changed, dirty: &dirty) { [painter, chrome] canvas, _ in
            if !chrome.toPaint.isEmpty { painter.paint(items, into: &canvas, within: chrome.toPaint) }
            for (rect, picture) in chrome.toDraw { picture.draw(into: &canvas, at: (rect.minX, rect.minY)) }
        }
    }
}

extension PixelRect {
    func insetBy(_ d: Int) -> PixelRect { PixelRect(minX: minX + d, minY: minY + d, maxX: maxX - d, maxY: maxY - d) }
}

extension Session {
    /// The page under review moved: only the page is drawn again.
    private func repaintPage() {
        guard let review = kiosk.review else { return }
        let layout = kiosk.reviewLayout, page = reviewPage
        renderer.repaintBackground(changed: [layout.page], dirty: &dirty) { canvas, rects in
            Self.draw(page, of: review, layout: layout, into: &canvas, within: rects)
        }
    }

    /// Grey where no page is (below its foot, or while it is drawn).
    static let deskColour: UInt32 = 0xD8D8D8
    /// The field the signature goes in, outlined on its page.
    static let fieldColour: UInt32 = 0x1565C0

    /// The page scrolled by the review's offset into the layout's page rectangle, and the
    /// signature field outlined on it, inside `rects` only.
    static func draw(_ page: (page: Int, canvas: Canvas)?, of review: DocumentReview, layout: ReviewLayout, into canvas: inout Canvas,
                     within rects: [PixelRect]) {
        let view = layout.page
        for rect in rects {
            let area = rect.intersection(view)
            guard !area.isEmpty else { continue }
            canvas.fill(area, with: deskColour)
            guard let page, page.page == review.page else { continue }
            let shown = page.canvas
            let columns = min(area.maxX, view.minX + shown.width) - area.minX
            guard columns > 0 else { continue }
            canvas.pixels.withUnsafeMutableBufferPointer { to in
                shown.pixels.withUnsafeBufferPointer { from in
                    for y in area.minY..<area.maxY {
                        let row = y - view.minY + review.offset
                        guard row >= 0, row < shown.height else { continue }
                        let source = from.baseAddress! + row * shown.stride + (area.minX - view.minX)
                        (to.baseAddress! + y * canvas.stride + area.minX).update(from: source, count: columns)
                    }
                }
            }
            guard let field = layout.fieldOutline(review, pageWidth: shown.width, pageHeight: shown.height) else { continue }
            let thick = 3
            for side in [PixelRect(minX: field.minX - thick, minY: field.minY - thick, maxX: field.maxX + thick, maxY: field.minY),
                         PixelRect(minX: field.minX - thick, minY: field.maxY, maxX: field.maxX + thick, maxY: field.maxY + thick),
                         PixelRect(minX: field.minX - thick, minY: field.minY, maxX: field.minX, maxY: field.maxY),
                         PixelRect(minX: field.maxX, minY: field.minY, maxX: field.maxX + thick, maxY: field.maxY)] {
                canvas.fill(side.intersection(area), with: fieldColour)
            }
        }
    }
}
