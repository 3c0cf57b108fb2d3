import Foundation
import SignpadCrypto
import SignpadInk

/// Everything one signature becomes: the chosen formats, then the metadata file naming them.
public enum SignatureEncoder {
    public static func newID(at seconds: Double) -> String {
        ISO8601.basic(seconds) + "-" + UUID().uuidString.lowercased()
    }

    /// What the PNG and the SVG say of themselves, so one filed apart from its metadata still
    /// says what it is: PNG's registered keywords where one fits (Title, Creation Time, Source:
    /// the device), and Kiosk.
    static func imageText(_ record: SignatureRecord) -> [(keyword: String, value: String)] {
        var text = [("Title", record.id), ("Creation Time", ISO8601.string(record.startedAt)), ("Source", record.device), ("Kiosk", record.settings.kiosk)]
        if let request = record.request {
            text.append(("Reference", request.reference))
            if let title = request.title { text.append(("Shown", ([title] + request.lines).joined(separator: "\n"))) }
            else if !request.lines.isEmpty { text.append(("Shown", request.lines.joined(separator: "\n"))) }
            if let signer = request.signer { text.append(("Author", signer)) }
            if let reason = request.reason { text.append(("Reason", reason)) }
            if let hash = request.documentSha256 { text.append(("Document SHA-256", hash)) }
        }
        return text
    }

    /// Files in the order they must appear: the metadata last, so a reader that sees it sees all.
    public static func files(for record: SignatureRecord, options: ExportOptions) throws -> [(name: String, bytes: [UInt8])] {
        var files: [(name: String, bytes: [UInt8])] = []
        let image = SignatureImage(record.signature, pen: record.settings.pen, options: options, inkArea: record.inkArea)
        let ink = record.settings.inkColor
        for format in options.formats {
            let name = "\(record.id).\(format.rawValue)"
            switch format {
            case .png: files.append((name, image.png(transparent: options.transparent, ink: ink, text: imageText(record))))
            case .svg: files.append((name, Array(SVGEncoder.encode(image, ink: ink, transparent: options.transparent, text: imageText(record)).utf8)))
            case .inkml: files.append((name, Array(InkMLEncoder.encode(record).utf8)))
            case .json: files.append((name, try SignaturePadJSON.encode(record)))
            }
        }
        let metadata = SignatureMetadata(
            id: record.id, kiosk: record.settings.kiosk, captureStart: ISO8601.string(record.startedAt), captureEnd: ISO8601.string(record.endedAt),
            device: record.device, screen: .init(width: record.screenWidth, height: record.screenHeight),
            strokes: record.signature.strokes.count, samples: record.signature.sampleCount,
            files: Dictionary(uniqueKeysWithValues: files.map { ($0.name, SignatureMetadata.FileEntry(sha256: SHA256.hex($0.bytes), bytes: $0.bytes.count)) }),
            request: record.request)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        files.append(("\(record.id).meta.json", Array(try encoder.encode(metadata))))
        return files
    }
}
