import Foundation

/// Runs `tool` (a path, or a name looked up on PATH) and returns its exit status and its
/// standard output and error together. `environment` is added to the test's own.
public func run(_ tool: String, _ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [tool] + arguments
    if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

public func toolExists(_ tool: String) -> Bool { (try? run("which", [tool]).status) == 0 }

public struct MissingPeer: Error, CustomStringConvertible {
    public let description: String
}

/// Throws, failing the test, when `peer` is not here.
public func requirePeer(_ peer: Peer) throws {
    if let missing = peer.missing { throw MissingPeer(description: missing) }
}

/// An independent peer a test checks signpad against: a program on PATH, or a Python module.
/// A test whose peer is missing fails, naming what installs it; it never passes unchecked.
public enum Peer {
    case tool(String)
    case pythonModule(String)

    /// Nil when the peer is here, else what is missing and what installs it.
    public var missing: String? {
        switch self {
        case .tool(let name):
            return toolExists(name) ? nil : "the peer \(name) is not installed (scripts/install-deps installs it)"
        case .pythonModule(let name):
            // Run from / so that a folder of the repository named like the module cannot stand in for it.
            let probe = try? run("sh", ["-c", "cd / && python3 -c 'import \(name), sys; sys.exit(0 if getattr(\(name), \"__file__\", None) else 1)'"])
            return probe?.status == 0 ? nil : "the peer python3 module \(name) is not installed (scripts/install-deps installs it)"
        }
    }
}


/// A path in the temporary directory that nothing uses yet.
public func scratch() -> String { NSTemporaryDirectory() + "signpad-test-" + UUID().uuidString }

/// Removes a scratch path when a test is done with it, so runs leave nothing in the temporary directory.
public func removeScratch(_ path: String) { try? FileManager.default.removeItem(atPath: path) }
