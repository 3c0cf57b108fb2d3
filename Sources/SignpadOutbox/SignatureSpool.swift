import FoundationEssentials
import Glibc
import SignpadCrypto
import SignpadExport
import SignpadInk
import SignpadVocabulary

/// A spool file that could not be read back; it is set aside as `<name>.bad`, never deleted.
public struct SpoolError: Error, CustomStringConvertible, Equatable {
    public var path: String
    public var reason: String

    public var description: String { "\(path): \(reason)" }
}

/// A local folder that holds every confirmed signature, as captured, until all its exports are
/// in place, so a signature outlives a crash, a power cut or a restart while the export folder
/// fails. Files are written as exports are (temporary name, fsync, rename, folder fsync).
/// Writing a signature's exports twice gives the same files, so one found again after its
/// exports were written (a crash between the two) is harmless.
public struct SignatureSpool: Sendable {
    public let directory: String
    private let folder: FolderWriter

    public init(directory: String) {
        self.directory = directory
        folder = FolderWriter(directory: directory, role: "the spool")
    }

    static let suffix = ".spool.json"
    /// The largest spool file read. A signature's files are a few hundred KiB (a full screen of
    /// ink at `export.scale = 4` a few MiB), and a signed document at most `documents.max_bytes`
    /// (128 MiB) and its update, all in base64 (a third more); a larger file is damage or an attack, and reading it whole
    /// would take its size in memory several times over.
    public static let maxFileBytes = 192 << 20

    /// Keeps a signature's finished files: the spool holds what the export folder will, sealed
    /// envelopes and all, and never clear samples that a recipient certificate would seal.
    public func keep(_ sealed: SealedSignature) throws {
        try folder.write([(sealed.id + Self.suffix, try SpooledFiles(sealed).encoded())])
    }

    /// Forgets a signature whose exports are all written.
    public func release(_ id: String) throws {
        try folder.remove(id + Self.suffix)
    }

    /// What a spool file holds: the finished files, or (from a signpad before 2026-11-26) the
    /// record, which is exported as it is written now.
    public enum Kept: Equatable, Sendable {
        case sealed(SealedSignature)
        case record(SignatureRecord)

        public var id: String {
            switch self {
            case .sealed(let sealed): return sealed.id
            case .record(let record): return record.id
            }
        }
    }

    /// Every signature the spool holds, oldest first, and the files that could not be read;
    /// those are renamed `<name>.bad` so they are neither lost nor read again. A file from a
    /// signpad that kept no `CaptureSettings` (before 2026-11-23) gets `olderFilesAs`.
    public func recover(olderFilesAs settings: CaptureSettings) throws -> (kept: [Kept], problems: [SpoolError]) {
        try folder.prepare()
        var kept: [Kept] = [], problems: [SpoolError] = []
        for name in try folder.names().filter({ $0.hasSuffix(Self.suffix) }).sorted() {
            let path = "\(directory)/\(name)"
            let id = String(name.dropLast(Self.suffix.count))
            do {
                let data = try Self.read(path)
                if let files = try SpooledFiles.decode(data, path: path) {
                    kept.append(.sealed(try files.sealed(id: id, path: path)))
                    continue
                }
                let spooled = try SpooledSignature.decode(data, path: path)
                // The id names the exports; one that is not the file's own name could point anywhere.
                guard spooled.id == id else {
                    throw SpoolError(path: path, reason: "expected the id \"\(id)\" (the file's name), found \"\(spooled.id)\"")
                }
                kept.append(.record(try spooled.record(olderFilesAs: settings, path: path)))
            } catch {
                let reason = (error as? SpoolError)?.reason ?? "cannot be read: \(error)"
                problems.append(SpoolError(path: path, reason: reason + "; kept as \(name).bad"))
                rename(path, path + ".bad")
            }
        }
        return (kept, problems)
    }

    /// A spool file's bytes; what stops them said in a line (a folder in its place, or the
    /// system's reason), not as Foundation's error dump.
    private static func read(_ path: String) throws -> Data {
        var isFolder = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder {
            throw SpoolError(path: path, reason: "is a folder, not a spool file")
        }
        var info = stat()
        if stat(path, &info) == 0, info.st_size > maxFileBytes {
            throw SpoolError(path: path, reason: "expected at most \(maxFileBytes >> 20) MiB, found \(info.st_size) bytes; set aside unread")
        }
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            // Grown since the size was read: still bounded.
            guard data.count <= maxFileBytes else {
                throw SpoolError(path: path, reason: "expected at most \(maxFileBytes >> 20) MiB, found \(data.count) bytes; set aside unread")
            }
            return data
        } catch let error as SpoolError {
            throw error
        } catch {
            throw SpoolError(path: path, reason: "cannot be read: \(FileErrorText.reason(error))")
        }
    }
}

/// A signature's files as they go into the export folder: the formats (sealed ones as `.p7m`),
/// then the manifest's signature and the manifest.
public struct SealedSignature: Equatable, Sendable {
    public var id: String
    public var files: [ExportFile]

    public init(id: String, files: [ExportFile]) {
        self.id = id
        self.files = files
    }
}

/// The spool's file for a sealed signature: its files, byte for byte.
private struct SpooledFiles: Codable {
    static let version = 2

    struct File: Codable {
        var name: String
        var base64: String
    }

    var format = SpooledSignature.formatName
    var version = Self.version
    var files: [File]

    init(_ sealed: SealedSignature) {
        files = sealed.files.map { File(name: $0.name, base64: Data($0.bytes).base64EncodedString()) }
    }

    func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Array(try encoder.encode(self))
    }

    /// nil: not a file of this version (an older signpad's record).
    static func decode(_ data: Data, path: String) throws(SpoolError) -> SpooledFiles? {
        struct Version: Decodable { var format: String; var version: Int }
        guard let header = try? JSONDecoder().decode(Version.self, from: data), header.format == SpooledSignature.formatName,
              header.version == Self.version else { return nil }
        do {
            return try JSONDecoder().decode(SpooledFiles.self, from: data)
        } catch {
            throw SpoolError(path: path, reason: "expected version \(Self.version) of a signpad spool file (JSON with format, version and files, each with name and base64)")
        }
    }

    /// The files, once each is one of the signature's (named after it, in the folder itself),
    /// the last two are its manifest's signature and the manifest, and the manifest lists exactly
    /// the others with their sizes and hashes: a damaged file would be exported as evidence.
    func sealed(id: String, path: String) throws(SpoolError) -> SealedSignature {
        let manifestName = "\(id).meta.json"
        var decoded: [ExportFile] = []
        for file in files {
            guard file.name.hasPrefix(id + "."), !file.name.contains("/"), let bytes = Data(base64Encoded: file.base64) else {
                throw SpoolError(path: path, reason: "expected files named \(id).<format> with base64 contents, found \"\(file.name)\"")
            }
            decoded.append(ExportFile(name: file.name, bytes: Array(bytes)))
        }
        guard decoded.count >= 3, decoded[decoded.count - 1].name == manifestName,
              decoded[decoded.count - 2].name == manifestName + Evidence.signatureSuffix else {
            throw SpoolError(path: path, reason: "expected at least one format, then \(manifestName)\(Evidence.signatureSuffix) and \(manifestName), last")
        }
        let listed = decoded.dropLast(SignatureEncoder.sealCount)
        guard let manifest = try? JSONDecoder().decode(SignatureMetadata.self, from: Data(decoded[decoded.count - 1].bytes)),
              manifest.files.count == listed.count,
              listed.allSatisfy({ manifest.files[$0.name] == SignatureMetadata.FileEntry(sha256: SHA256.hex($0.bytes), bytes: $0.bytes.count) }) else {
            throw SpoolError(path: path, reason: "its files do not match its manifest's sizes and SHA-256 sums: damaged")
        }
        return SealedSignature(id: id, files: decoded)
    }
}

/// The spool's file of a signpad before 2026-11-26: the record exactly as captured, read so
/// that a signature it left is exported. Times are the samples' own (monotonic)
/// seconds, so every export format computes the same offsets from it as from the live record.
struct SpooledSignature: Codable {
    static let formatName = "signpad-spool"
    /// The last second ISO 8601's four-digit years can write (9999-12-31T23:59:59Z).
    static let latestWallClock = 253_402_300_799.0
    /// Seconds between a signature's first sample and any other: decades, where a signature
    /// takes seconds. Beyond it an export's times in milliseconds would overflow to infinity,
    /// which JSON cannot hold, and the signature would fail at every try.
    static let maxSpan = 1e9
    static let currentVersion = 1

    var format = formatName
    var version = currentVersion
    var id: String
    var startedAt: Double
    var endedAt: Double
    var device: String
    var screenWidth: Int
    var screenHeight: Int
    /// Per stroke, per sample: [x, y, time] or [x, y, time, pressure].
    var strokes: [[[Double]]]
    /// `CaptureSettings`; absent from the files of an older signpad, which still read as version 1.
    var kiosk: String?
    /// "#RRGGBB".
    var inkColor: String?
    var pen: SpooledPen?
    /// The screen's ink area as [minX, minY, maxX, maxY]; absent in files from before it was kept.
    var inkArea: [Int]?
    /// The point of sale's request it answers; absent when none.
    var request: SignatureRequest?

    /// A `SmootherOptions`, named as the configuration names its keys.
    struct SpooledPen: Codable {
        var widthMode: String
        var width: Double?
        var minWidth: Double?
        var maxWidth: Double?
        var velocityFilterWeight: Double?
        var minDistance: Double

        init(_ pen: SmootherOptions) {
            minDistance = pen.minDistance
            switch pen.width {
            case .constant(let w): (widthMode, width) = ("constant", w)
            case .pressure(let lo, let hi): (widthMode, minWidth, maxWidth) = ("pressure", lo, hi)
            case .velocity(let lo, let hi, let k): (widthMode, minWidth, maxWidth, velocityFilterWeight) = ("velocity", lo, hi, k)
            }
        }

        /// The pen; one out of reason (10⁹ px wide would make an image of any size) is refused.
        func options(path: String) throws(SpoolError) -> SmootherOptions {
            let width: PenWidth
            switch (widthMode, self.width, minWidth, maxWidth, velocityFilterWeight) {
            case ("constant", let w?, _, _, _): width = .constant(w)
            case ("pressure", _, let lo?, let hi?, _): width = .pressure(min: lo, max: hi)
            case ("velocity", _, let lo?, let hi?, let k?): width = .velocity(min: lo, max: hi, filterWeight: k)
            default:
                throw SpoolError(path: path, reason: "pen: expected widthMode \"constant\" with width, \"pressure\" with minWidth and maxWidth, or \"velocity\" with those and velocityFilterWeight, found \"\(widthMode)\"")
            }
            if let problem = width.problem { throw SpoolError(path: path, reason: "pen: \(problem)") }
            guard SmootherOptions.allowedMinDistances.contains(minDistance) else {
                throw SpoolError(path: path, reason: "pen: expected a minDistance from 0 to 100 (px), got \(minDistance)")
            }
            return SmootherOptions(minDistance: minDistance, width: width)
        }
    }

    init(_ record: SignatureRecord) {
        id = record.id
        startedAt = record.startedAt
        endedAt = record.endedAt
        device = record.device
        screenWidth = record.screenWidth
        screenHeight = record.screenHeight
        strokes = record.signature.strokes.map { stroke in
            stroke.map { s in [s.point.x, s.point.y, s.time] + (s.pressure.map { [$0] } ?? []) }
        }
        kiosk = record.settings.kiosk
        inkColor = XRGB.hex(record.settings.inkColor)
        pen = SpooledPen(record.settings.pen)
        inkArea = record.inkArea.map { [$0.minX, $0.minY, $0.maxX, $0.maxY] }
        request = record.request
    }

    func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Array(try encoder.encode(self))
    }

    static func decode(_ data: Data, path: String) throws -> SpooledSignature {
        let spooled: SpooledSignature
        do {
            spooled = try JSONDecoder().decode(SpooledSignature.self, from: data)
        } catch {
            throw SpoolError(path: path, reason: "expected a signpad spool file (JSON with format, version and files; or, from a signpad before 2026-11-26, id, startedAt, endedAt, device, screenWidth, screenHeight, strokes)")
        }
        guard spooled.format == formatName, spooled.version == currentVersion else {
            throw SpoolError(path: path, reason: "expected format \"\(formatName)\" version \(currentVersion) or \(SpooledFiles.version), found \"\(spooled.format)\" version \(spooled.version)")
        }
        // What was spooled came from the screen; anything else would make an export of any size,
        // and a failure at every start, so it is set aside instead.
        let (width, height) = (spooled.screenWidth, spooled.screenHeight)
        // (A 32768x32768 one took 13.7 GB at every start.)
        guard ScreenLimit.allows(width: width, height: height) else {
            throw SpoolError(path: path, reason: "expected a screen from 1x1 to \(ScreenLimit.description), found \(width)x\(height)")
        }
        // Times out of reason (a damaged or edited file) would fail every export of it, and the
        // exports queued behind it would wait on it for ever.
        for (name, time) in [("startedAt", spooled.startedAt), ("endedAt", spooled.endedAt)] where !(0...Self.latestWallClock).contains(time) {
            throw SpoolError(path: path, reason: "\(name): expected seconds since 1970 from 0 to \(Int(Self.latestWallClock)), found \(time)")
        }
        let firstTime = spooled.strokes.first?.first.flatMap { $0.count > 2 ? $0[2] : nil } ?? 0
        for (i, stroke) in spooled.strokes.enumerated() {
            if stroke.isEmpty { throw SpoolError(path: path, reason: "stroke \(i + 1): expected at least one sample") }
            for (j, sample) in stroke.enumerated() {
                let at = "stroke \(i + 1), sample \(j + 1)"
                guard sample.count == 3 || sample.count == 4 else {
                    throw SpoolError(path: path, reason: "\(at): expected [x, y, time] or [x, y, time, pressure], found \(sample.count) numbers")
                }
                guard (0...Double(width)).contains(sample[0]), (0...Double(height)).contains(sample[1]) else {
                    throw SpoolError(path: path, reason: "\(at): expected a point on the \(width)x\(height) screen, found (\(sample[0]), \(sample[1]))")
                }
                guard abs(sample[2] - firstTime) <= Self.maxSpan else {
                    throw SpoolError(path: path, reason: "\(at): expected a time within \(Int(Self.maxSpan)) s of the first sample's (\(firstTime)), found \(sample[2])")
                }
                guard sample.count == 3 || (0...1).contains(sample[3]) else {
                    throw SpoolError(path: path, reason: "\(at): expected a pressure from 0 to 1, found \(sample[3])")
                }
            }
        }
        return spooled
    }

    /// The record, with the settings it kept (`olderFilesAs` for those it has not: a file from an
    /// older signpad). A name with a control character would garble the exports and the journal.
    func record(olderFilesAs settings: CaptureSettings, path: String) throws(SpoolError) -> SignatureRecord {
        var kept = settings
        if let kiosk {
            if let problem = CaptureSettings.kioskNameProblem(kiosk) { throw SpoolError(path: path, reason: "kiosk: \(problem)") }
            kept.kiosk = kiosk
        }
        if let inkColor {
            guard inkColor.hasPrefix("#"), let color = XRGB.parse(inkColor) else {
                throw SpoolError(path: path, reason: "inkColor: expected a colour like \"#1A2B3C\", found \"\(inkColor)\"")
            }
            kept.inkColor = color
        }
        if let pen { kept.pen = try pen.options(path: path) }
        // Checked as the point of sale's request and the kiosk's name are where they first come in:
        // the kiosk signs what it exports, so nothing may reach the files unchecked.
        if let problem = CaptureSettings.kioskNameProblem(device) { throw SpoolError(path: path, reason: "device: \(problem)") }
        var checkedRequest: SignatureRequest?
        if let request {
            do { checkedRequest = try RequestRules.checked(request) } catch {
                throw SpoolError(path: path, reason: "request: \(error)")
            }
        }
        var area: PixelRect?
        if let inkArea {
            guard inkArea.count == 4, 0 <= inkArea[0], inkArea[0] < inkArea[2], inkArea[2] <= screenWidth,
                  0 <= inkArea[1], inkArea[1] < inkArea[3], inkArea[3] <= screenHeight else {
                throw SpoolError(path: path, reason: "inkArea: expected [minX, minY, maxX, maxY] of a rectangle on the \(screenWidth)x\(screenHeight) screen, found \(inkArea)")
            }
            area = PixelRect(minX: inkArea[0], minY: inkArea[1], maxX: inkArea[2], maxY: inkArea[3])
        }
        // Nothing the customer drew: exported, it would be a blank signature under their name.
        guard !strokes.isEmpty else { throw SpoolError(path: path, reason: "expected at least one stroke, found none") }
        let signature = Signature(strokes: strokes.map { stroke in
            stroke.map { Sample(Point($0[0], $0[1]), time: $0[2], pressure: $0.count == 4 ? $0[3] : nil) }
        })
        return SignatureRecord(id: id, signature: signature, startedAt: startedAt, endedAt: endedAt, device: device,
                               screenWidth: screenWidth, screenHeight: screenHeight, settings: kept, inkArea: area, request: checkedRequest)
    }
}
