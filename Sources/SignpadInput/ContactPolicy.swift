import SignpadVocabulary

/// Which contacts of a device's frames are drawn: the rules, over the contacts any front end
/// reports (a device of one contact reports one).
///
/// One contact is followed at a time, the first to land. Another that lands meanwhile waits:
/// - it **writes** (goes further than `StrokeEvent.stillRadius` from where it landed) while the
///   followed one lies still, or lifts still, or while none is followed: it is followed from where
///   and when it landed, every sample since drawn at once;
/// - it **taps** (lands after the followed one, in a later frame, and lifts within `tapSeconds`,
///   never having written) while that lies still: the tap is drawn whole, a dot or a button.
///
/// In both the still one was a **resting hand** or water: its stroke is withdrawn and it is let go
/// of. A contact **let go of** is ignored until it lifts and never holds back another: so are
/// those down at open or when the kiosk gives the touch up, those that wrote beside the followed
/// one when it lifts (they are in the middle of their path), and those down when events were
/// dropped but the one followed, which resumes as a new stroke once in sync. A **palm**
/// (MT_TOOL_PALM) is never followed; one followed is withdrawn if it lay still, its stroke ended
/// (the ink kept) if it wrote, and let go of.
struct ContactPolicy: Sendable {
    /// What the policy knows of the contact in a slot.
    enum ContactState: Equatable, Sendable {
        /// No contact.
        case none
        /// Let go of: never followed, never holding back another, until it lifts.
        case ignored
        /// Down, but where it landed is unknown (it landed while events were dropped).
        case unplaced
        /// Within `StrokeEvent.stillRadius` of where it landed.
        case still(landing: Sample)
        /// Went further than that: a finger that writes.
        case wrote(landing: Sample)
    }

    /// The contact whose strokes are drawn.
    enum Followed: Equatable, Sendable {
        case none
        case slot(Int)
        /// None, since events were dropped: the contact with this id is followed again, as a new
        /// stroke, at the first frame once in sync.
        case resuming(id: Int32)

        var slot: Int? {
            if case .slot(let slot) = self { return slot }
            return nil
        }
    }

    /// The stroke on the paper.
    enum Stroke: Equatable, Sendable {
        case idle
        case drawing(last: Point)
    }

    /// A finger starting slowly covers `StrokeEvent.stillRadius` in a few samples; one that dwells
    /// longer loses the oldest after its landing.
    static let maxWaitingSamples = 64
    /// A contact that lifts this soon after landing, having stayed within `StrokeEvent.stillRadius`,
    /// was a tap; one that lay longer was resting.
    static let tapSeconds = 1.0

    private var states: [ContactState]
    /// Each slot's tool at the end of the last frame: a palm then is no tap when it lifts now.
    private var tools: [ContactTool]
    /// For each slot whose contact waits: its samples since it landed, the start of its stroke
    /// should it write or tap.
    private var paths: [[Sample]]
    private var followed = Followed.none
    /// When the contact followed last landed: one that landed with it, in the same frame, is a
    /// second finger and never drawn as a tap.
    private var followedLanding = -Double.infinity
    private var stroke = Stroke.idle

    init(slotCount: Int) {
        states = Array(repeating: .none, count: slotCount)
        tools = Array(repeating: .finger, count: slotCount)
        paths = (0..<slotCount).map { _ in
            var path: [Sample] = []
            path.reserveCapacity(Self.maxWaitingSamples)
            return path
        }
    }
}

// MARK: - A frame

extension ContactPolicy {
    /// Judges one frame; calls `emit` for each stroke event it makes.
    mutating func judge(_ frame: ContactFrame, emit: (StrokeEvent) -> Void) {
        // A frame of no contact (a pen hovering) while none is followed changes nothing.
        if frame.contacts.isEmpty && followed == .none { return }
        if movesOnAlone(frame, emit: emit) { return }
        defer { endFrame(frame) }
        var resumeID: Int32?
        if case .resuming(let id) = followed {
            resumeID = id
            followed = .none
        }
        noteLandingsAndWriting(frame)
        for contact in frame.contacts where isWaitingTap(contact, frame: frame) { followTap(contact.slot, emit: emit) }
        let resumed = resume(resumeID, frame: frame)
        // Closures, not the methods themselves: a method passed as a function value captures a
        // copy of the policy on the heap at every frame.
        if followed.slot.map({ liesStill($0, frame: frame, resumed: resumed) }) ?? true,
           let writer = frame.contacts.first(where: { isWaitingWriter($0) }) {
            takeOver(from: followed.slot, by: writer.slot, emit: emit)
        }
        if let index = followed.slot, !lose(index, frame: frame, resumed: resumed, emit: emit) { return }
        followFirstLanded(frame, emit: emit)
    }

    /// Most frames: the followed contact alone, moved on, no palm. No other contact waits, taps
    /// or writes, so the rules below come to this: noted as written once it leaves its landing,
    /// drawn on. True when the frame was that one and is judged.
    private mutating func movesOnAlone(_ frame: ContactFrame, emit: (StrokeEvent) -> Void) -> Bool {
        guard frame.contacts.count == 1, case .slot(let index) = followed else { return false }
        let contact = frame.contacts[0]
        guard contact.slot == index, contact.phase == .moved, contact.tool != .palm else { return false }
        if case .still(let landing) = states[index] { noteWriting(contact, landing: landing) }
        draw(contact, time: frame.time, emit: emit)
        tools[index] = contact.tool
        return true
    }

    /// Records where each contact landed, the path of those waiting, and whether each has written
    /// since. Contacts that wrote are no longer looked at.
    private mutating func noteLandingsAndWriting(_ frame: ContactFrame) {
        for contact in frame.contacts {
            let index = contact.slot
            switch (contact.phase, states[index]) {
            case (.began, _):
                let sample = contact.sample(time: frame.time)
                states[index] = .still(landing: sample)
                paths[index].removeAll(keepingCapacity: true)
                paths[index].append(sample)
            case (.moved, .still(let landing)):
                if index != followed.slot && paths[index].last?.point != contact.point {
                    if paths[index].count == Self.maxWaitingSamples { paths[index].remove(at: 1) }
                    paths[index].append(contact.sample(time: frame.time))
                }
                noteWriting(contact, landing: landing)
            default: break
            }
        }
    }

    /// A still contact that went further than `StrokeEvent.stillRadius` from where it landed writes.
    private mutating func noteWriting(_ contact: Contact, landing: Sample) {
        if contact.point.distance(to: landing.point) > StrokeEvent.stillRadius { states[contact.slot] = .wrote(landing: landing) }
    }

    /// The followed contact is the same one as in the last frame (down still, or lifted now, not
    /// followed again only now) and has not gone further than `StrokeEvent.stillRadius` from
    /// where it landed.
    private func liesStill(_ index: Int, frame: ContactFrame, resumed: Int?) -> Bool {
        if case .wrote = states[index] { return false }
        return index != resumed && phase(of: index, in: frame) != .began
    }

    private func phase(of slot: Int, in frame: ContactFrame) -> ContactPhase? {
        frame.contacts.first { $0.slot == slot }?.phase
    }

    /// A contact down, not followed and no palm, that has written.
    private func isWaitingWriter(_ contact: Contact) -> Bool {
        guard contact.isDown, contact.slot != followed.slot, contact.tool != .palm, case .wrote = states[contact.slot] else { return false }
        return true
    }

    /// A contact that waited beside the followed one, landing no sooner, lifted now without
    /// writing, within `tapSeconds` of landing, while that one lies still (or none is followed).
    private func isWaitingTap(_ contact: Contact, frame: ContactFrame) -> Bool {
        guard contact.phase == .ended, contact.slot != followed.slot, tools[contact.slot] != .palm,
              case .still(let landing) = states[contact.slot], frame.time - landing.time <= Self.tapSeconds,
              contact.point.distance(to: landing.point) <= StrokeEvent.stillRadius else { return false }
        // Landing later than the followed contact, not with it: two that land in one frame are a
        // finger and a second finger, and the second draws nothing.
        guard landing.time > followedLanding else { return false }
        guard let resting = followed.slot else { return true }
        return liesStill(resting, frame: frame, resumed: nil)
    }
}

// MARK: - Transitions

extension ContactPolicy {
    /// The contact with the id followed when events were dropped is followed again, as a new
    /// stroke from where it is now; returns its slot.
    private mutating func resume(_ id: Int32?, frame: ContactFrame) -> Int? {
        guard let id, let contact = frame.contacts.first(where: { $0.id == id && isLive($0) && $0.tool != .palm }) else { return nil }
        followed = .slot(contact.slot)
        return contact.slot
    }

    /// Down and not let go of.
    private func isLive(_ contact: Contact) -> Bool {
        contact.isDown && states[contact.slot] != .ignored
    }

    /// A writer beside a still contact (or none): that was a hand or water resting, withdrawn and
    /// let go of, and the writer is followed from where it landed.
    private mutating func takeOver(from resting: Int?, by writer: Int, emit: (StrokeEvent) -> Void) {
        if let resting { letGoOfResting(resting, emit: emit) }
        follow(writer, emit: emit)
    }

    /// The tap is the customer's (a button pressed, a dot) and the still contact beside it a hand
    /// or water resting: that is withdrawn and let go of, and the tap drawn whole.
    private mutating func followTap(_ index: Int, emit: (StrokeEvent) -> Void) {
        if let resting = followed.slot { letGoOfResting(resting, emit: emit) }
        follow(index, emit: emit)
        if case .drawing = stroke { emit(.up) }
        stroke = .idle
        followed = .none
    }

    private mutating func letGoOfResting(_ index: Int, emit: (StrokeEvent) -> Void) {
        if case .drawing = stroke { emit(.withdraw) }
        stroke = .idle
        states[index] = .ignored
    }

    /// Follows `index` from where it landed: its samples since are drawn at once.
    private mutating func follow(_ index: Int, emit: (StrokeEvent) -> Void) {
        followed = .slot(index)
        guard let landing = paths[index].first, let last = paths[index].last else { return }
        followedLanding = landing.time
        emit(.down(landing))
        for sample in paths[index].dropFirst() { emit(.move(sample)) }
        stroke = .drawing(last: last.point)
    }

    /// The followed contact in this frame: drawn on, or lost (lifted, replaced, or a palm). True
    /// when it was lost, and so the first contact that landed now may be followed.
    private mutating func lose(_ index: Int, frame: ContactFrame, resumed: Int?, emit: (StrokeEvent) -> Void) -> Bool {
        let contact = frame.contacts.first { $0.slot == index }
        let same = contact.map { $0.phase == .moved || ($0.isDown && $0.slot == resumed) } ?? false
        let palm = contact?.tool == .palm
        if palm {
            // Still, it was never writing; what it wrote before the panel judged it stays.
            if case .drawing = stroke {
                if case .wrote = states[index] { emit(.cancel) } else { emit(.withdraw) }
            }
            stroke = .idle
        } else {
            draw(same ? contact : nil, time: frame.time, emit: emit)
        }
        guard !same || palm else { return false }
        followed = .none
        if palm { states[index] = .ignored }
        // Those that wrote meanwhile are in the middle of their path.
        for other in frame.contacts where other.isDown {
            if case .wrote = states[other.slot] { states[other.slot] = .ignored }
        }
        return true
    }

    /// Nothing followed: the first contact that landed now is, unless a palm.
    private mutating func followFirstLanded(_ frame: ContactFrame, emit: (StrokeEvent) -> Void) {
        guard let contact = frame.contacts.first(where: { $0.phase == .began && isLive($0) && $0.tool != .palm }) else { return }
        followed = .slot(contact.slot)
        followedLanding = frame.time
        draw(contact, time: frame.time, emit: emit)
    }

    /// The followed contact down at `contact`, or lifted (nil): the stroke lands, moves or lifts.
    private mutating func draw(_ contact: Contact?, time: Double, emit: (StrokeEvent) -> Void) {
        switch (contact, stroke) {
        case (let contact?, .idle):
            emit(.down(contact.sample(time: time)))
            stroke = .drawing(last: contact.point)
        case (let contact?, .drawing(let last)) where contact.point != last:
            emit(.move(contact.sample(time: time)))
            stroke = .drawing(last: contact.point)
        case (nil, .drawing):
            emit(.up)
            stroke = .idle
        default: break
        }
    }

    /// What the next frame is compared with: lifted contacts are gone, and each tool noted.
    private mutating func endFrame(_ frame: ContactFrame) {
        for contact in frame.contacts {
            if !contact.isDown { states[contact.slot] = .none }
            tools[contact.slot] = contact.tool
        }
    }
}

// MARK: - Outside the frames

extension ContactPolicy {
    /// Events were dropped (`frame`: the contacts down, cancelled): the stroke ends at its last
    /// good sample, and the contact followed is remembered to be followed again once in sync.
    mutating func eventsDropped(_ frame: ContactFrame, emit: (StrokeEvent) -> Void) {
        if case .drawing = stroke { emit(.cancel) }
        stroke = .idle
        let id = followed.slot.flatMap { slot in frame.contacts.first { $0.slot == slot }?.id }
        followed = id.map { .resuming(id: $0) } ?? .none
    }

    /// In sync again (`frame`: the contacts down): what the others did meanwhile is lost, so they
    /// are in the middle of their path and let go of; the one followed before waits to resume.
    mutating func resync(_ frame: ContactFrame) {
        var listed = 0
        for index in states.indices {
            guard listed < frame.contacts.count, frame.contacts[listed].slot == index else {
                states[index] = .none
                continue
            }
            let contact = frame.contacts[listed]
            listed += 1
            tools[index] = contact.tool
            guard case .resuming(let id) = followed, contact.id == id else {
                states[index] = .ignored
                continue
            }
            if contact.phase == .began { states[index] = .unplaced }
        }
    }

    /// Stops following the contacts down now (`frame`), without a stroke event: they are ignored
    /// until they lift, and hold back no other.
    mutating func letGo(_ frame: ContactFrame) {
        stroke = .idle
        followed = .none
        for index in states.indices { states[index] = .none }
        for contact in frame.contacts {
            states[contact.slot] = .ignored
            tools[contact.slot] = contact.tool
        }
    }

    /// The device is gone: a stroke in progress ends at its last sample.
    mutating func deviceGone(emit: (StrokeEvent) -> Void) {
        if case .drawing = stroke { emit(.cancel) }
        stroke = .idle
        followed = .none
        for index in states.indices {
            states[index] = .none
            tools[index] = .finger
        }
    }
}
