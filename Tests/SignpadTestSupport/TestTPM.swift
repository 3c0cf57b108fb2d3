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
            // Listening is ready: swtpm serves one client at a time, so a TPM tool could wait
            // behind a client that came back first. One that lost the port to another test ends.
            for _ in 0..<100 where child.isRunning {
                if Self.accepts(port) {
                    usleep(100_000)
                    if child.isRunning {
                        self.child = child
                        return
                    }
                }
                usleep(50_000)
            }
            child.stop()
        }
        let log = (try? String(contentsOfFile: directory + "/swtpm.log", encoding: .utf8)) ?? ""
        throw MissingPeer(description: "swtpm did not start or answer: \(log)")
    }

    /// Whether something listens on 127.0.0.1:`port`.
    private static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
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
