import FoundationEssentials
import SignpadExport

/// Reads whole UTF-8 text files (configurations, recordings) with errors that say why.
public enum TextFile {
    /// The file's text. `what` names it in the error ("the recording"), `format` says what text
    /// was expected when the bytes are not UTF-8.
    /// `limit`: the most bytes such a file can be (`BoundedFile`).
    public static func read(_ path: String, what: String, format: String, limit: Int) throws(TextFileError) -> String {
        let data: [UInt8]
        do {
            data = try BoundedFile.read(path, limit: limit)
        } catch {
            throw TextFileError(path: path, what: what, reason: "\(error)", isMissing: error.isMissing)
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw TextFileError(path: path, what: what, reason: "expected \(format)", isMissing: false)
        }
        return text
    }
}

public struct TextFileError: Error, CustomStringConvertible, Equatable {
    public var path: String
    public var what: String
    public var reason: String
    /// The file is not there at all (rather than unreadable).
    public var isMissing: Bool

    public init(path: String, what: String, reason: String, isMissing: Bool) {
        self.path = path
        self.what = what
        self.reason = reason
        self.isMissing = isMissing
    }

    public var description: String { "\(path): cannot read \(what): \(reason)" }
}
