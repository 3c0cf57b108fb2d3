import Dispatch
import Glibc
import SignpadCrypto
import SignpadExport
import SignpadKiosk
import SignpadPDF
import SignpadVocabulary
import Synchronization

/// A point of sale's PDF taken off the loop: the file in the documents folder opened without
/// following a link, copied within the size limit, its SHA-256 checked against the request's,
/// and read far enough to find where the signature goes. The loop hears of it through `taken`.
public final class DocumentIntake: Sendable {
    public struct Job: Sendable {
        public var ticket: Int
        public var path: String
        public var sha256: String
        public var placement: PDFSignaturePlacement
    }

    /// What taking a document came to.
    public enum Outcome: Sendable, Equatable {
        /// `review`: the document as the customer will read it, at its first page.
        case taken(SignedDocument, review: DocumentReview, field: String)
        /// Why it cannot be signed, for the point of sale.
        case refused(String)
    }

    public let directory: String
    public let maxBytes: Int
    /// Sign is offered only once every page has been shown (`documents.require_review`).
    public let requireReview: Bool
    /// When the kiosk's document certificate ends (seconds since 1970): from then on no document
    /// is taken, as none signed under it would validate. nil: never checked here.
    public let certificateEnds: Double?
    private let wallClock: @Sendable () -> Double
    private let queue = DispatchQueue(label: "signpad-documents")
    private let finished = Mutex<[(ticket: Int, outcome: Outcome)]>([])
    private let taken: @Sendable () -> Void

    /// `taken` is called on the intake's thread when an outcome is waiting.
    public init(directory: String, maxBytes: Int, requireReview: Bool = true, certificateEnds: Double? = nil, time: TimeSource = .system,
                taken: @escaping @Sendable () -> Void) {
        self.directory = directory
        self.maxBytes = maxBytes
        self.requireReview = requireReview
        self.certificateEnds = certificateEnds
        wallClock = time.wall
        self.taken = taken
    }

    public func submit(_ job: Job) {
        queue.async { [self] in
            let outcome: Outcome
            if let ends = certificateEnds, wallClock() >= ends {
                outcome = .refused("the kiosk's document certificate ended \(ISO8601.string(ends)): a document signed under it would not validate; renew it (signpad key certificate, or signpad key csr for the CA) and reload signpad")
            } else {
                outcome = Self.take(job, maxBytes: maxBytes, requireReview: requireReview)
            }
            finished.withLock { $0.append((job.ticket, outcome)) }
            taken()
        }
    }

    /// The outcomes finished since the last call.
    public func outcomes() -> [(ticket: Int, outcome: Outcome)] {
        finished.withLock { finished in defer { finished = [] }; return finished }
    }

    static func take(_ job: Job, maxBytes: Int, requireReview: Bool = true) -> Outcome {
        let bytes: [UInt8]
        switch read(job.path, maxBytes: maxBytes) {
        case .success(let read): bytes = read
        case .failure(let reason): return .refused(reason.description)
        }
        let hash = SHA256.hex(bytes)
        guard hash == job.sha256 else { return .refused("its SHA-256 is \(hash), not the \(job.sha256) the request gave: the file is not the document the point of sale meant") }
        do {
            let document = try PDFDocument(bytes: bytes)
            let pages = try document.pages()
            let target = try document.target(job.placement, pages: pages)
            // Signed once through with stand-ins now: what would fail at Done fails here, before
            // the customer signs, and not after.
            let trial = PDFSignatureContent(appearance: [], standardFonts: ["Helv": "Helvetica"], signingTime: "D:20260101000000Z",
                                            attachment: .init(name: "trial", mimeType: "application/pkcs7-mime", description: "", bytes: [0]))
            _ = try PDFSigner.sign(document, at: target, pages: pages, content: trial, reserved: 16) { _, _ in [0x30, 0] }
            let review = DocumentReview(pageCount: pages.count, field: mark(target, on: pages[target.pageIndex]), everyPage: requireReview)
            return .taken(SignedDocument(bytes: bytes, placement: job.placement), review: review, field: target.name)
        } catch {
            return .refused("it cannot be signed: \(error)")
        }
    }

    /// Where the field is on its page as the renderer draws it (the crop box, upright); nil on a
    /// turned page, and for a field that lies off its page (as a page of 10⁻¹⁴ points makes any
    /// field), which are shown without the outline.
    static func mark(_ target: PDFSignatureTarget, on page: PDFPage) -> DocumentReview.FieldMark? {
        let box = page.cropBox, rect = target.rect
        guard page.rotate % 360 == 0, box.width > 0, box.height > 0 else { return nil }
        let mark = DocumentReview.FieldMark(page: target.pageIndex, left: (rect.minX - box.minX) / box.width, top: (box.maxY - rect.maxY) / box.height,
                                            width: rect.width / box.width, height: rect.height / box.height)
        return mark.liesOnItsPage ? mark : nil
    }

    /// The file's bytes: a regular file, not a link, at most `maxBytes`.
    static func read(_ path: String, maxBytes: Int) -> Result<[UInt8], ReadRefusal> {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            let why = code == ENOENT ? "there is no such file" : code == ELOOP ? "it is a symbolic link, which signpad does not follow" : String(cString: strerror(code))
            return .failure(ReadRefusal("\(why)"))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return .failure(ReadRefusal("it is not a regular file")) }
        guard info.st_size <= maxBytes else { return .failure(ReadRefusal("it has \(info.st_size) bytes; documents.max_bytes takes at most \(maxBytes)")) }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return .failure(ReadRefusal(n == 0 ? "it became shorter while it was read" : String(cString: strerror(errno)))) }
            done += n
        }
        // One that grew while read is refused too: the point of sale was still writing it.
        var extra: UInt8 = 0
        guard Glibc.read(fd, &extra, 1) == 0 else { return .failure(ReadRefusal("it grew while it was read: write it whole, then ask")) }
        return .success(bytes)
    }

    struct ReadRefusal: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
