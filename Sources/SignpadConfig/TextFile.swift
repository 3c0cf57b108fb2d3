import Foundation

/// Reads whole UTF-8 text files (configurations, recordings) with errors that say why.
public enum TextFile {
    /// The file's text. `what` names it in the error ("the recording"), `format` says what text
    /// was expected when the bytes are not UTF-8.
    public static func read(_ path: String, what: String, format: String) throws(TextFileError) -> String {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            // The underlying POSIX error says why ("No such file or directory"); the outer one is vague.
            let underlying = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? Error).map { $0 as NSError }
            let code = underlying.flatMap { $0.domain == NSPOSIXErrorDomain ? Int32($0.code) : nil }
            throw TextFileError(path: path, what: what, reason: code.map { String(cString: strerror($0)) } ?? "not a readable file",
                                isMissing: code == ENOENT)
        }
        guard let text = String(data: data, encoding: .utf8) else {
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
