import Dispatch
import SignpadCrypto
import SignpadVocabulary
import Synchronization

/// The daemon's `PageSource`: pages drawn by `signpad-render` one at a time on a queue of its
/// own, each hashed there too, so that the loop only copies rows. `wake` is called on the
/// queue once a page is waiting.
public final class PageRenderQueue: PageSource {
    private let queue = DispatchQueue(label: "signpad-pages")
    private let finished = Mutex<[DrawnPage]>([])
    /// Asked once, on the queue, at the first page.
    private let renderer = Mutex<String?>(nil)
    private let executable: String
    private let seconds: Double
    private let wake: @Sendable () -> Void

    /// `seconds`: how long one page may take before its renderer is killed and the page refused.
    public init(executable: String = PageRenderer.executable, seconds: Double = 10, wake: @escaping @Sendable () -> Void) {
        self.executable = executable
        self.seconds = seconds
        self.wake = wake
    }

    public func draw(_ document: [UInt8], page: Int, width: Int, for id: String) {
        queue.async { [self] in
            let outcome: DrawnPage.Outcome
            // Three widths high holds A4, legal and tabloid; a longer page (a receipt a metre
            // long) would take the kiosk's memory, and is refused with its height.
            let drawn = PageRenderer.render(document, page: page + 1, width: width, maxHeight: width * Self.heightPerWidth, seconds: seconds,
                                            executable: executable)
            switch (version(), drawn) {
            case (.failure(let error), _), (_, .failure(let error)):
                outcome = .failed(error.reason)
            case (.success(let renderer), .success(let drawn)):
                var canvas = Canvas(width: drawn.width, height: drawn.height, fill: 0)
                canvas.pixels = drawn.pixels
                let sha256 = Hex.string(drawn.pixels.withUnsafeBytes { SHA256.digest($0) })
                outcome = .drawn(canvas, scale: drawn.scale, sha256: sha256, renderer: renderer)
            }
            finished.withLock { $0.append(DrawnPage(id: id, page: page, outcome: outcome)) }
            wake()
        }
    }

    /// The tallest page drawn, in widths.
    public static let heightPerWidth = 3

    public func drawn() -> [DrawnPage] {
        finished.withLock { finished in defer { finished = [] }; return finished }
    }

    private func version() -> Result<String, PageRenderError> {
        if let known = renderer.withLock({ $0 }) { return .success(known) }
        let asked = PageRenderer.version(executable: executable)
        if case .success(let version) = asked { renderer.withLock { $0 = version } }
        return asked
    }
}
