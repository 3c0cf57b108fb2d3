import SignpadVocabulary

/// The rules of the screen, without any device: what a touch means, when a signature is
/// accepted, when the screen is wiped.
public struct KioskRules: Equatable, Sendable {
    /// Total ink length (px) a signature needs.
    public var minInkLength: Double = 60
    /// The larger side of the ink's bounding box (px) a signature needs.
    public var minInkExtent: Double = 30
    /// Seconds without activity after which an unconfirmed signature is wiped, and a touch still
    /// down is let go of (0: never). Activity is a touch landing, lifting, or moving more than
    /// `FlickerGuard.radius` (jitter is none), but not a phantom's (see `FlickerGuard`), and a pen
    /// above the glass moving as far (see `Kiosk.penHovers`).
    public var idleTimeout: Double = 60
    /// Seconds without a touch (nor a pen moving above the glass) after which the screen is
    /// switched off while nobody is at the pad and no staff message shows (0: never). A touch
    /// switches it on and draws nothing.
    public var sleepAfter: Double = 0
    /// Seconds the "Saved" confirmation stays.
    public var savedSeconds: Double = 2
    /// Seconds a hint stays.
    public var hintSeconds: Double = 3
    /// A double tap outside the box confirms, as Done does, once `doubleTapSeconds` have passed
    /// with no touch landing: water making and breaking contact at one place taps on and on, and
    /// never confirms, where a finger taps twice and stops.
    public var doubleTapConfirms = false
    /// The longest a tap lasts, the longest between the two taps, and the quiet after them.
    public var doubleTapSeconds = 0.4
    /// How near the first tap the second must land (px): a finger tapping twice lands within
    /// about a centimetre, where two stray touches (a sleeve, a palm's edge, two drops of water)
    /// land anywhere, and would otherwise confirm a signature half written.
    public var doubleTapRadius = 40.0
    /// What a pen's eraser end takes away.
    public var eraser = StrokeEraser()
    /// The widest the ink is drawn (px): the eraser reaches its edge.
    public var inkWidth = 4.0
    /// Walk-up, or only on a point of sale's request (see `KioskMode`).
    public var mode = KioskMode.walkUp
    /// A request shows a button that declines it.
    public var offersDecline = false

    public init() {}
}

/// What the kiosk shows besides ink.
public enum KioskMessage: Equatable, Sendable {
    case none
    case tooLittleInk
    case saving
    case saved
    /// For staff: the export failed and is being retried; the reason says why.
    case saveFailed(String)
}

/// What the daemon must do after a kiosk event.
public enum KioskEffect: Equatable, Sendable {
    /// Send this stroke event to the smoother and renderer.
    case ink(StrokeEvent)
    /// Wipe all ink from the screen.
    case clearInk
    /// Hand this signature to the exporter; it reports back with `exportFinished`.
    /// `devices`: each stroke's device, as `Kiosk.strokeDevices`.
    /// `request`: the request it was signed for, whose id names it and whose context its record keeps.
    /// Boxed: inline, the request makes every effect hundreds of bytes, each `ink` of them copied
    /// that much on every touch event.
    indirect case save(Signature, devices: [String], exportID: Int, request: KioskRequest?)
    /// Buttons or message changed: repaint the screen's furniture.
    case repaintChrome
    /// Switch the screen off (true) or on again (false).
    case sleep(Bool)
    /// The touch down now stayed still past the idle timeout (a customer gone, or water or dirt
    /// on the glass) and means nothing any more: stop following it, so the next finger that
    /// lands is followed while it stays down.
    case letGoOfTouch
    /// Touches keep landing and lifting at this place without moving, with nobody at the pad
    /// (water or dirt making and breaking contact, see `FlickerGuard`): they are held, drawing
    /// nothing, pressing nothing and waking nothing. Said once per place, for the journal.
    case flickerHeld(at: Point)
    /// Strokes were taken away (`StrokeEvent.withdraw`, or the pen's eraser end): `removed` are
    /// their indices in the signature as it was, ascending. Draw the signature's strokes anew.
    case redrawInk(removed: [Int])
    /// The stroke being drawn is taken back (a resting hand's): the signature without it is redrawn.
    case withdrawInk
    /// `Kiosk.layout` changed (a request's text came or went): the box and all around it move.
    case layoutChanged
    /// The customer did something a point of sale following the request hears of.
    case requestProgress(id: String, KioskRequestProgress)
    /// The request is over; after `.save` when signed, so the export is the request's.
    case requestEnded(id: String, KioskRequestEnd)
    /// The request's document is to show page `page` (from 0): draw it and say so (`pageDrawn`).
    case pageWanted(id: String, page: Int)
    /// The page under review scrolled: repaint the page.
    case reviewScrolled
    /// The review's page, prompt or buttons changed: repaint them.
    case reviewChanged
}

/// The kiosk state machine.
public struct Kiosk: Sendable {
    /// Where things are now: `baseLayout`, or a request's with its text.
    public private(set) var layout: KioskLayout
    /// The screen without a request.
    public let baseLayout: KioskLayout
    /// The screen a request's document is reviewed on.
    public let reviewLayout: ReviewLayout
    public let rules: KioskRules
    /// The point of sale's request shown now.
    public private(set) var request: KioskRequest?
    public private(set) var message = KioskMessage.none
    public private(set) var pressedButton: KioskLayout.Button?
    /// The signature being written now.
    public private(set) var signature = Signature()
    /// The device of each stroke of `signature`, in its order: the record names the devices a
    /// signature was written with. Kept here, where strokes come and go, so it cannot drift.
    public private(set) var strokeDevices: [String] = []
    /// The device of the stroke event being handled.
    private var device = ""
    /// Exports handed out and not yet written.
    public private(set) var pendingExports: Set<Int> = []
    /// The screen is off (see `KioskRules.sleepAfter`).
    public private(set) var asleep = false
    /// Why no signature is taken now, for staff (see `takeOutOfService`); nil: they are.
    public private(set) var outOfService: String?

    private var messageUntil = Double.infinity
    private var clocks: ActivityClocks
    private var nextExportID = 1
    /// What the finger down now is. An outside touch keeps its last sample: should it enter the
    /// box, the ink starts there, so the line crosses the box's edge.
    /// A touch that woke the screen means nothing else: someone reaching for a dark screen has not aimed.
    /// A pen's eraser end takes away the strokes its path touches, wherever it goes (never a button press).
    private enum Touch {
        case none, ink, button(KioskLayout.Button), outside(start: Double, origin: Point, last: Sample, moved: Bool), waking
        case erasing(last: Point)
        /// A finger dragging the page under review; `y` is where the page last followed it to.
        case scrolling(y: Double)
        /// A phantom's touch while nobody is at the pad (`FlickerGuard`): nothing, unless it
        /// moves away from where it landed, when it becomes the touch that landed there.
        case held(origin: Sample, since: Double)
    }
    private var touch = Touch.none
    private var doubleTap: DoubleTap
    /// When a double tap confirms, if no touch lands before (see `KioskRules.doubleTapConfirms`).
    public var doubleTapConfirmsAt: Double? { doubleTap.confirmsAt }
    private var flicker: FlickerGuard
    /// Where a pen above the glass was when it last counted as activity (see `penHovers`).
    private var hoverAnchor: Point?
    /// Empty strokes with room reserved: a finger that lands takes one instead of allocating on
    /// the touch event. Refilled by `tick`, between events.
    private var spareStrokes: [[Sample]] = []
    static let spareStrokeCount = 8
    /// Samples a spare stroke holds before it grows: 8 s of a 125 Hz panel.
    static let spareStrokeCapacity = 1024
    /// Strokes the signature holds before its list grows.
    static let strokeListCapacity = 64

    public init(layout: KioskLayout, rules: KioskRules = KioskRules()) {
        self.layout = layout
        baseLayout = layout
        self.rules = rules
        reviewLayout = ReviewLayout(width: layout.width, height: layout.height, decline: rules.offersDecline)
        // As long as either clock, so a phantom flickering slower could not hold it off either.
        flicker = FlickerGuard(memorySeconds: max(rules.idleTimeout, rules.sleepAfter))
        clocks = ActivityClocks(idleTimeout: rules.idleTimeout, sleepAfter: rules.sleepAfter)
        doubleTap = DoubleTap(seconds: rules.doubleTapSeconds, radius: rules.doubleTapRadius)
        reserveRoom()
    }

    /// Room for the next strokes, so drawing them does not allocate; a stroke being drawn that
    /// nears the end of its room gets more now, between events.
    private mutating func reserveRoom() {
        if signature.strokes.capacity < Self.strokeListCapacity { signature.strokes.reserveCapacity(Self.strokeListCapacity) }
        if strokeDevices.capacity < Self.strokeListCapacity { strokeDevices.reserveCapacity(Self.strokeListCapacity) }
        if case .ink = touch, let last = signature.strokes.indices.last,
           signature.strokes[last].count + Self.spareStrokeCapacity / 4 > signature.strokes[last].capacity {
            signature.strokes[last].reserveCapacity(signature.strokes[last].capacity * 2)
        }
        while spareStrokes.count < Self.spareStrokeCount {
            var stroke: [Sample] = []
            stroke.reserveCapacity(Self.spareStrokeCapacity)
            spareStrokes.append(stroke)
        }
    }

    public var hasInk: Bool { !signature.isEmpty }

    /// The document the customer reads now, before the signing screen.
    public var review: DocumentReview? { request?.review }

    /// Whether a document is being read, as every touch asks: by matching cases, as comparing the
    /// optionals (`review != nil`) takes `==` and makes the runtime build a tuple's type, an
    /// allocation, on the first touch.
    private var reviewing: Bool {
        guard case .some(let request) = request, case .some = request.review else { return false }
        return true
    }

    /// Nobody is at the pad: no ink, no finger down, and no "Saving" or "Saved" a customer is
    /// waiting to see. A staff message may show. The daemon reloads its configuration only then.
    public var isBetweenCustomers: Bool {
        guard !hasInk, request == nil, case .none = touch else { return false }
        return message != .saving && message != .saved
    }

    /// Appends what the event causes to a buffer the caller reuses, so a touch event allocates
    /// nothing. `device` names the device the event came from.
    public mutating func handle(_ event: StrokeEvent, device: String = "", now: Double, into effects: inout [KioskEffect]) {
        // Compared first: the same device's name is not retained again at every event.
        if self.device != device { self.device = device }
        // A phantom can hold a clock off only by landing again before it runs out; a person who
        // comes back to a spot after it ran out (to wake the screen, say) is activity.
        switch event {
        case .down(let sample):
            doubleTap.touchLanded()
            clocks.touchLanded(gap: flicker.land(at: sample.point, now: now))
            if asleep || clocks.idleIsUp(now: now) {
                // Judged by the clock that ran out. A phantom's: the screen stays as that clock left
                // it, blank; a person's: activity for both.
                guard asleep ? clocks.touchCounts.sleep : clocks.touchCounts.idle else {
                    touch = .held(origin: sample, since: now)
                    if let place = flicker.firstReport() { effects.append(.flickerHeld(at: place)) }
                    return
                }
                clocks.touchIsAPersons()
            }
            clocks.touchActs(now: now)
        case .move(let sample):
            let away = flicker.move(to: sample.point)
            if away {
                clocks.touchIsAPersons()
                clocks.activity(now: now)
            }
            if case .held(let origin, _) = touch {
                guard away else { return }
                // Someone landed where the phantom flickers and is signing or pressing after all.
                touch = .none
                act(on: .down(origin), now: now, into: &effects)
            }
        case .up, .cancel, .withdraw:
            // A withdrawal is no activity: the contact lies where it lay, and the finger that
            // writes or taps instead lands next.
            if flicker.lift(now: now) && event != .withdraw { clocks.touchActs(now: now) }
            if case .held = touch {
                touch = .none
                return
            }
        }
        act(on: event, now: now, into: &effects)
    }

    /// A pen near the glass is at `point` (hovering, or touching). A customer who pauses with the
    /// pen raised, as people do before a surname, is still at the pad: a pen that moves further
    /// than `StrokeEvent.stillRadius` is activity for both clocks, so their signature is not wiped
    /// under their hand. Coming near is none, and a pen that lies still near the glass (put down,
    /// or at the edge of its range and coming and going) is none either: it never keeps a signature
    /// on the screen for the next customer. Nor does a pen wake the screen: a touch does.
    public mutating func penHovers(at point: Point, now: Double) {
        guard let anchor = hoverAnchor else {
            hoverAnchor = point
            return
        }
        guard point.distance(to: anchor) > StrokeEvent.stillRadius else { return }
        hoverAnchor = point
        clocks.activity(now: now)
    }

    /// What the event does on screen, once `handle` has timed it.
    private mutating func act(on event: StrokeEvent, now: Double, into effects: inout [KioskEffect]) {
        if asleep {
            guard case .down = event else { return }
            wake(into: &effects)
            touch = .waking
            return
        }
        switch event {
        case .down where showsIdlePage:
            // Nobody is asked to sign: the touch means nothing, as one that woke the screen.
            touch = .waking
        case .down(let sample) where reviewing:
            // Reading, not signing: a finger on the page drags it, and draws nothing.
            if let button = button(at: sample.point) {
                touch = .button(button)
                pressedButton = button
                effects.append(.repaintChrome)
            } else {
                touch = reviewLayout.page.contains(x: Int(sample.point.x), y: Int(sample.point.y)) ? .scrolling(y: sample.point.y) : .waking
            }
        case .down(let sample) where sample.erasing:
            touch = .erasing(last: sample.point)
            erase(from: sample.point, to: sample.point, into: &effects)
        case .down(let sample):
            if let button = button(at: sample.point) {
                touch = .button(button)
                pressedButton = button
                effects.append(.repaintChrome)
            } else if layout.inBox(sample.point) {
                startInk(at: sample, now: now, into: &effects)
            } else {
                touch = .outside(start: now, origin: sample.point, last: sample, moved: false)
            }
        case .move(let sample):
            switch touch {
            case .erasing(let last):
                touch = .erasing(last: sample.point)
                erase(from: last, to: sample.point, into: &effects)
            case .ink:
                signature.strokes[signature.strokes.count - 1].append(sample)
                effects.append(.ink(event))
            case .scrolling(let y):
                // Whole rows, the rest kept for the next move: a slow drag still scrolls.
                let rows = Int(y - sample.point.y)
                touch = .scrolling(y: y - Double(rows))
                scrollReview(by: rows, into: &effects)
            case .button(let button):
                let over = self.button(at: sample.point) == button ? button : nil
                if over != pressedButton {
                    pressedButton = over
                    effects.append(.repaintChrome)
                }
            case .outside(let start, let origin, let last, let moved):
                // A signature begun just outside the box is still a signature: people do not
                // aim their first letter at a frame. A tap outside never gets here.
                if layout.inBox(sample.point) {
                    startInk(at: last, now: now, into: &effects)
                    signature.strokes[signature.strokes.count - 1].append(sample)
                    effects.append(.ink(event))
                } else {
                    touch = .outside(start: start, origin: origin, last: sample, moved: moved || sample.point.distance(to: origin) > StrokeEvent.stillRadius)
                }
            case .none, .waking, .held:
                break
            }
        case .up, .cancel:
            switch touch {
            case .ink:
                effects.append(.ink(event))
            case .button(let button):
                // Pressed only if released on the same button: pressedButton follows the finger.
                let releasedOnButton = pressedButton == button
                pressedButton = nil
                effects.append(.repaintChrome)
                if event == .up && releasedOnButton { effects += press(button, now: now) }
            case .outside(let start, let origin, _, let moved):
                if event == .up && rules.doubleTapConfirms { doubleTap.lifted(at: origin, start: start, now: now, moved: moved) }
            case .none, .waking, .erasing, .held, .scrolling:
                break
            }
            touch = .none
        case .withdraw:
            // As if the touch had never landed: its ink goes (the signature keeps its other
            // strokes), and a button it holds is not pressed.
            switch touch {
            case .ink:
                signature.strokes.removeLast()
                strokeDevices.removeLast()
                effects.append(.withdrawInk)
            case .button:
                pressedButton = nil
                effects.append(.repaintChrome)
            case .outside, .none, .waking, .erasing, .held, .scrolling:
                break
            }
            touch = .none
        }
    }

    /// The button at `p` on the screen shown now.
    private func button(at p: Point) -> KioskLayout.Button? {
        if reviewing, let review { return reviewLayout.button(at: p, for: review) }
        return layout.button(at: p)
    }

    private mutating func scrollReview(by rows: Int, into effects: inout [KioskEffect]) {
        guard rows != 0, var review = request?.review else { return }
        let mayProceed = review.mayProceed
        guard review.scroll(by: rows, viewport: reviewLayout.page.height) else { return }
        request?.review = review
        // Sign appearing is a change of the buttons; a drag alone moves the page only.
        effects.append(review.mayProceed == mayProceed ? .reviewScrolled : .reviewChanged)
    }

    /// Page `page` of the document under review is drawn, `height` pixels high at the page's
    /// width. A page appearing is activity: the customer reads it from now, touching nothing.
    public mutating func pageDrawn(_ page: Int, height: Int, now: Double) -> [KioskEffect] {
        guard var review = request?.review, review.drawn(page: page, height: height, viewport: reviewLayout.page.height) else { return [] }
        request?.review = review
        clocks.activity(now: now)
        return [.reviewChanged]
    }

    /// The document under review cannot be shown: the request ends `failed`, for `reason`.
    public mutating func reviewFailed(_ reason: String, now: Double) -> [KioskEffect] {
        var effects: [KioskEffect] = []
        guard request?.review != nil else { return effects }
        if touchIsDown { letGoOfTouch(now: now, into: &effects) }
        endRequest(.failed(reason), now: now, into: &effects)
        return effects
    }

    private mutating func erase(from a: Point, to b: Point, into effects: inout [KioskEffect]) {
        let touched = rules.eraser.strokes(in: signature, touchedFrom: a, to: b, inkWidth: rules.inkWidth)
        guard !touched.isEmpty else { return }
        // Ascending, so removed from the back each index still names its stroke.
        for index in touched.reversed() {
            signature.strokes.remove(at: index)
            strokeDevices.remove(at: index)
        }
        effects.append(.redrawInk(removed: touched))
    }

    /// No signature any more, and so no stroke's device.
    private mutating func forgetSignature() {
        signature = Signature()
        strokeDevices.removeAll(keepingCapacity: true)
    }

    private mutating func startInk(at sample: Sample, now: Double, into effects: inout [KioskEffect]) {
        touch = .ink
        if let request, signature.isEmpty { effects.append(.requestProgress(id: request.id, .ink)) }
        if message == .tooLittleInk || message == .saved { setMessage(.none, now: now, into: &effects) }
        var stroke = spareStrokes.popLast() ?? []
        stroke.append(sample)
        signature.strokes.append(stroke)
        strokeDevices.append(device)
        effects.append(.ink(.down(sample)))
    }

    /// Time passes: messages expire, an idle signature is wiped, an idle screen is switched off.
    /// A touch down and still does not hold the idle timeout off: the next customer must never
    /// see this one's signature, nor find the pad deaf to their finger.
    public mutating func tick(now: Double) -> [KioskEffect] {
        reserveRoom()
        var effects: [KioskEffect] = []
        if doubleTap.confirms(now: now) { effects += press(.done, now: now) }
        if now >= messageUntil { setMessage(.none, now: now, into: &effects) }
        if let request, request.timeout > 0, now - clocks.lastActivity >= request.timeout {
            if touchIsDown { letGoOfTouch(now: now, into: &effects) }
            endRequest(.timedOut, now: now, into: &effects)
        }
        if clocks.idleIsUp(now: now) {
            if hasInk {
                forgetSignature()
                effects.append(.clearInk)
            }
            if touchIsDown && heldSince == nil { letGoOfTouch(now: now, into: &effects) }
        }
        // A phantom that stays down is let go of as any touch is: an idle timeout after it landed.
        if let since = heldSince, rules.idleTimeout > 0, now - since >= rules.idleTimeout { letGoOfTouch(now: now, into: &effects) }
        if mayFallAsleep && clocks.sleepIsDue(now: now) {
            asleep = true
            effects.append(.sleep(true))
        }
        return effects
    }

    /// The next time `tick` has something to do.
    public func nextDeadline() -> Double {
        var deadline = min(messageUntil, doubleTap.confirmsAt ?? .infinity)
        if clocks.idleTimeoutRuns && hasInk { deadline = min(deadline, clocks.idleDeadline()) }
        if clocks.idleTimeoutRuns && touchIsDown { deadline = min(deadline, clocks.idleDeadline(since: heldSince)) }
        if mayFallAsleep { deadline = min(deadline, clocks.sleepDeadline) }
        if let request, request.timeout > 0 { deadline = min(deadline, clocks.lastActivity + request.timeout) }
        return deadline
    }

    private var heldSince: Double? {
        if case .held(_, let since) = touch { return since }
        return nil
    }

    /// Only the plain screen sleeps: never over a customer's ink or message, nor a staff message.
    private var mayFallAsleep: Bool { rules.sleepAfter > 0 && !asleep && isBetweenCustomers && message == .none && outOfService == nil }

    private var touchIsDown: Bool {
        if case .none = touch { return false }
        return true
    }

    /// A button the touch holds is let go of unpressed.
    private mutating func letGoOfTouch(now: Double, into effects: inout [KioskEffect]) {
        if pressedButton != nil {
            pressedButton = nil
            effects.append(.repaintChrome)
        }
        touch = .none
        flicker.lift(now: now)
        effects.append(.letGoOfTouch)
    }

    private mutating func wake(into effects: inout [KioskEffect]) {
        asleep = false
        effects.append(.sleep(false))
    }

    /// `id` nil: a signature from before the last start, which no customer is waiting for, so
    /// its success shows no "Saved" but ends a staff message when nothing else is pending.
    public mutating func exportFinished(_ id: Int?, error: String?, now: Double) -> [KioskEffect] {
        var effects: [KioskEffect] = []
        if let error {
            // Staff must see it: a spooled signature's write can fail while the screen sleeps.
            if asleep { wake(into: &effects) }
            setMessage(.saveFailed(error), now: now, into: &effects, seconds: .infinity)
        } else if let id {
            pendingExports.remove(id)
            if pendingExports.isEmpty { setMessage(.saved, now: now, into: &effects, seconds: rules.savedSeconds) }
        } else if pendingExports.isEmpty, case .saveFailed = message {
            setMessage(.none, now: now, into: &effects)
        }
        return effects
    }

    /// Confirms as the Done button does; used at the end of a replay.
    public mutating func confirm(now: Double) -> [KioskEffect] { press(.done, now: now) }

    private mutating func press(_ button: KioskLayout.Button, now: Double) -> [KioskEffect] {
        var effects: [KioskEffect] = []
        switch button {
        case .clear:
            forgetSignature()
            effects.append(.clearInk)
            if let request { effects.append(.requestProgress(id: request.id, .cleared)) }
            if message == .tooLittleInk { setMessage(.none, now: now, into: &effects) }
        case .decline:
            endRequest(.declined, now: now, into: &effects)
        case .undo:
            // The last stroke goes, as if never drawn: the screen and the exports are the
            // signature without it.
            guard !signature.isEmpty else { return effects }
            signature.strokes.removeLast()
            strokeDevices.removeLast()
            effects.append(.redrawInk(removed: [signature.strokes.count]))
        case .previousPage, .nextPage:
            guard var review = request?.review, let id = request?.id, review.turn(to: review.page + (button == .nextPage ? 1 : -1)) else { return effects }
            request?.review = review
            effects += [.pageWanted(id: id, page: review.page), .reviewChanged]
        case .sign:
            // Read through: the usual signing screen, the request's text above its box.
            guard let review = request?.review, let id = request?.id, review.mayProceed else { return effects }
            request?.review = nil
            effects += [.layoutChanged, .requestProgress(id: id, .reviewed)]
        case .done:
            // Not from the review: a double tap or a replay's end confirms only the signing screen.
            guard request?.review == nil else { return effects }
            guard meetsMinimum else {
                setMessage(.tooLittleInk, now: now, into: &effects, seconds: rules.hintSeconds)
                return effects
            }
            let id = nextExportID
            nextExportID += 1
            pendingExports.insert(id)
            effects.append(.save(signature, devices: strokeDevices, exportID: id, request: request))
            if request != nil { endRequest(.signed(exportID: id), now: now, into: &effects) }
            forgetSignature()
            effects.append(.clearInk)
            if case .saveFailed = message {} else { setMessage(.saving, now: now, into: &effects, seconds: .infinity) }
        }
        return effects
    }

    /// Shows a point of sale's request: its text above the box, which it takes from whoever
    /// was signing (a walk-up customer's ink is wiped, unsaved). The request's timeout counts
    /// from now.
    public mutating func beginRequest(_ new: KioskRequest, now: Double) -> [KioskEffect] {
        var effects: [KioskEffect] = []
        if asleep { wake(into: &effects) }
        if touchIsDown { letGoOfTouch(now: now, into: &effects) }
        if hasInk {
            forgetSignature()
            effects.append(.clearInk)
        }
        request = new
        layout = KioskLayout(width: baseLayout.width, height: baseLayout.height, requestLines: new.lineRows.reduce(0, +), decline: rules.offersDecline,
                             undo: baseLayout.undoButton != nil)
        effects.append(.layoutChanged)
        if new.review != nil { effects.append(.pageWanted(id: new.id, page: 0)) }
        clocks.activity(now: now)
        switch message {
        case .tooLittleInk, .saved: setMessage(.none, now: now, into: &effects)
        case .none, .saving, .saveFailed: break
        }
        return effects
    }

    /// The point of sale ends its request: the screen goes back to where it was without one,
    /// with no ink and nothing of the request on it.
    public mutating func cancelRequest(now: Double) -> [KioskEffect] {
        var effects: [KioskEffect] = []
        guard request != nil else { return effects }
        if touchIsDown { letGoOfTouch(now: now, into: &effects) }
        endRequest(.cancelled, now: now, into: &effects)
        return effects
    }

    private mutating func endRequest(_ end: KioskRequestEnd, now: Double, into effects: inout [KioskEffect]) {
        if case .signed = end {} else if hasInk {
            forgetSignature()
            effects.append(.clearInk)
        }
        guard let ended = request else { return }
        request = nil
        layout = baseLayout
        if message == .tooLittleInk { setMessage(.none, now: now, into: &effects) }
        effects.append(.requestEnded(id: ended.id, end))
        effects.append(.layoutChanged)
    }

    /// In requested mode with no request, or out of service, the idle page: no box, no buttons,
    /// and touches draw nothing.
    public var showsIdlePage: Bool {
        guard case .none = request else { return false }
        return rules.mode == .requested || outOfService != nil
    }

    /// No signature taken from now could be kept (the recipient certificate ended): the idle
    /// page shows, with `reason` for staff, until signpad is started again. Taken between
    /// customers: one signing or asked now finishes first. A request is not taken meanwhile.
    public mutating func takeOutOfService(_ reason: String, now: Double) -> [KioskEffect] {
        var effects: [KioskEffect] = []
        guard outOfService == nil else { return effects }
        outOfService = reason
        if asleep { wake(into: &effects) }
        effects.append(.layoutChanged)
        return effects
    }

    /// The minimum-ink rule: enough length and a large enough box, so a dot or a tick is refused.
    public var meetsMinimum: Bool {
        guard let bounds = signature.bounds else { return false }
        let extent = max(bounds.max.x - bounds.min.x, bounds.max.y - bounds.min.y)
        return signature.inkLength >= rules.minInkLength && extent >= rules.minInkExtent
    }

    private mutating func setMessage(_ new: KioskMessage, now: Double, into effects: inout [KioskEffect], seconds: Double = .infinity) {
        message = new
        messageUntil = seconds.isFinite ? now + seconds : .infinity
        effects.append(.repaintChrome)
    }
}
