import Foundation
import ArgumentParser
import SignpadCrypto
import SignpadExport

struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check exported signatures: each manifest's signature against the kiosks' public keys, and every file's size and SHA-256.",
        discussion: "Prints one line per signature. Exit status 0 when all pass, 1 when any fails, 2 when nothing could be checked.")
    @Option(name: .long, help: "A PEM file of one or more public keys (signpad key show prints a kiosk's); repeat for more.", completion: .file())
    var key: [String] = []
    @Argument(help: "A signature's .meta.json, or a folder of signatures.", completion: .file()) var paths: [String]

    func run() throws {
        var keys: [PublicKey] = []
        for path in key {
            do {
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw CryptoError("reading", reason: "missing or not readable")
                }
                keys += try PublicKey.all(inPEM: Array(data))
            } catch {
                FileHandle.standardError.write(Data("Error: --key \(path): \(error)\n".utf8))
                throw ExitCode(2)
            }
        }
        guard !keys.isEmpty else {
            FileHandle.standardError.write(Data("Error: --key: expected at least one public key; on the kiosk, signpad key show --all > kiosk.pem prints its keys\n".utf8))
            throw ExitCode(2)
        }
        var failed = 0, checked = 0
        for path in paths {
            let manifests = ManifestCheck.manifests(at: path)
            if manifests.isEmpty { FileHandle.standardError.write(Data("signpad verify: \(path): no .meta.json in it\n".utf8)) }
            for manifest in manifests {
                let check = ManifestCheck.check(manifest: manifest, keys: keys)
                print(check.line)
                checked += 1
                if !check.passed { failed += 1 }
            }
        }
        guard checked > 0 else { throw ExitCode(2) }
        if failed > 0 {
            FileHandle.standardError.write(Data("signpad verify: \(failed) of \(checked) signature(s) failed\n".utf8))
            throw ExitCode(1)
        }
    }
}
