import FoundationEssentials
import Glibc
import SignpadVarlink
import SystemPackage

/// The descriptors one turn of a loop waits on, each under the name of what it is, kept from
/// turn to turn so a turn allocates nothing. What became ready is asked for by name, never by
/// position: a device closed while a turn reads leaves the others' answers as they were.
public struct PollSet {
    public enum Source: Equatable {
        case signals
        /// The exporter's results (its `LoopWakes` pipe).
        case exports
        /// The control socket's listener and connections, as many as it has this turn.
        case control
        /// The results book's writes ending, each letting a final answer go (`ControlService.bookWritten`).
        case results
        /// A page drawn for review (its `LoopWakes` pipe).
        case pages
        /// The input device at this index of the loop's inputs.
        case input(Int)
    }

    private var entries: [pollfd] = []
    private var sources: [Source] = []

    public init() {
        entries.reserveCapacity(64)
        sources.reserveCapacity(64)
    }

    /// Empties the set for the next turn, keeping its storage.
    public mutating func clear() {
        entries.removeAll(keepingCapacity: true)
        sources.removeAll(keepingCapacity: true)
    }

    public mutating func add(_ fd: FileDescriptor, as source: Source) {
        entries.append(pollfd(fd: fd.rawValue, events: Int16(POLLIN), revents: 0))
        sources.append(source)
    }

    /// The control socket's descriptors, with the events each waits for.
    mutating func add(_ server: VarlinkServer) {
        let first = entries.count
        server.descriptors(into: &entries)
        for _ in first..<entries.count { sources.append(.control) }
    }

    /// Waits until a descriptor is ready or `seconds` have passed, at most one second, so the
    /// loop's clocks are looked at once a second whatever happens. A signal that cuts the wait
    /// short is a turn with nothing ready.
    public mutating func wait(seconds: Double) throws(DaemonError) {
        let milliseconds = Int32(max(0, min(seconds * 1000, 1000)).rounded(.up))
        if poll(&entries, nfds_t(entries.count), milliseconds) < 0 && errno != EINTR {
            throw DaemonError(description: "poll failed: \(Errno(rawValue: errno))")
        }
    }

    /// What happened to `source` in the last wait (POLLIN, POLLHUP, …); 0: nothing.
    public func events(of source: Source) -> Int16 {
        guard let index = sources.firstIndex(of: source) else { return 0 }
        return entries[index].revents
    }

    public func isReady(_ source: Source) -> Bool { events(of: source) != 0 }

    /// What the last wait woke for (`clocks`: nothing, a deadline ended it), for the loop's longest turn.
    var woken: LongestTurn.Handled {
        var handled: LongestTurn.Handled = []
        for (entry, source) in zip(entries, sources) where entry.revents != 0 {
            switch source {
            case .signals: handled.insert(.signals)
            case .exports: handled.insert(.exports)
            // A page drawn is a request's, as the book's news is.
            case .control, .results, .pages: handled.insert(.control)
            case .input: handled.insert(.input)
            }
        }
        return handled.isEmpty ? .clocks : handled
    }

    /// The control socket's entries, for `VarlinkServer.handle`.
    var control: ArraySlice<pollfd> {
        guard let first = sources.firstIndex(of: .control) else { return entries[entries.endIndex...] }
        let end = sources[first...].firstIndex { $0 != .control } ?? entries.endIndex
        return entries[first..<end]
    }
}
