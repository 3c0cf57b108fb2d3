import Foundation

/// A long-lived helper process a test starts (a server, a software TPM), with posix_spawn,
/// not Foundation's `Process`: Foundation waits for each child it started, blocking, whenever
/// any of them ends, so a server it knew of would hold up every `run` until it stopped.
public final class SpawnedChild {
    public let pid: pid_t
    private var reaped = false

    /// Starts `arguments` (the first a path or a name on PATH), its standard output to
    /// `output` (a descriptor; /dev/null when nil), its standard error to `errors` (the same),
    /// with `environment` added to the test's own.
    public init(_ arguments: [String], output: Int32? = nil, errors: Int32? = nil, environment: [String: String] = [:]) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (descriptor, target) in [(Int32(1), output), (2, errors)] {
            if let target { posix_spawn_file_actions_adddup2(&actions, target, descriptor) } else { posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_WRONLY, 0) }
        }
        // The test's threads block signals; the child (and what it runs) must not.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        let words = ["/usr/bin/env"] + arguments
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let envp: [UnsafeMutablePointer<CChar>?] = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/usr/bin/env", &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw MissingPeer(description: "\(arguments[0]) did not start: \(String(cString: strerror(spawned)))") }
        self.pid = pid
    }

    /// Whether it still runs (an ended child is reaped here).
    public var isRunning: Bool {
        guard !reaped else { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { reaped = true }
        return !reaped
    }

    /// Ends it with `signal` and waits for it.
    public func stop(_ signal: Int32 = SIGKILL) {
        guard !reaped else { return }
        kill(pid, signal)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        reaped = true
    }

    deinit { stop() }
}
