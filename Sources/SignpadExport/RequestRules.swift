import FoundationEssentials
import SignpadCrypto
import SignpadVocabulary

extension SignatureRequest {
    /// The most a file name's prefix takes, in UTF-8 bytes.
    public static let fileNamePrefixBytes = 128
    /// Room kept in every name for what goes around the id: the writer's temporary prefix and the
    /// longest suffix (`.signpad-` and `.meta.json.sig` take 23 bytes of it today).
    public static let longestAffixBytes = 64
    /// Stands between a cut reference and the hash of the whole; never made from a reference.
    public static let cutMark = "~"

    /// The reference as the start of a file name on any file system: letters and digits of any
    /// script (with their marks) and `.`, `-`, `_` kept, any other character one `_`, and no
    /// leading `.` or `-`. A prefix longer than `fileNamePrefixBytes` is cut at a character's
    /// edge and ends with `~` and a hash of the whole reference, so every name fits NAME_MAX.
    public var fileNamePrefix: String {
        let composed = reference.composed
        var safe = ""
        for character in composed {
            safe.append(Self.keptInFileNames(character) ? character : "_")
        }
        if safe.isEmpty { safe = "_" }
        if let first = safe.unicodeScalars.first, first == "." || first == "-" { safe = "_" + safe.dropFirst() }
        guard safe.utf8.count > Self.fileNamePrefixBytes else { return safe }
        let hash = Self.cutMark + SHA256.hex(Array(composed.utf8)).prefix(12)
        var cut = ""
        for character in safe {
            guard cut.utf8.count + character.utf8.count + hash.utf8.count <= Self.fileNamePrefixBytes else { break }
            cut.append(character)
        }
        return cut + hash
    }

    /// The id a request's files are named by: its prefix, then the time and a random UUID.
    public static func requestID(prefix: String, at seconds: Double) -> String {
        "\(prefix)_\(SignatureEncoder.newID(at: seconds))"
    }

    /// A letter or digit with its combining marks, or one of `.`, `-`, `_`.
    private static func keptInFileNames(_ character: Character) -> Bool {
        if character == "." || character == "-" || character == "_" { return true }
        var scalars = character.unicodeScalars.makeIterator()
        guard let base = scalars.next(), base.properties.isAlphabetic || base.properties.numericType == .decimal,
              !base.properties.isWhitespace else { return false }
        while let next = scalars.next() {
            switch next.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark: continue
            default: return false
            }
        }
        return true
    }
}

/// A request's field that breaks a rule: which, and what was expected of it.
public struct RequestProblem: Error, Equatable, CustomStringConvertible {
    public var field: String
    public var expected: String

    public var description: String { "\(field): expected \(expected)" }
}

/// What a request's values may be, wherever they come from (the control socket, a spool file):
/// enough for any sale, little enough for the screen and the file names, and cheap to lay out.
public enum RequestRules {
    public static let referenceCharacters = 64
    /// 64 characters can be 1.6 KB (emoji families); the file name needs a bound in bytes.
    public static let referenceBytes = 256
    public static let textCharacters = 200
    public static let textBytes = 2048
    /// Unicode's stream-safe text format: at most 30 combining marks in a row. Longer runs are
    /// no writing system's, and laying them out grows faster than their length.
    public static let combiningRun = 30
    /// Combining marks in one text, at most: more than 200 characters of Hindi or Thai need. Six
    /// texts of 33 characters with 30 marks each took 36 ms to lay out in one turn of the loop.
    public static let combiningMarks = 300
    public static let timeout: ClosedRange<Double> = 5...3600

    /// The request as it is kept (NFC, the hash in lowercase), or the first field that breaks a rule.
    public static func checked(_ request: SignatureRequest) throws(RequestProblem) -> SignatureRequest {
        var kept = request
        kept.reference = request.reference.composed
        let reference = kept.reference
        guard (1...referenceCharacters).contains(reference.count), reference.utf8.count <= referenceBytes,
              printable(reference), !reference.allSatisfy(\.isWhitespace) else {
            throw RequestProblem(field: "reference", expected: "1 to \(referenceCharacters) printable characters, at most \(referenceBytes) bytes of UTF-8, not all spaces (no control or invisible format characters, at most \(combiningRun) combining marks in a row)")
        }
        let textRule = "at most \(textCharacters) printable characters and \(textBytes) bytes of UTF-8 (no control or invisible format characters, at most \(combiningRun) combining marks in a row and \(combiningMarks) in all)"
        kept.title = try request.title.map { text throws(RequestProblem) in try checkedText(text, field: "title", rule: textRule) }
        kept.signer = try request.signer.map { text throws(RequestProblem) in try checkedText(text, field: "signer", rule: textRule) }
        kept.reason = try request.reason.map { text throws(RequestProblem) in try checkedText(text, field: "reason", rule: textRule) }
        var lines: [String] = []
        for line in request.lines { lines.append(try checkedText(line, field: "lines", rule: "lines of " + textRule + " each")) }
        kept.lines = lines
        if let hash = request.documentSha256 {
            // Unicode calls fullwidth digits hex digits too; a SHA-256 is ASCII.
            guard hash.utf8.count == 64, hash.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0 | 0x20) }) else {
                throw RequestProblem(field: "documentSha256", expected: "64 hexadecimal digits, 0-9 and a-f (a SHA-256)")
            }
            kept.documentSha256 = hash.lowercased()
        }
        return kept
    }

    /// A request's timeout when the point of sale gives none: the kiosk's idle timeout, or, where
    /// the kiosk never wipes (`idle_timeout = 0`), five minutes: a request must end.
    public static func defaultTimeout(idleTimeout: Double) -> Double {
        idleTimeout > 0 ? min(max(idleTimeout, timeout.lowerBound), timeout.upperBound) : 300
    }

    public static func checkTimeout(_ seconds: Double) throws(RequestProblem) {
        guard seconds.isFinite, timeout.contains(seconds) else {
            throw RequestProblem(field: "timeoutSeconds", expected: "seconds from \(Int(timeout.lowerBound)) to \(Int(timeout.upperBound))")
        }
    }

    private static func checkedText(_ text: String, field: String, rule: String) throws(RequestProblem) -> String {
        let composed = text.composed
        guard composed.count <= textCharacters, composed.utf8.count <= textBytes, printable(composed) else {
            throw RequestProblem(field: field, expected: rule)
        }
        return composed
    }

    /// No control or format characters (but the joiners emoji and Indic scripts need), and no
    /// run of combining marks past the stream-safe limit.
    private static func printable(_ text: String) -> Bool {
        var run = 0, marks = 0
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control: return false
            case .format where scalar != "\u{200D}" && scalar != "\u{200C}": return false
            case .nonspacingMark, .spacingMark, .enclosingMark:
                run += 1
                marks += 1
                if run > combiningRun || marks > combiningMarks { return false }
            default: run = 0
            }
        }
        return true
    }
}

extension String {
    /// Unicode's canonical composition (NFC), from the standard library: Foundation's
    /// `precomposedStringWithCanonicalMapping` would link Foundation and ICU for it.
    var composed: String { String(decoding: _nfcCodeUnits, as: UTF8.self) }
}
