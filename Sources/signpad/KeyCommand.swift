import Foundation
import ArgumentParser
import SignpadConfig
import SignpadCrypto
import SignpadOutbox

struct Key: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show or replace the kiosk's signing key.",
        subcommands: [Show.self, Rotate.self])

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the kiosk's public key (PEM) on standard output and its SHA-256 fingerprint on standard error.")
        @Flag(name: .long, help: "Also print the public keys of the keys `key rotate` replaced, oldest first.") var all = false
        @OptionGroup var options: ConfigOptions

        func run() throws {
            let config = try options.load(defaultToSystemFile: true)
            let file = SigningKeyFile(path: config.evidence.signingKey)
            guard let key = try loadChecked(file) else {
                FileHandle.standardError.write(Data("Error: \(file.path): no signing key yet: signpad makes it at its first start (or give export.signing_key)\n".utf8))
                throw ExitCode(1)
            }
            if all {
                for (path, retired) in file.retiredKeys() {
                    print(retired.pem, terminator: "")
                    FileHandle.standardError.write(Data("retired \(retired.fingerprint) (\(path))\n".utf8))
                }
            }
            print(key.publicKey.pem, terminator: "")
            FileHandle.standardError.write(Data("sha256 \(key.publicKey.fingerprint)\n".utf8))
        }
    }

    struct Rotate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replace the signing key with a new one, keeping the old public key beside it; print the new public key.",
            discussion: "Restart signpad afterwards (systemctl restart signpad) for it to sign with the new key.")
        @OptionGroup var options: ConfigOptions

        func run() throws {
            let config = try options.load(defaultToSystemFile: true)
            let file = SigningKeyFile(path: config.evidence.signingKey)
            // A key file that is not the kiosk's alone is refused as at start, before anything is replaced.
            _ = try loadChecked(file)
            do {
                let (key, retired) = try file.rotate()
                print(key.publicKey.pem, terminator: "")
                if let retired { FileHandle.standardError.write(Data("old public key kept as \(retired)\n".utf8)) }
                FileHandle.standardError.write(Data("sha256 \(key.publicKey.fingerprint)\n".utf8))
            } catch {
                FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
                throw ExitCode(1)
            }
        }
    }
}

/// The key at `file`, or nil when there is none; a file that is not fit to be the kiosk's key
/// (see `SigningKeyFile.checkFile`) ends the command with 78, as it stops `run`.
private func loadChecked(_ file: SigningKeyFile) throws -> SigningKey? {
    do {
        return try file.load()
    } catch {
        FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
        throw ExitCode(Config.unusableExitStatus)
    }
}
