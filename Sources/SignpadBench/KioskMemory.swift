import FoundationEssentials
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
        public var measuredBytes: Int? { measured ? bytes : nil }
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// `executable` is signpad; `configuration` the bench's `--config` (nil: none, as the
    /// bench offscreen reads none) and `overrides` its `--set`s.
    public static func peakResidentBytes(executable: String, recording: String, width: Int, height: Int,
                                         configuration: String?, overrides: [String]) throws(Failure) -> Peak {
        let bench = ownPeakBytes()
        let folder = FileManager.default.temporaryDirectory.path + "/signpad-bench-kiosk-" + UUID().uuidString
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
        let usage = try runChild(arguments, failure: "signpad replay \(recording) --screen \(width)x\(height)", stopWhen: nil, within: 0)
        return Peak(bytes: Int(usage.ru_maxrss) * 1024, benchBytes: bench)
    }

    /// The whole daemon's peak: `signpad run --offscreen` on the recording, pressing Done at its
    /// end, in a folder of its own (export, spool, key, socket and results there), stopped with
    /// SIGTERM once the signature's manifest is in the export folder: what a kiosk holds while it
    /// signs and exports, its control socket, exporter and time stamper included. `seconds`: how
    /// long the recording plays; ten more without a signature saved is a failure.
    public static func daemonPeakResidentBytes(executable: String, recording: String, seconds: Double, width: Int, height: Int,
                                               configuration: String?, overrides: [String]) throws(Failure) -> Peak {
        let bench = ownPeakBytes()
        let folder = FileManager.default.temporaryDirectory.path + "/signpad-bench-daemon-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let empty = folder + "/empty.toml", out = folder + "/out"
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data().write(to: URL(fileURLWithPath: empty))
        } catch {
            throw Failure(description: "\(folder): cannot make a folder for the daemon's run: \(error)")
        }
        // The socket in the bench user's own group: the package's group may not exist where the bench runs.
        let own = ["control.group": "", "export.directory": out, "export.spool_directory": folder + "/spool", "export.signing_key": folder + "/key",
                   "control.socket": folder + "/control.sock", "control.results": folder + "/results.json"]
            .sorted { $0.key < $1.key }.map { "\($0.key)=\"\($0.value)\"" }
        let arguments = [executable, "run", "--offscreen", "\(width)x\(height)", "--input-recording", recording, "--confirm-at-end",
                         "--config", configuration ?? empty] + (overrides + own).flatMap { ["--set", $0] }
        let saved = {
            ((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []).contains { $0.hasSuffix(".meta.json") }
        }
        let usage = try runChild(arguments, failure: "signpad run --offscreen \(width)x\(height) --input-recording \(recording)",
                                 stopWhen: saved, within: seconds + 10)
        return Peak(bytes: Int(usage.ru_maxrss) * 1024, benchBytes: bench)
    }

    /// Runs `arguments` (its output to /dev/null, without the allocation counter) to its end, or,
    /// with `stopWhen`, until that holds (looked at every 50 ms, for at most `within` seconds),
    /// then stops it with SIGTERM; its resource usage, once it exited 0.
    private static func runChild(_ arguments: [String], failure: String, stopWhen: (() -> Bool)?, within: Double) throws(Failure) -> rusage {
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
        let spawned = posix_spawn(&pid, arguments[0], &actions, nil, &argv, &envp)
        guard spawned == 0 else { throw Failure(description: "\(arguments[0]): cannot start it: \(Errno(rawValue: spawned))") }
        var status: Int32 = 0
        var usage = rusage()
        if let stopWhen {
            var waited = 0.0, stopped = false, timedOut = false
            while true {
                let done = wait4(pid, &status, WNOHANG, &usage)
                if done == pid { break }
                guard done == 0 || errno == EINTR else { throw Failure(description: "waiting for \(failure): \(Errno(rawValue: errno))") }
                if !stopped && (stopWhen() || waited > within) {
                    timedOut = waited > within
                    kill(pid, SIGTERM)
                    stopped = true
                }
                usleep(50_000)
                waited += 0.05
            }
            if timedOut { throw Failure(description: "\(failure): no signature saved within \(Int(within)) s (too little ink to sign, or a kiosk.mode that waits for a point of sale?)") }
        } else {
            while wait4(pid, &status, 0, &usage) < 0 {
                guard errno == EINTR else { throw Failure(description: "waiting for \(failure): \(Errno(rawValue: errno))") }
            }
        }
        // Exited normally with 0: WIFEXITED and WEXITSTATUS, which Swift does not import.
        guard status & 0x7F == 0, (status >> 8) & 0xFF == 0 else {
            throw Failure(description: "\(failure) failed (wait status \(status)); run it alone to see why")
        }
        return usage
    }

    /// This process's own peak (VmHWM, its memory's since its exec).
    static func ownPeakBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kib = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") else { return 0 }
        return kib * 1024
    }

    public static func line(_ peak: Peak, width: Int, height: Int) -> String {
        "kiosk peak resident memory (signpad replay of this recording at \(width)x\(height), in a child): \(figure(peak)) [≤ 48 MiB at 1920x1080]"
    }

    public static func daemonLine(_ peak: Peak, width: Int, height: Int) -> String {
        "daemon peak resident memory (signpad run --offscreen \(width)x\(height) signing this recording, in a child): \(figure(peak))"
            + " [≤ 40 MiB at 1920x1080, ≤ 80 MiB at 3840x2160]"
    }

    private static func figure(_ peak: Peak) -> String {
        let mib = { (bytes: Int) in String(printf: "%.1f MiB", Double(bytes) / 1_048_576) }
        return peak.measured ? mib(peak.bytes) : "at most \(mib(peak.bytes)) (no more than the bench held when it started it)"
    }
}
