import Foundation
import SignpadInk

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
        let lines = text.filter { $0.keyword != "Title" }.map { "\($0.keyword): \($0.value)" }
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

    static func n(_ v: Double) -> String { String(format: "%.3f", v) }
}

/// W3C InkML: channels X Y T F declared once in a traceFormat, each trace referring to its context.
/// X and Y are screen pixels, T milliseconds since the first sample, F pressure 0…1 (−1 when the
/// device has none). Numbers are written so they read back to the same Double.
public enum InkMLEncoder {
    public static func encode(_ record: SignatureRecord) -> String {
        var out = """
        <?xml version="1.0" encoding="UTF-8"?>
        <ink xmlns="http://www.w3.org/2003/InkML" documentID="\(record.id)">
          <definitions>
            <context xml:id="ctx0">
              <canvas xml:id="screen" traceFormatRef="#tf0"/>
              <traceFormat xml:id="tf0">
                <channel name="X" type="decimal" units="px"/>
                <channel name="Y" type="decimal" units="px"/>
                <channel name="T" type="decimal" units="ms"/>
                <channel name="F" type="decimal"/>
              </traceFormat>
            </context>
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
            let points = stroke.map { "\($0.point.x) \($0.point.y) \(record.milliseconds($0)) \($0.pressure ?? -1)" }
            out += "  <trace contextRef=\"#ctx0\">\(points.joined(separator: ", "))</trace>\n"
        }
        out += "</ink>\n"
        return out
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
/// milliseconds since 1970, pressure 0…1.
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
            Group(penColor: color, dotSize: pen.width.dotDiameter, minWidth: lo, maxWidth: hi,
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

public enum ISO8601 {
    public static func string(_ seconds: Double) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date(timeIntervalSince1970: seconds))
    }

    /// Seconds since 1970 of a time `string` wrote (or one without fractional seconds); nil for anything else.
    public static func seconds(_ text: String) -> Double? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date.timeIntervalSince1970 }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)?.timeIntervalSince1970
    }

    /// 20261121T170502Z: sortable and safe in a file name.
    static func basic(_ seconds: Double) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withYear, .withMonth, .withDay, .withTime, .withTimeZone]
        return formatter.string(from: Date(timeIntervalSince1970: seconds)).replacingOccurrences(of: ":", with: "")
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

    public struct SigningKey: Codable, Equatable {
        public static let ed25519 = "Ed25519"
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
