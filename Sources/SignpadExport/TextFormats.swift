import FoundationEssentials
import SignpadInk
import SignpadVocabulary

/// SVG of the same smoothed strokes as the PNG, in the PNG's pixel coordinates. `text`'s Title
/// becomes the `<title>` (a browser's tab shows it), the rest one "keyword: value" line each in
/// the `<desc>`.
public enum SVGEncoder {
    public static func encode(_ image: SignatureImage, ink: UInt32, transparent: Bool, text: [(keyword: String, value: String)] = []) -> String {
        var out = """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" width="\(image.width)" height="\(image.height)" viewBox="0 0 \(image.width) \(image.height)">

        """
        if let title = text.first(where: { $0.keyword == "Title" }) { out += "<title>\(FileText.xmlEscaped(title.value))</title>\n" }
        // A value's own line breaks are folded (the next line indented), so no value can start a
        // line that reads as another keyword's.
        let lines = text.filter { $0.keyword != "Title" }.map { "\($0.keyword): \($0.value.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).joined(separator: "\n  "))" }
        if !lines.isEmpty { out += "<desc>\(FileText.xmlEscaped(lines.joined(separator: "\n")))</desc>\n" }
        if !transparent { out += "<rect width=\"100%\" height=\"100%\" fill=\"#FFFFFF\"/>\n" }
        let color = XRGB.hex(ink)
        // The screen's ink area: ink beyond it was clipped on the screen, and is here.
        let c = image.clip
        out += "<clipPath id=\"ink-area\"><rect x=\"\(c.minX)\" y=\"\(c.minY)\" width=\"\(c.maxX - c.minX)\" height=\"\(c.maxY - c.minY)\"/></clipPath>\n"
        out += "<g clip-path=\"url(#ink-area)\" fill=\"none\" stroke=\"\(color)\" stroke-linecap=\"round\" stroke-linejoin=\"round\">\n"
        for stroke in image.pieces {
            for piece in stroke {
                switch piece {
                case .dot(let c, let d):
                    out += "<circle cx=\"\(n(c.x))\" cy=\"\(n(c.y))\" r=\"\(n(d / 2))\" fill=\"\(color)\" stroke=\"none\"/>\n"
                case .cubic(let s):
                    let width = (s.startWidth + s.endWidth) / 2
                    out += "<path stroke-width=\"\(n(width))\" d=\"M\(n(s.p0.x)) \(n(s.p0.y))C\(n(s.c1.x)) \(n(s.c1.y)) \(n(s.c2.x)) \(n(s.c2.y)) \(n(s.p3.x)) \(n(s.p3.y))\"/>\n"
                }
            }
        }
        out += "</g>\n</svg>\n"
        return out
    }

    static func n(_ v: Double) -> String { String(printf: "%.3f", v) }
}

/// W3C InkML as its specification describes captured ink: an `inkSource` (the device) holding
/// its `traceFormat`, a `timestamp` at the first sample, and one context tying them together, to
/// which every trace refers: a reader that keeps a single context reads them all.
///
/// X and Y are screen pixels. The specification's units have no pixel, so these channels have
/// none; when the panel reports its size, the inkSource gives their resolution in pixels per
/// millimetre (`1/mm`). T is milliseconds after the timestamp (whole milliseconds). F, pressure
/// 0…1, is a regular channel when every sample has pressure and absent when none has; when only
/// some have (a pen and a finger on one signature), F is an intermittent channel, its value `?`
/// (none given) on the samples without, so no touch gets a pressure. Numbers are plain decimals
/// that read back to the same Double.
public enum InkMLEncoder {
    public static func encode(_ record: SignatureRecord) -> String {
        let samples = record.signature.strokes.joined()
        let pressure: PressureChannel = !samples.contains { $0.pressure != nil } ? .none
            : samples.allSatisfy { $0.pressure != nil } ? .regular : .intermittent
        var out = """
        <?xml version="1.0" encoding="UTF-8"?>
        <ink xmlns="http://www.w3.org/2003/InkML" documentID="\(FileText.xmlEscaped(record.id))">
          <definitions>
            <inkSource xml:id="device" model="\(FileText.xmlEscaped(record.device))">

        """
        out += traceFormat(pressure, indent: "      ")
        if let density = record.pixelDensity {
            out += """
                  <channelProperties>
                    <channelProperty channel="X" name="resolution" value="\(decimal(density.x))" units="1/mm"/>
                    <channelProperty channel="Y" name="resolution" value="\(decimal(density.y))" units="1/mm"/>
                  </channelProperties>

            """
        }
        out += "    </inkSource>\n"
        // The specification's `time` is whole milliseconds (xs:unsignedLong); T makes up the rest.
        let start = CaptureStart(record)
        out += "    <timestamp xml:id=\"captureStart\" time=\"\(start.milliseconds)\" timeString=\"\(ISO8601.string(record.startedAt))\"/>\n"
        out += "    <context xml:id=\"\(context)\" inkSourceRef=\"#device\" traceFormatRef=\"#\(format)\" timestampRef=\"#captureStart\"/>\n"
        out += """
          </definitions>
          <annotation type="captureStart">\(ISO8601.string(record.startedAt))</annotation>
          <annotation type="screen">\(record.screenWidth)x\(record.screenHeight)</annotation>
          <annotation type="kiosk">\(FileText.xmlEscaped(record.settings.kiosk))</annotation>
          <annotation type="device">\(FileText.xmlEscaped(record.device))</annotation>

        """
        if let request = record.request {
            // What the point of sale asked this signature for, and the exact text the customer saw.
            var fields = [("reference", request.reference)]
            if let title = request.title { fields.append(("title", title)) }
            fields += request.lines.map { ("line", $0) }
            if let signer = request.signer { fields.append(("signer", signer)) }
            if let reason = request.reason { fields.append(("reason", reason)) }
            if let hash = request.documentSha256 { fields.append(("documentSha256", hash)) }
            for (type, value) in fields { out += "  <annotation type=\"\(type)\">\(FileText.xmlEscaped(value))</annotation>\n" }
        }
        for stroke in record.signature.strokes {
            let points = stroke.map { sample in
                let xyt = "\(decimal(sample.point.x)) \(decimal(sample.point.y)) \(decimal(start.t(sample)))"
                switch pressure {
                case .none: return xyt
                case .regular, .intermittent: return xyt + " " + (sample.pressure.map(decimal) ?? "?")
                }
            }
            out += "  <trace contextRef=\"#\(context)\">\(points.joined(separator: ", "))</trace>\n"
        }
        out += "</ink>\n"
        return out
    }

    /// The capture's start as the timestamp gives it, whole milliseconds since 1970, and each
    /// sample's T after it, to the microsecond: T of the first sample is the start's fraction.
    private struct CaptureStart {
        let milliseconds: Int64
        private let record: SignatureRecord
        private let fractionMicroseconds: Double

        init(_ record: SignatureRecord) {
            let exact = record.startedAt * 1000
            milliseconds = Int64(max(0, exact.rounded(.down)))
            fractionMicroseconds = ((exact - Double(milliseconds)) * 1000).rounded()
            self.record = record
        }

        func t(_ sample: Sample) -> Double {
            (fractionMicroseconds + ((sample.time - record.firstSampleTime) * 1_000_000).rounded()) / 1000
        }
    }

    /// Where F stands in the one trace format every stroke shares.
    private enum PressureChannel { case none, regular, intermittent }

    private static let context = "ctx"
    private static let format = "tf"

    private static func traceFormat(_ pressure: PressureChannel, indent: String) -> String {
        let f = "<channel name=\"F\" type=\"decimal\" min=\"0\" max=\"1\"/>"
        var out = "\(indent)<traceFormat xml:id=\"\(format)\">\n"
        out += "\(indent)  <channel name=\"X\" type=\"decimal\"/>\n"
        out += "\(indent)  <channel name=\"Y\" type=\"decimal\"/>\n"
        out += "\(indent)  <channel name=\"T\" type=\"decimal\" units=\"ms\" respectTo=\"#captureStart\"/>\n"
        switch pressure {
        case .none: break
        case .regular: out += "\(indent)  \(f)\n"
        case .intermittent: out += "\(indent)  <intermittentChannels>\n\(indent)    \(f)\n\(indent)  </intermittentChannels>\n"
        }
        return out + "\(indent)</traceFormat>\n"
    }

    /// `v` as a decimal with no exponent (XML Schema's decimal has none), with the digits of
    /// Swift's shortest representation, so it reads back to the same Double.
    static func decimal(_ v: Double) -> String {
        let text = v.description
        guard let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }), let exponent = Int(text[text.index(after: e)...]) else { return text }
        var mantissa = String(text[..<e])
        let negative = mantissa.hasPrefix("-")
        if negative { mantissa.removeFirst() }
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        let whole = String(parts[0]), fraction = parts.count > 1 ? String(parts[1]) : ""
        var digits = whole + fraction
        var point = whole.count + exponent
        if point <= 0 {
            digits = String(repeating: "0", count: 1 - point) + digits
            point = 1
        } else if point > digits.count {
            digits += String(repeating: "0", count: point - digits.count)
        }
        let integer = digits.prefix(point), rest = digits.dropFirst(point)
        return (negative ? "-" : "") + integer + "." + (rest.isEmpty ? "0" : rest)
    }
}

/// Names as the files carry them. A device may name itself with any bytes; the control
/// characters XML 1.0 forbids even as references (and a PNG text's NUL) become U+FFFD, so the
/// files stay ones any parser reads. Tab and line breaks are kept.
enum FileText {
    static func withoutControlCharacters(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\t", "\n", "\r": out.append(scalar)
            case "\u{0}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}": out.append("\u{FFFD}")
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    /// Character data and attribute values for XML: the five characters with a meaning escaped.
    static func xmlEscaped(_ text: String) -> String {
        var out = ""
        for c in withoutControlCharacters(text) {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(c)
            }
        }
        return out
    }
}

/// signature_pad's point-group JSON, which its `fromData` loads: x, y in screen pixels, time in
/// milliseconds since 1970, pressure 0…1. signature_pad draws each point as a circle of radius
/// `minWidth`…`maxWidth` (`dotSize` for a dot), so they are half signpad's widths.
public enum SignaturePadJSON {
    public struct Group: Codable, Equatable {
        public var penColor: String
        public var dotSize: Double
        public var minWidth: Double
        public var maxWidth: Double
        public var velocityFilterWeight: Double
        public var compositeOperation: String
        public var points: [PointData]
    }

    public struct PointData: Codable, Equatable {
        public var x: Double
        public var y: Double
        public var time: Double
        public var pressure: Double
    }

    public static func encode(_ record: SignatureRecord) throws -> [UInt8] {
        let pen = record.settings.pen
        let (lo, hi, weight): (Double, Double, Double) = {
            switch pen.width {
            case .constant(let w): return (w, w, 0.7)
            case .pressure(let a, let b): return (a, b, 0.7)
            case .velocity(let a, let b, let k): return (a, b, k)
            }
        }()
        let ink = record.settings.inkColor
        let color = "rgb(\((ink >> 16) & 0xff), \((ink >> 8) & 0xff), \(ink & 0xff))"
        let groups = record.signature.strokes.map { stroke in
            Group(penColor: color, dotSize: pen.width.dotDiameter / 2, minWidth: lo / 2, maxWidth: hi / 2,
                  velocityFilterWeight: weight, compositeOperation: "source-over",
                  points: stroke.map {
                      PointData(x: $0.point.x, y: $0.point.y, time: (record.startedAt * 1000).rounded() + record.milliseconds($0),
                                pressure: $0.pressure ?? 0.5)
                  })
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Array(try encoder.encode(groups))
    }
}

/// The metadata file: what was captured and a SHA-256 of every other file.
public struct SignatureMetadata: Codable, Equatable {
    public struct FileEntry: Codable, Equatable {
        public var sha256: String
        public var bytes: Int

        public init(sha256: String, bytes: Int) {
            self.sha256 = sha256
            self.bytes = bytes
        }
    }

    public struct Screen: Codable, Equatable {
        public var width: Int
        public var height: Int
    }

    public var id: String
    public var kiosk: String
    public var captureStart: String
    public var captureEnd: String
    public var device: String
    public var screen: Screen
    public var strokes: Int
    public var samples: Int
    public var files: [String: FileEntry]
    /// The point of sale's request, when it asked for this signature.
    public var request: SignatureRequest?
    /// The kiosk key whose signature (`<manifest>.sig`) covers these exact bytes.
    public var signingKey: SigningKey?
    /// The certificate the `.p7m` files are sealed to; absent when none is.
    public var encryptedTo: Recipient?
    /// The RFC 3161 authority (`export.timestamp_url`) asked for a token over the manifest's
    /// signature once it is written (`.meta.json.tsr`); absent when none is set. The manifest is
    /// signed before the token exists, so it names the authority that will give it.
    public var timeStampAuthority: String?
    /// The same authority, asked for a second token over the signed document's PAdES signature,
    /// which goes into that signature (`DocumentTimeStamp`); absent without a document or an
    /// authority. `verify --tsa-ca` asks for the document's token only when it is named.
    public var documentTimeStampAuthority: String?
    /// Why the point of sale's document was not signed, when the signature had one and it could
    /// not be: the signature's other files are written all the same, never held back by it.
    public var documentNotSigned: String?
    /// What the customer was shown of the document before signing.
    public var documentShown: ShownDocument?

    public struct SigningKey: Codable, Equatable {
        /// `PublicKey.Algorithm`'s name: Ed25519, or ECDSA-P256-SHA256 for a TPM's key.
        public var algorithm: String
        /// SHA-256 of the public key's DER SubjectPublicKeyInfo, hexadecimal.
        public var sha256: String

        public init(algorithm: String, sha256: String) {
            self.algorithm = algorithm
            self.sha256 = sha256
        }
    }

    public struct Recipient: Codable, Equatable {
        public static let aes256CBC = "AES-256-CBC"
        /// SHA-256 of the certificate's DER, hexadecimal.
        public var sha256: String
        public var subject: String
        public var cipher: String

        public init(sha256: String, subject: String, cipher: String) {
            self.sha256 = sha256
            self.subject = subject
            self.cipher = cipher
        }
    }
}
