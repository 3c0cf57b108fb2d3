import Foundation
#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// The peak resident memory of the kiosk itself on a recording: `signpad replay` of it at the
/// bench's screen size, not confirming at the end, run as a child of its own (the bench holds
/// every strategy's buffers, and its peak says nothing of a kiosk's). The child runs with the
/// bench's configuration file and overrides, and without the allocation counter preloaded.
///
/// Linux gives a child started by posix_spawn (vfork, then exec) its parent's size at that
/// moment as its own, so the bench measures it first, while it is small, and says so when the
/// figure may be the bench's rather than the kiosk's.
public enum KioskMemory {
    public struct Peak: Sendable {
        public var bytes: Int
        /// The bench's own peak when it started the child: a `bytes` above it is the child's.
        public var benchBytes: Int
        public var measured: Bool { bytes > benchBytes }
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// `executable` is signpad; `configuration` the bench's `--config` (nil: none, as the
    /// bench offscreen reads none) and `overrides` its `--set`s.
    public static func peakResidentBytes(executable: String, recording: String, width: Int, height: Int,
                                         configuration: String?, overrides: [String]) throws(Failure) -> Peak {
        let bench = ownPeakBytes()
        let folder = NSTemporaryDirectory() + "signpad-bench-kiosk-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let empty = folder + "/empty.toml"
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data().write(to: URL(fileURLWithPath: empty))
        } catch {
            throw Failure(description: "\(folder): cannot make a folder for the kiosk's replay: \(error)")
        }
        let arguments = [executable, "replay", recording, "--output-dir", folder + "/out", "--no-confirm-at-end",
                         "--screen", "\(width)x\(height)", "--config", configuration ?? empty] + overrides.flatMap { ["--set", $0] }
        let environment = ProcessInfo.processInfo.environment.filter { $0.key != "LD_PRELOAD" }.map { "\($0.key)=\($0.value)" }
        var argv = arguments.map { strdup($0) } + [nil]
        var envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable, &actions, nil, &argv, &envp)
        guard spawned == 0 else { throw Failure(description: "\(executable): cannot start it for the kiosk's replay: \(Errno(rawValue: spawned))") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw Failure(description: "waiting for the kiosk's replay: \(Errno(rawValue: errno))") }
        }
        // Exited normally with 0: WIFEXITED and WEXITSTATUS, which Swift does not import.
        guard status & 0x7F == 0, (status >> 8) & 0xFF == 0 else {
            throw Failure(description: "signpad replay \(recording) --screen \(width)x\(height) failed (wait status \(status)); run it alone to see why")
        }
        return Peak(bytes: Int(usage.ru_maxrss) * 1024, benchBytes: bench)
    }

    /// This process's own peak (VmHWM, its memory's since its exec).
    static func ownPeakBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kib = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") else { return 0 }
        return kib * 1024
    }

    public static func line(_ peak: Peak, width: Int, height: Int) -> String {
        let mib = { (bytes: Int) in String(format: "%.1f MiB", Double(bytes) / 1_048_576) }
        let figure = peak.measured ? mib(peak.bytes) : "at most \(mib(peak.bytes)) (no more than the bench held when it started it)"
        return "kiosk peak resident memory (signpad replay of this recording at \(width)x\(height), in a child): \(figure) [≤ 48 MiB at 1920x1080]"
    }
}
