import FoundationEssentials

/// Changes one key of a configuration file and leaves every other line, comment and blank as it
/// was, so an administrator's file stays theirs (`signpad calibrate --write`, through
/// `ConfigFileWriter`, which writes it).
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
            if let last = lines.last, !last.trimmed.isEmpty { lines.append(ending) }
            lines += ["[\(table)]" + ending, "\(name) = \(value)" + ending, ""]
        }
        return lines.joined(separator: "\n")
    }
}
