import FoundationEssentials
import SignpadExport
import SignpadInput
import SignpadOutbox
import SignpadVocabulary

public struct ReplayError: Error, CustomStringConvertible {
    public var description: String
}

/// The whole kiosk offscreen on a recording: the same decoder, kiosk, renderer and exporter as
/// the daemon, with the recording's clock.
public struct Replay {
    public var options: ReplayOptions
    public var width: Int
    public var height: Int
    public var confirmAtEnd = true
    public let painter: MakeScreenPainter

    public init(_ options: ReplayOptions, width: Int, height: Int, painter: @escaping MakeScreenPainter) {
        self.options = options
        self.width = width
        self.height = height
        self.painter = painter
    }

    public struct Outcome {
        /// The ids written, in order.
        public var saved: [String]
        /// Their files' names, in the order written.
        public var files: [String]
        public var lastFailure: String?
        /// What the panel would show at the end, in scanout orientation.
        public var screen: Canvas
        public var session: Session
    }

    /// The key that signs the manifests: `export.signing_key` when the configuration gives it,
    /// else one of the output folder's own (`signing.key` in it), made if missing.
    public static func keyPath(_ evidence: EvidenceOptions, outputDirectory: String) -> String {
        evidence.signingKeyGiven ? evidence.signingKey : PathText.join(outputDirectory, Self.keyName)
    }

    public static let keyName = "signing.key"

    /// `tell` hears the session's notices, as the daemon's journal would.
    public func run(_ recording: EvemuRecording, outputDirectory: String, tell: (Notice) -> Void) throws -> Outcome {
        var export = options.export
        export.createsFolder = true
        let display = HeadlessDisplay(width: width, height: height, rotation: options.rotation)
        let folder = FolderWriter(directory: outputDirectory, role: "the output folder")
        try folder.prepare()
        let (evidence, _) = try options.evidence.load(keyPath: Self.keyPath(options.evidence, outputDirectory: outputDirectory))
        let exporter = Exporter(directory: outputDirectory, options: export, evidence: evidence, retrySeconds: options.retrySeconds)
        defer { exporter.stop() }
        try exporter.prepare()
        let session = try Session(options.session, display: display, exporter: exporter, painter: painter)
        var saved: [String] = []
        var files: [String] = []
        func written() {
            for event in session.takeEvents() {
                switch event {
                case .exportResult(let result) where result.error == nil && !result.lookedUp:
                    saved.append(result.recordID)
                    files += result.files.map(\.name)
                case .notice(let notice):
                    tell(notice)
                default:
                    break
                }
            }
        }
        var now = session.play(recording.events, from: try session.addInput(recording))
        written()
        // A double tap at the very end confirms when its quiet has passed, as on the panel.
        if let at = session.kiosk.doubleTapConfirmsAt {
            now = at
            session.tick(now: now)
            written()
        }
        if confirmAtEnd && session.kiosk.hasInk { session.confirm(now: now) }
        guard exporter.waitUntilIdle(timeout: 30) else {
            session.tick(now: now)
            written()
            throw ReplayError(description: "\(outputDirectory): the export did not finish: \(session.lastFailure ?? "timed out")")
        }
        session.tick(now: now)
        written()
        return Outcome(saved: saved, files: files, lastFailure: session.lastFailure, screen: display.scanout.turned(session.renderer.canvas),
                       session: session)
    }
}

extension Canvas {
    /// Writes the canvas as an RGB PNG named `name` in `directory` (the last screen of a replay), as
    /// the exports are written: atomically, and readable by the owner and the group only, as it
    /// may show a signature.
    public func writePNG(named name: String, in directory: String) throws {
        let bytes = PNGEncoder.encode(width: width, height: height, channels: .rgb) { self[$0, $1] }
        try FolderWriter(directory: directory, role: "the output folder").write([(name: name, bytes: bytes)])
    }
}
