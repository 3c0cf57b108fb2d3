import Foundation

/// Runs `tool` (a path, or a name looked up on PATH) and returns its exit status and its
/// standard output and error together.
public func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [tool] + arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

public func toolExists(_ tool: String) -> Bool { (try? run("which", [tool]).status) == 0 }

/// A path in the temporary directory that nothing uses yet.
public func scratch() -> String { NSTemporaryDirectory() + "signpad-test-" + UUID().uuidString }

/// Removes a scratch path when a test is done with it, so runs leave nothing in the temporary directory.
public func removeScratch(_ path: String) { try? FileManager.default.removeItem(atPath: path) }
