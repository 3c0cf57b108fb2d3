import Foundation
import Synchronization

/// Whether `done` came true within `seconds`, asked every 20 ms: for what another thread does.
public func until(_ seconds: Double, _ done: () -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: seconds)
    while !done() {
        if Date() > deadline { return false }
        usleep(20_000)
    }
    return true
}

/// What a reporter on another thread said, in order.
public final class Recorded<Event: Sendable>: Sendable {
    private let list = Mutex<[Event]>([])

    public init() {}

    public func append(_ event: Event) { list.withLock { $0.append(event) } }
    public var all: [Event] { list.withLock { $0 } }
}
