import FoundationEssentials
import Glibc
import ArgumentParser
import SignpadCrypto
import SignpadExport

struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check exported signatures: each manifest's signature against the kiosks' public keys, and every file's size and SHA-256.",
        // The usage ArgumentParser would write shows --key as optional: it is not, but a missing one is
        // verify's usage error, status 2, not ArgumentParser's.
        usage: "signpad verify --key <keys.pem> [--key <keys.pem> ...] [--tsa-ca <ca.pem>] <path> ...",
        discussion: "Prints one line per signature. Exit status 0 when all pass, 1 when any fails, 2 when nothing could be checked (no key, or a path that is no signature's manifest nor a folder).")
    @Option(name: .long, help: "Required: a PEM file of one or more public keys (signpad key show prints a kiosk's), or of a kiosk's certificate; repeat for more.", completion: .file())
    var key: [String] = []
    @Option(name: .customLong("tsa-ca"), help: "A PEM file of the time-stamp authority's CA certificates: each signature must then have a time-stamp token (.meta.json.tsr) over its manifest's signature that verifies against them; its time is printed.", completion: .file())
    var tsaCA: String?
    @Argument(help: "A signature's .meta.json, or a folder of signatures.", completion: .file()) var paths: [String] = []

    func run() throws {
        var keys: [PublicKey] = []
        for path in key {
            do {
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw CryptoError("reading", reason: "missing or not readable")
                }
                keys += try PublicKey.all(inPEM: Array(data))
            } catch {
                StandardStream.error.write(Data("Error: --key \(path): \(error)\n".utf8))
                throw ExitCode(2)
            }
        }
        guard !keys.isEmpty else {
            StandardStream.error.write(Data("Error: --key: expected at least one public key; on the kiosk, signpad key show --all > kiosk.pem prints its keys\n".utf8))
            throw ExitCode(2)
        }
        var authorities: [UInt8]?
        if let tsaCA {
            do {
                let pem = try BoundedFile.read(tsaCA, limit: BoundedFile.certificateBytes)
                _ = try TimeStampReply.authorityCertificates(pem)
                authorities = pem
            } catch {
                StandardStream.error.write(Data("Error: --tsa-ca \(tsaCA): \(error)\n".utf8))
                throw ExitCode(2)
            }
        }
        guard !paths.isEmpty else {
            StandardStream.error.write(Data("Error: expected a signature's .meta.json, or a folder of signatures, to check\n".utf8))
            throw ExitCode(2)
        }
        // Every path is looked at before any is checked: one that names no signature is a mistake
        // in the command, which a list of OK and FAILED lines would hide.
        var manifests: [(path: String, found: [String])] = []
        for path in paths {
            do {
                manifests.append((path, try ManifestCheck.manifests(at: path)))
            } catch {
                StandardStream.error.write(Data("signpad verify: \(error)\n".utf8))
                throw ExitCode(2)
            }
        }
        var failed = 0, checked = 0
        for (path, found) in manifests {
            if found.isEmpty { StandardStream.error.write(Data("signpad verify: \(path): no .meta.json in it\n".utf8)) }
            for manifest in found {
                let check = ManifestCheck.check(manifest: manifest, keys: keys, timeStampCA: authorities)
                print(check.line)
                checked += 1
                if !check.passed { failed += 1 }
            }
        }
        guard checked > 0 else { throw ExitCode(2) }
        if failed > 0 {
            StandardStream.error.write(Data("signpad verify: \(failed) of \(checked) signature(s) failed\n".utf8))
            throw ExitCode(1)
        }
    }
}
