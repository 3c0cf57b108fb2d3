import Foundation
import SignpadExport
import SignpadOutbox

/// Changes one key of a configuration file and leaves every other line, comment and blank as it
/// was, so an administrator's file stays theirs (`signpad calibrate --write`).
public enum ConfigFileEdit {
    /// `text` with `key` ("table.key") set to `value`: replaced in place where the key is written
    /// (a comment after it stays), else added after the last key of its [table], else after the
    /// table's last top-level dotted key, else in a new [table] at the end.
    public static func setting(_ key: String, to value: TOMLValue, in text: String, file: String) throws(ConfigError) -> String {
        let parts = key.split(separator: ".", maxSplits: 1).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw ConfigError(file: file, line: 0, key: key, message: "expected a key of the form table.key")
        }
        let (table, name) = (parts[0], parts[1])
        let document = try TOMLParser.document(text, file: file)
        if let entry = document.entries[key] {
            // In place, however many lines the old value took.
            var scalars = Array(text.unicodeScalars)
            scalars.replaceSubrange(entry.valueRange, with: value.description.unicodeScalars)
            return String(String.UnicodeScalarView(scalars))
        }
        // The parser's lines: split as scalars, each keeping a CRLF file's "\r".
        var lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { String(String.UnicodeScalarView($0)) }
        // A file written with CRLF gets CRLF on the line added to it.
        let ending = lines.first.map { $0.hasSuffix("\r") } == true ? "\r" : ""
        if let header = document.tableLines[table] {
            // After the last line of the table's last value, which may span lines.
            let lastKey = document.entries.values.filter { $0.table == table && $0.line > header }.map(\.endLine).max()
            lines.insert("\(name) = \(value)" + ending, at: lastKey ?? header)
        } else if let lastDotted = document.entries.filter({ $0.value.table.isEmpty && $0.key.hasPrefix(table + ".") }).map(\.value.endLine).max() {
            // TOML forbids a [table] header for a table that dotted keys already made.
            lines.insert("\(key) = \(value)" + ending, at: lastDotted)
        } else {
            // Lines after the file's last newline: one empty string when it ends with one.
            let endsWithNewline = lines.last == ""
            if endsWithNewline { lines.removeLast() }
            if let last = lines.last, !last.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { lines.append(ending) }
            lines += ["[\(table)]" + ending, "\(name) = \(value)" + ending, ""]
        }
        return lines.joined(separator: "\n")
    }

    /// Sets `key` in the configuration file at `path` (made if missing) and returns the line it
    /// is on. The edited text must load as a configuration with `value` at `key`, else nothing is
    /// written: a file that was valid stays valid, and one that was not is left for its owner.
    public static func set(_ key: String, to value: TOMLValue, inFile path: String) throws -> Int {
        let text: String
        do {
            text = try TextFile.read(path, what: "the configuration file", format: "UTF-8 text (TOML)", limit: BoundedFile.configurationBytes)
        } catch {
            guard error.isMissing else { throw error }
            text = ""
        }
        let edited = try setting(key, to: value, in: text, file: path)
        let reread = try Config.load(text: edited, file: path)
        guard let written = reread.effective.first(where: { $0.key == key }), written.value == value,
              let line = try TOMLParser.parse(edited, file: path)[key]?.line else {
            throw ConfigError(file: path, line: 0, key: key, message: "the edited file does not read back as \(value); nothing was written")
        }
        try save(edited, to: path)
        return line
    }

    /// Replaces the file at `path` (a symbolic link's target, when it is one) with `text`, so that
    /// a reader sees the old file or the new one, never a mix; keeps the old file's mode, owner
    /// and group. A file that did not exist is made 0644 in a folder made 0755 if needed, as the
    /// daemon's user must be able to read it.
    public static func save(_ text: String, to path: String) throws(ConfigSaveError) {
        let target = resolvedPath(path)
        let folder = (target as NSString).deletingLastPathComponent, name = (target as NSString).lastPathComponent
        var status = stat()
        var owner: (uid: uid_t, gid: gid_t)?
        var mode: mode_t = 0o644
        if stat(target, &status) == 0 {
            mode = status.st_mode & 0o7777
            owner = (status.st_uid, status.st_gid)
        } else if errno != ENOENT {
            throw ConfigSaveError(path: target, operation: "stat", errno: errno)
        }
        if mkdir(folder, 0o755) != 0 && errno != EEXIST { throw ConfigSaveError(path: folder, operation: "creating the folder", errno: errno) }
        do {
            try FolderWriter(directory: folder, fileMode: mode, owner: owner, role: "the configuration's folder").write([(name: name, bytes: Array(text.utf8))])
        } catch {
            throw ConfigSaveError(path: error.path, operation: error.operation, errno: error.errno)
        }
    }

    private static func resolvedPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// Why a configuration file could not be written; names the file, the step and the system's reason.
public struct ConfigSaveError: Error, CustomStringConvertible, Equatable {
    public var path: String
    public var operation: String
    public var errno: Int32

    public var description: String {
        "\(path): cannot save the configuration: \(operation) failed" + (errno == 0 ? "" : " (\(String(cString: strerror(errno))))")
    }
}
