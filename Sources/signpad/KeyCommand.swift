import FoundationEssentials
import Glibc
import ArgumentParser
import SignpadConfig
import SignpadCrypto
import SignpadExport
import SignpadOutbox
import SignpadTPM

struct Key: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Make, show or replace the kiosk's signing key; certify it.",
        discussion: "export.signing_key names the key: a file (Ed25519 made at first start, or ECDSA P-256 made by key create --algorithm p256), or a key a TPM 2.0 holds (ECDSA P-256), as tpm2:handle:0x81000100. Signing documents (PDF) needs a P-256 key.",
        subcommands: [Create.self, Show.self, Rotate.self, Certificate.self, Request.self])

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make the kiosk's signing key now (a file's is otherwise made at first start); print its public key.",
            discussion: """
                With --tpm the key is made inside the TPM 2.0 and kept there at a persistent handle: ECDSA P-256, \
                for signing only, never leaving the TPM. The TPM is reached as OpenSSL's tpm2 provider reaches it: \
                TPM2OPENSSL_TCTI (for example device:/dev/tpmrm0), else the default search.
                """)
        @Flag(name: .long, help: "Make the key in the TPM, not in a file.") var tpm = false
        @Option(name: .long, help: "A file's key: ed25519 (what the first start makes) or p256 (ECDSA P-256, which PDF readers accept).")
        var algorithm: SigningKey.FileAlgorithm?
        @Option(name: .long, help: "With --tpm: the persistent handle to keep it at; if not given, the one export.signing_key names, else \(TPMHandle.standard.hex).")
        var handle: String?
        @OptionGroup var options: ConfigOptions

        func run() throws {
            let config = try options.load(defaultToSystemFile: true)
            guard tpm else {
                guard handle == nil else { throw failure("--handle is for a key in the TPM: add --tpm", status: 64) }
                guard config.evidence.signingKeyTPM == nil else {
                    throw failure("export.signing_key is \(config.evidence.signingKey), a TPM's key: make it with --tpm", status: 64)
                }
                let file = SigningKeyFile(path: config.evidence.signingKey)
                if let key = try loadChecked(file) {
                    throw failure("\(file.path): the kiosk has a key already (sha256 \(key.publicKey.fingerprint)); signpad key rotate replaces it", status: 1)
                }
                let made: SigningKey
                do { made = try file.loadOrCreate(algorithm ?? .ed25519).key } catch { throw failure("\(error)", status: 1) }
                printKey(made)
                return
            }
            guard algorithm == nil || algorithm == .p256 else { throw failure("a TPM's key is ECDSA P-256: leave out --algorithm", status: 64) }
            let target: TPMHandle
            if let handle {
                guard let given = TPMHandle(hex: handle) else { throw failure("--handle \(handle): expected a persistent handle, 0x81000000 to 0x817fffff", status: 64) }
                target = given
            } else {
                target = config.evidence.signingKeyTPM ?? .standard
            }
            do {
                try TPMKeyMaker.create(at: target.value)
            } catch {
                throw failure("\(error)", status: 1)
            }
            let key: SigningKey
            do { key = try SigningKey(tpm: target) } catch { throw failure("\(target): the key was made, but it does not load: \(error)", status: 1) }
            printKey(key)
            if config.evidence.signingKeyTPM != target {
                StandardStream.error.write(Data("set export.signing_key = \"\(target.configured)\" in \(options.config ?? Config.defaultPath), then restart signpad\n".utf8))
            }
        }
    }

    struct Certificate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a self-signed X.509 certificate (PEM) for the kiosk's signing key.",
            discussion: "Its subject is the kiosk's name (export.kiosk_name, else the host name); its key usage digitalSignature and nonRepudiation.")
        @Option(name: .long, help: "How many days it is valid, from now: 1 to 36500 (three years, 1095, if not given).") var days: Int?
        @OptionGroup var options: ConfigOptions

        func validate() throws {
            if let days, !(1...36_500).contains(days) { throw ValidationError("--days: expected 1 to 36500, got \(days)") }
        }

        func run() throws {
            let config = try options.load(defaultToSystemFile: true)
            let key = try existingKey(config)
            do {
                print(try KeyCertificate.selfSigned(key, subject: config.kioskName, days: days ?? 1095, now: Date().timeIntervalSince1970), terminator: "")
            } catch {
                throw failure("\(error)", status: 1)
            }
        }
    }

    struct Request: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "csr",
            abstract: "Print a certificate request (PKCS #10, PEM) for the kiosk's signing key, for the organisation's CA.",
            discussion: "Its subject is the kiosk's name (export.kiosk_name, else the host name); it asks for digitalSignature and nonRepudiation.")
        @OptionGroup var options: ConfigOptions

        func run() throws {
            let config = try options.load(defaultToSystemFile: true)
            let key = try existingKey(config)
            do {
                print(try KeyCertificate.request(key, subject: config.kioskName), terminator: "")
            } catch {
                throw failure("\(error)", status: 1)
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the kiosk's public key (PEM) on standard output and its SHA-256 fingerprint on standard error.")
        @Flag(name: .long, help: "Also print the public keys of the keys `key rotate` replaced, oldest first.") var all = false
        @OptionGroup var options: ConfigOptions

        func run() throws {
            let config = try options.load(defaultToSystemFile: true)
            let key = try existingKey(config)
            if all {
                for (path, retired) in config.evidence.retiredKeys {
                    print(retired.pem, terminator: "")
                    StandardStream.error.write(Data("retired \(retired.fingerprint) (\(path))\n".utf8))
                }
            }
            printKey(key)
        }
    }

    struct Rotate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replace the signing key with a new one, keeping the old public key beside it; print the new public key.",
            discussion: "Restart signpad afterwards (systemctl restart signpad) for it to sign with the new key.")
        @Option(name: .long, help: "The new key's algorithm: ed25519 or p256 (if not given, the old key's).")
        var algorithm: SigningKey.FileAlgorithm?
        @OptionGroup var options: ConfigOptions

        func run() throws {
            let config = try options.load(defaultToSystemFile: true)
            if let handle = config.evidence.signingKeyTPM {
                throw failure("export.signing_key is \(handle), a TPM's key, which is not rotated: keep its public key (signpad key show > old.pem), make a new one with signpad key create --tpm --handle and another handle, and point export.signing_key at it", status: 1)
            }
            let file = SigningKeyFile(path: config.evidence.signingKey)
            // A key file that is not the kiosk's alone is refused as at start, before anything is replaced.
            let old = try loadChecked(file)
            let kind = algorithm ?? (old?.publicKey.algorithm == .ecdsaP256 ? .p256 : .ed25519)
            do {
                let (key, retired) = try file.rotate(to: kind)
                print(key.publicKey.pem, terminator: "")
                if let retired { StandardStream.error.write(Data("old public key kept as \(retired)\n".utf8)) }
                StandardStream.error.write(Data("sha256 \(key.publicKey.fingerprint)\n".utf8))
            } catch {
                StandardStream.error.write(Data("Error: \(error)\n".utf8))
                throw ExitCode(1)
            }
        }
    }
}

/// The kiosk's key as `export.signing_key` names it; a TPM that does not give it, or a key
/// file not fit to be the kiosk's, ends the command with 78 as it stops `run`, and no key with 1.
private func existingKey(_ config: Config) throws -> SigningKey {
    if let handle = config.evidence.signingKeyTPM {
        do { return try SigningKey(tpm: handle) } catch { throw failure("\(handle): \(error)", status: Config.unusableExitStatus) }
    }
    let file = SigningKeyFile(path: config.evidence.signingKey)
    guard let key = try loadChecked(file) else {
        throw failure("\(file.path): no signing key yet: signpad makes it at its first start, or signpad key create now", status: 1)
    }
    return key
}

/// The public key on standard output, its fingerprint on standard error.
private func printKey(_ key: SigningKey) {
    print(key.publicKey.pem, terminator: "")
    StandardStream.error.write(Data("sha256 \(key.publicKey.fingerprint)\n".utf8))
}

/// Says `message` on standard error; the exit status to end the command with.
private func failure(_ message: String, status: Int32) -> ExitCode {
    StandardStream.error.write(Data("Error: \(message)\n".utf8))
    return ExitCode(status)
}

/// The key at `file`, or nil when there is none; a file that is not fit to be the kiosk's key
/// (see `SigningKeyFile.checkFile`) ends the command with 78, as it stops `run`.
private func loadChecked(_ file: SigningKeyFile) throws -> SigningKey? {
    do {
        return try file.load()
    } catch {
        StandardStream.error.write(Data("Error: \(error)\n".utf8))
        throw ExitCode(Config.unusableExitStatus)
    }
}

extension SigningKey.FileAlgorithm: ExpressibleByArgument {}
