import SignpadInk

public enum ExportFormat: String, CaseIterable, Sendable {
    case png, svg, inkml, json
}

public struct ExportOptions: Equatable, Sendable {
    public var formats: [ExportFormat]
    /// Blank space around the ink in the PNG and SVG, in output pixels.
    public var margin: Int
    /// Output pixels per screen pixel.
    public var scale: Double
    public var transparent: Bool
    public var inkColor: UInt32
    public var pen: SmootherOptions
    /// Group that owns exported files (0640) and the folder (0750); nil keeps the daemon's.
    public var group: String?
    /// Whether a missing folder is made. Not for a folder on a network share: while the share is
    /// not mounted, one made would be on local disk, hidden under the share once it is.
    public var createsFolder: Bool
    /// The kiosk written into each signature's files (metadata, InkML, PNG, SVG), so a back
    /// office that collects several kiosks' signatures in one folder knows where each was signed.
    public var kiosk: String

    public init(formats: [ExportFormat] = ExportFormat.allCases, margin: Int = 16, scale: Double = 1, transparent: Bool = false,
                inkColor: UInt32 = 0x000000, pen: SmootherOptions = SmootherOptions(), group: String? = nil, createsFolder: Bool = true,
                kiosk: String = "") {
        self.formats = formats
        self.margin = margin
        self.scale = scale
        self.transparent = transparent
        self.inkColor = inkColor
        self.pen = pen
        self.group = group
        self.createsFolder = createsFolder
        self.kiosk = kiosk
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

    public init(id: String, signature: Signature, startedAt: Double, endedAt: Double, device: String, screenWidth: Int, screenHeight: Int) {
        self.id = id
        self.signature = signature
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.device = device
        self.screenWidth = screenWidth
        self.screenHeight = screenHeight
    }

    /// The time of the first sample, which every format measures from.
    public var firstSampleTime: Double { signature.strokes.first?.first?.time ?? 0 }

    /// Milliseconds since the first sample.
    public func milliseconds(_ sample: Sample) -> Double { ((sample.time - firstSampleTime) * 1000 * 1000).rounded() / 1000 }
}
