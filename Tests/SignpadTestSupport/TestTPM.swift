import Foundation

/// A software TPM 2.0 (swtpm, as Debian packages it) for one test: its own state folder and
/// port, reached through the TCTI in `environment`, stopped by `stop()` or when released.
public final class TestTPM {
    public let directory: String
    public private(set) var port = 0
    private var child: SpawnedChild?

    /// What signpad (OpenSSL's tpm2 provider) and tpm2-tools need to reach it.
    public var environment: [String: String] {
        let tcti = "swtpm:host=127.0.0.1,port=\(port)"
        return ["TPM2OPENSSL_TCTI": tcti, "TPM2TOOLS_TCTI": tcti]
    }

    public init() throws {
        try requirePeer(.tool("swtpm"))
        try requirePeer(.tool("tpm2_getcap"))
        directory = scratch()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try start()
    }

    /// Starts it on its state folder (a restart keeps the keys it holds), on `samePort` as
    /// before when asked, so that what was given `environment` reaches it again.
    public func start(samePort: Bool = false) throws {
        for _ in 0..<(samePort ? 1 : 8) {
            // A port and the next (its control channel); another test may hold them.
            let port = samePort ? self.port : Int.random(in: 20_000..<60_000) & ~1
            let child = try SpawnedChild(["swtpm", "socket", "--tpm2", "--server", "type=tcp,port=\(port),bindaddr=127.0.0.1",
                                          "--ctrl", "type=tcp,port=\(port + 1),bindaddr=127.0.0.1", "--tpmstate", "dir=\(directory)",
                                          "--flags", "not-need-init,startup-clear", "--log", "file=\(directory)/swtpm.log,level=1"])
            self.port = port
            for _ in 0..<100 where child.isRunning {
                if try run("tpm2_getcap", ["properties-fixed"], environment: environment).status == 0 {
                    self.child = child
                    return
                }
                usleep(50_000)
            }
            child.stop()
        }
        let log = (try? String(contentsOfFile: directory + "/swtpm.log", encoding: .utf8)) ?? ""
        throw MissingPeer(description: "swtpm did not start or answer: \(log)")
    }

    public func stop() {
        child?.stop(SIGTERM)
        child = nil
    }

    deinit {
        stop()
        removeScratch(directory)
    }
}
