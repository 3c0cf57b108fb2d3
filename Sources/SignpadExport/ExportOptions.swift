import SignpadInk
import SignpadPDF
import SignpadVocabulary

public enum ExportFormat: String, CaseIterable, Sendable {
    case png, svg, inkml, json
    /// ISO/IEC 19794-7's binary record, and the same in a CBEFF XML record.
    case iso19794_7 = "iso19794-7", cbeff

    /// What the configuration asks for when it names none: the four signpad has always written.
    public static let defaults: [ExportFormat] = [.png, .svg, .inkml, .json]

    /// The name a format's file gets after the signature's id and a dot.
    public var fileSuffix: String {
        switch self {
        case .png, .svg, .inkml, .json: rawValue
        case .iso19794_7: "sig.bin"
        case .cbeff: "cbeff.xml"
        }
    }
}

/// What the files are like: which formats, and how the images are framed. How the ink looks
/// and where it was signed go with each signature (`CaptureSettings`).
public struct ExportOptions: Equatable, Sendable {
    public var formats: [ExportFormat]
    /// Blank space around the ink in the PNG and SVG, in output pixels.
    public var margin: Int
    /// Output pixels per screen pixel.
    public var scale: Double
    public var transparent: Bool
    /// Group that owns exported files (0640) and the folder (0750); nil keeps the daemon's.
    public var group: String?
    /// Whether a missing folder is made. Not for a folder on a network share: while the share is
    /// not mounted, one made would be on local disk, hidden under the share once it is.
    public var createsFolder: Bool

    public init(formats: [ExportFormat] = ExportFormat.defaults, margin: Int = 16, scale: Double = 1, transparent: Bool = false,
                group: String? = nil, createsFolder: Bool = true) {
        self.formats = formats
        self.margin = margin
        self.scale = scale
        self.transparent = transparent
        self.group = group
        self.createsFolder = createsFolder
    }
}

/// How a signature was taken and shown, kept with it from the moment it is confirmed: one
/// written later (the export folder down for a day, then a reload with another ink colour, a
/// renamed kiosk, an upgrade) still comes out as the customer saw it and says where it was signed.
public struct CaptureSettings: Equatable, Sendable {
    /// The kiosk written into each signature's files (metadata, InkML, PNG, SVG), so a back
    /// office that collects several kiosks' signatures in one folder knows where each was signed.
    public var kiosk: String
    public var inkColor: UInt32
    public var pen: SmootherOptions

    public init(kiosk: String = "", inkColor: UInt32 = 0x000000, pen: SmootherOptions = SmootherOptions()) {
        self.kiosk = kiosk
        self.inkColor = inkColor
        self.pen = pen
    }

    /// What a kiosk's name must be, wherever it is read from (the configuration, the spool): it
    /// goes into JSON, XML and the journal, where a control character would garble a line.
    /// Nil when it is fine, else what was expected.
    public static func kioskNameProblem(_ name: String) -> String? {
        if let control = name.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) {
            return "expected a name without control characters, found \(control.codePoint)"
        }
        guard name.utf8.count <= 255 else { return "expected at most 255 bytes, got \(name.utf8.count)" }
        return nil
    }
}

/// One confirmed signature with what is known about its capture.
public struct SignatureRecord: Equatable, Sendable {
    /// The basename of its files, e.g. 20261121T170502Z-<uuid>.
    public var id: String
    public var signature: Signature
    /// Wall-clock time (seconds since 1970) of the first sample; sample times are offsets from it.
    public var startedAt: Double
    public var endedAt: Double
    public var device: String
    public var screenWidth: Int
    public var screenHeight: Int
    public var settings: CaptureSettings
    /// Where the screen drew ink (the signature box, less its border): the images are clipped to
    /// it as the screen was. nil: nowhere but the screen's edges (a record from before it was kept).
    public var inkArea: PixelRect?
    /// The point of sale's request it answers; nil: signed at the pad unasked.
    public var request: SignatureRequest?
    /// The screen's pixels per millimetre, when its panel reports its size.
    public var pixelDensity: PixelDensity?
    /// Screen pixels per millimetre of the writing surface of the device of the first stroke,
    /// from its resolution; nil when it gives none.
    public var inputDensity: InputDensity?
    /// The point of sale's PDF the signature goes into, and where; nil: none.
    public var document: SignedDocument?

    public init(id: String, signature: Signature, startedAt: Double, endedAt: Double, device: String, screenWidth: Int, screenHeight: Int,
                settings: CaptureSettings = CaptureSettings(), inkArea: PixelRect? = nil, request: SignatureRequest? = nil,
                pixelDensity: PixelDensity? = nil) {
        self.request = request
        self.pixelDensity = pixelDensity
        self.id = id
        self.signature = signature
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.device = device
        self.screenWidth = screenWidth
        self.screenHeight = screenHeight
        self.settings = settings
        self.inkArea = inkArea
    }

    /// The devices a signature was drawn with, as its files name them: a device names itself
    /// with any bytes (uinput takes a line break), and a name with a control character would
    /// forge lines in the files' text and be refused when the spool is read back.
    public static func deviceLabel(_ names: [String]) -> String {
        var label = ""
        for character in FileText.withoutControlCharacters(names.joined(separator: ", ")).map({ $0.isNewline || $0 == "\t" ? "\u{FFFD}" : $0 }) {
            guard label.utf8.count + character.utf8.count <= 255 else { break }
            label.append(character)
        }
        return label
    }

    /// The time of the first sample, which every format measures from.
    public var firstSampleTime: Double { signature.strokes.first?.first?.time ?? 0 }

    /// Milliseconds since the first sample.
    public func milliseconds(_ sample: Sample) -> Double { ((sample.time - firstSampleTime) * 1000 * 1000).rounded() / 1000 }
}

/// Screen pixels per millimetre of an input device's surface, and the device.
public struct InputDensity: Equatable, Sendable {
    public var device: String
    public var density: PixelDensity

    public init(device: String, density: PixelDensity) {
        self.device = device
        self.density = density
    }
}

/// A point of sale's PDF as signpad took it (its bytes, checked against the request's SHA-256)
/// and where in it the signature goes.
public struct SignedDocument: Equatable, Sendable {
    public var bytes: [UInt8]
    public var placement: PDFSignaturePlacement
    /// What the customer was shown of it before signing; nil: it was not shown.
    public var review: ShownDocument?

    public init(bytes: [UInt8], placement: PDFSignaturePlacement) {
        self.bytes = bytes
        self.placement = placement
    }
}

/// What the customer was shown of a document before signing, for the manifest: each page as it
/// was drawn on the pad, by which renderer, at what scale.
public struct ShownDocument: Codable, Equatable, Sendable {
    public struct Page: Codable, Equatable, Sendable {
        /// From 1.
        public var page: Int
        public var width: Int
        public var height: Int
        /// Pixels per PDF point.
        public var scale: Double
        /// Of the pixels drawn, as little-endian XRGB rows, before the field's outline.
        public var sha256: String

        public init(page: Int, width: Int, height: Int, scale: Double, sha256: String) {
            self.page = page
            self.width = width
            self.height = height
            self.scale = scale
            self.sha256 = sha256
        }
    }

    /// The renderer and its version, as "poppler 22.02.0".
    public var renderer: String
    /// Each page shown, once, in the order first shown.
    public var pages: [Page]

    public init(renderer: String, pages: [Page] = []) {
        self.renderer = renderer
        self.pages = pages
    }
}
