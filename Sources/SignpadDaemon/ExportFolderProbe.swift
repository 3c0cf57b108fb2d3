import Synchronization

/// What the exporter's first look at the export folder found wrong, until a signature is written
/// there: so that `GetStatus` says a folder fails from the start, before any customer's
/// signature waits on it. Set on the exporter's thread, read on the loop's.
final class ExportFolderProbe: Sendable {
    private let failure = Mutex<String?>(nil)

    var current: String? { failure.withLock { $0 } }

    func failed(_ reason: String) { failure.withLock { $0 = reason } }

    func wrote() { failure.withLock { $0 = nil } }
}
