/// A file path's parts, by its text alone (nothing on disk is looked at), as NSString's path
/// methods give them: Foundation's would link Foundation, CoreFoundation and ICU into the binary.
public enum PathText {
    /// The last part: "c" of "/a/b/c" and of "a/c/", "/" of "/".
    public static func name(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard trimmed != "/" else { return trimmed }
        return String(trimmed.split(separator: "/", omittingEmptySubsequences: false).last ?? "")
    }

    /// All but the last part: "/a/b" of "/a/b/c", "/" of "/a", "" of "a".
    public static func folder(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        let folder = withoutTrailingSlashes(String(trimmed[..<slash]))
        return folder.isEmpty ? "/" : folder
    }

    /// `name` inside `folder` ("a/b" of "a" and "b"; just `name` when `folder` is empty).
    public static func join(_ folder: String, _ name: String) -> String {
        folder.isEmpty ? name : folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// The path with "." and empty parts gone and each ".." taking the part before it away.
    public static func normalized(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/") where part != "." {
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
            } else if part != ".." || !absolute {
                parts.append(part)
            }
        }
        let joined = parts.joined(separator: "/")
        return absolute ? "/" + joined : joined.isEmpty ? "." : joined
    }

    /// The path with each run of slashes one slash, and none at its end but a lone "/".
    private static func withoutTrailingSlashes(_ path: String) -> String {
        var out = ""
        for character in path where !(character == "/" && out.hasSuffix("/")) { out.append(character) }
        if out.count > 1 && out.hasSuffix("/") { out.removeLast() }
        return out
    }
}
