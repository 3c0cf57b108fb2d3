import Dispatch
import Glibc
import SignpadCrypto
import SignpadVocabulary
import Synchronization

/// The daemon's `PageSource`: pages drawn by `signpad-render` one at a time on a thread of its
/// own, each hashed there too, so that the loop only copies rows. Only the newest page asked for
/// waits: a customer tapping Next ten times waits for one page, not ten. `wake` is called on the
/// queue once a page is waiting.
public final class PageRenderQueue: PageSource {
    private struct Job: Sendable {
        var document: [UInt8]
        var page: Int
        var width: Int
        var id: String
    }

    private struct State {
        /// The page asked for and not begun.
        var wanted: Job?
        var finished: [DrawnPage] = []
        /// The renderer drawing now, to be killed at `stop`.
        var running: pid_t?
        var stopped = false
        /// Asked once, at the first page.
        var renderer: String?
    }

    private let queue = DispatchQueue(label: "signpad-pages")
    private let state = Mutex(State())
    private let executable: String
    private let seconds: Double
    private let wake: @Sendable () -> Void

    /// The tallest page drawn, in widths: A4, legal and tabloid fit; a receipt a metre long
    /// would take the kiosk's memory, and is refused with its height.
    public static let heightPerWidth = 3
    /// The most one page may take, in bytes of pixels.
    public static let maxPageBytes = 192 << 20

    /// `seconds`: how long one page may take before its renderer is killed and the page refused.
    public init(executable: String = PageRenderer.executable, seconds: Double = 10, wake: @escaping @Sendable () -> Void) {
        self.executable = executable
        self.seconds = seconds
        self.wake = wake
    }

    public func draw(_ document: [UInt8], page: Int, width: Int, for id: String) {
        let first = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            defer { state.wanted = Job(document: document, page: page, width: width, id: id) }
            return state.wanted == nil
        }
        // One run per job the queue holds: a job replaced before its run began is that run's.
        if first { queue.async { [self] in drawWanted() } }
    }

    public func drawn() -> [DrawnPage] {
        state.withLock { state in defer { state.finished = [] }; return state.finished }
    }

    /// Kills the renderer drawing now and waits for its thread: nothing is left running, nor a
    /// child unreaped, when the daemon stops or starts itself again.
    public func stop() {
        state.withLock { state in
            state.stopped = true
            state.wanted = nil
            if let pid = state.running { kill(-pid, SIGKILL) }
        }
        queue.sync {}
    }

    /// The tallest page drawn at `width`: three widths, within `maxPageBytes`.
    public static func maxHeight(width: Int) -> Int { max(1, min(width * heightPerWidth, maxPageBytes / 4 / max(width, 1))) }

    private func drawWanted() {
        guard let job = state.withLock({ state -> Job? in defer { state.wanted = nil }; return state.stopped ? nil : state.wanted }) else { return }
        let outcome: DrawnPage.Outcome
        let drawn = PageRenderer.render(job.document, page: job.page + 1, width: job.width, maxHeight: Self.maxHeight(width: job.width),
                                        seconds: seconds, executable: executable) { pid in state.withLock { $0.running = pid } }
        switch (version(), drawn) {
        case (.failure(let error), _), (_, .failure(let error)):
            outcome = .failed(error.reason)
        case (.success(let renderer), .success(let page)):
            let sha256 = Hex.string(page.pixels.withUnsafeBytes { SHA256.digest($0) })
            outcome = .drawn(Canvas(width: page.width, height: page.height, pixels: page.pixels), scale: page.scale, sha256: sha256,
                             renderer: renderer, pageCount: page.pageCount)
        }
        let kept = state.withLock { state in
            guard !state.stopped else { return false }
            state.finished.append(DrawnPage(id: job.id, page: job.page, outcome: outcome))
            return true
        }
        if kept { wake() }
    }

    private func version() -> Result<String, PageRenderError> {
        if let known = state.withLock({ $0.renderer }) { return .success(known) }
        let asked = PageRenderer.version(executable: executable)
        if case .success(let version) = asked { state.withLock { $0.renderer = version } }
        return asked
    }
}
