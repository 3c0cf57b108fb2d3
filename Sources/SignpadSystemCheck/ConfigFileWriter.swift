import SignpadConfig
import SignpadExport
import SignpadOutbox

/// The configuration file edited on disk (`signpad calibrate --write`): `ConfigFileEdit`'s edit,
/// checked by loading it, then the file replaced.
public enum ConfigFileWriter {
    /// Sets `key` in the configuration file at `path` (made if missing) and returns the line it
    /// is on. The edited text must load as a configuration with `value` at `key`, else nothing is
    /// written: a file that was valid stays valid, and one that was not is left for its owner.
    public static func set(_ key: String, to value: TOMLValue, inFile path: String) throws -> Int {
        let text: String
        do throws(TextFileError) {
            text = try TextFile.read(path, what: "the configuration file", format: "UTF-8 text (TOML)", limit: BoundedFile.configurationBytes)
        } catch {
            guard error.isMissing else { throw error }
            text = ""
        }
        let edited = try ConfigFileEdit.setting(key, to: value, in: text, file: path)
        let reread = try Config.load(text: edited, file: path)
        guard let written = reread.effective.first(where: { $0.key == key }), written.value == value,
              let line = try TOMLParser.parse(edited, file: path)[key]?.line else {
            throw ConfigError(file: path, line: 0, key: key, message: "the edited file does not read back as \(value); nothing was written")
        }
        try FileReplacement.replace(path, with: Array(edited.utf8), what: "the configuration")
        return line
    }
}
