/// The release this build is, for `signpad --version`, the log at start and bug reports.
public enum SignpadVersion {
    public static let current = "0.1.0"
}
