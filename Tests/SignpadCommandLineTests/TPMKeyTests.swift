import Foundation
import SignpadTestSupport
import Testing

/// Issue 56 part 3: a kiosk key a TPM 2.0 holds. Each test has its own software TPM (swtpm),
/// reached as on a kiosk through TPM2OPENSSL_TCTI; the peers are tpm2-tools, and openssl with
/// and without the tpm2 provider.
@Suite struct TPMKeyTests {
    static let signpad = CommandLineTests.signpad
    static let handle = "0x81000100"

    /// A folder with a configuration naming the TPM's key.
    struct Kiosk {
        let dir = scratch()
        var file: String { dir + "/kiosk.toml" }

        init(signingKey: String = "tpm2:handle:\(TPMKeyTests.handle)") throws {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            try """
            [export]
            directory = "\(dir)/out"
            spool_directory = "\(dir)/spool"
            signing_key = "\(signingKey)"
            kiosk_name = "Till 3, Main Street"
            [control]
            socket = ""

            """.write(toFile: file, atomically: true, encoding: .utf8)
        }
    }

    /// The PEM block of `kind` in a command's output.
    static func pem(_ kind: String, in output: String) throws -> String {
        let begin = try #require(output.range(of: "-----BEGIN \(kind)-----"), "\(output)")
        let end = try #require(output.range(of: "-----END \(kind)-----\n", range: begin.upperBound..<output.endIndex), "\(output)")
        return String(output[begin.lowerBound..<end.upperBound])
    }

    /// `key create --tpm` for `kiosk` in `tpm`; the public key it prints, kept as kiosk.pem.
    static func createKey(_ kiosk: Kiosk, in tpm: TestTPM) throws -> String {
        let made = try run(signpad, ["key", "create", "--tpm", "--config", kiosk.file], environment: tpm.environment)
        #expect(made.status == 0, "\(made.output)")
        let publicKey = try pem("PUBLIC KEY", in: made.output)
        try publicKey.write(toFile: kiosk.dir + "/kiosk.pem", atomically: true, encoding: .utf8)
        return publicKey
    }

    @Test func aKeyMadeInTheTPMSignsManifestsThatOpenSSLVerifies() throws {
        try requirePeer(.tool("openssl"))
        let tpm = try TestTPM()
        let kiosk = try Kiosk()
        defer { removeScratch(kiosk.dir) }
        let publicKey = try Self.createKey(kiosk, in: tpm)

        // The TPM holds it at the handle, for signing only, never to leave it, and free of lockout.
        let read = try run("tpm2_readpublic", ["-c", Self.handle], environment: tpm.environment)
        #expect(read.status == 0, "\(read.output)")
        for attribute in ["fixedtpm", "fixedparent", "sensitivedataorigin", "sign", "noda"] {
            #expect(read.output.contains(attribute), "\(attribute): \(read.output)")
        }
        #expect(!read.output.contains("decrypt"), "\(read.output)")
        #expect(read.output.contains("value: NIST p256"), "\(read.output)")
        // openssl, through the provider, reads the same public key from the TPM.
        let viaProvider = try run("openssl", ["pkey", "-provider", "tpm2", "-provider", "default", "-in", "handle:\(Self.handle)", "-pubout"],
                                  environment: tpm.environment)
        #expect(viaProvider.status == 0 && viaProvider.output == publicKey, "\(viaProvider.output)")
        let shown = try run(Self.signpad, ["key", "show", "--config", kiosk.file], environment: tpm.environment)
        #expect(shown.status == 0, "\(shown.output)")
        #expect(try Self.pem("PUBLIC KEY", in: shown.output) == publicKey)

        // A second key at the same handle is refused; the first stays.
        let again = try run(Self.signpad, ["key", "create", "--tpm", "--config", kiosk.file], environment: tpm.environment)
        #expect(again.status == 1 && again.output.contains("making a key at 0x81000100: the TPM already holds an object there"), "\(again.output)")

        // A signature's manifest, signed in the TPM, verified by plain openssl and by signpad verify.
        let replayed = try run(Self.signpad, ["replay", "demo/signature.evemu", "--output-dir", kiosk.dir + "/out", "--config", kiosk.file],
                               environment: tpm.environment)
        #expect(replayed.status == 0, "\(replayed.output)")
        let manifest = try #require(try FileManager.default.contentsOfDirectory(atPath: kiosk.dir + "/out").first { $0.hasSuffix(".meta.json") })
        let path = kiosk.dir + "/out/" + manifest
        let checked = try run("openssl", ["dgst", "-sha256", "-verify", kiosk.dir + "/kiosk.pem", "-signature", path + ".sig", path])
        #expect(checked.status == 0 && checked.output.contains("Verified OK"), "\(checked.output)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("\"algorithm\" : \"ECDSA-P256-SHA256\""), "\(text)")
        let verified = try run(Self.signpad, ["verify", "--key", kiosk.dir + "/kiosk.pem", kiosk.dir + "/out"])
        #expect(verified.status == 0 && verified.output.hasPrefix("OK      "), "\(verified.output)")
        // No key file was made in the TPM's stead.
        #expect(!FileManager.default.fileExists(atPath: kiosk.dir + "/out/signing.key"))
    }

    /// Issue 57 with issue 56's key: a point of sale's PDF signed by the key the TPM holds, under
    /// its certificate, through the daemon's API; pdfsig accepts the signature.
    @Test func aDocumentIsSignedWithTheTPMsKeyAndPdfsigAcceptsIt() throws {
        for tool in ["openssl", "pdfsig", "rsvg-convert"] { try requirePeer(.tool(tool)) }
        let tpm = try TestTPM()
        let kiosk = try Kiosk()
        defer { removeScratch(kiosk.dir) }
        _ = try Self.createKey(kiosk, in: tpm)
        let certified = try run(Self.signpad, ["key", "certificate", "--days", "30", "--config", kiosk.file], environment: tpm.environment)
        #expect(certified.status == 0, "\(certified.output)")
        try Self.pem("CERTIFICATE", in: certified.output).write(toFile: kiosk.dir + "/kiosk.crt", atomically: true, encoding: .utf8)
        let documents = kiosk.dir + "/documents"
        try FileManager.default.createDirectory(atPath: documents, withIntermediateDirectories: true)
        let svg = kiosk.dir + "/contract.svg"
        try "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"595pt\" height=\"842pt\"><text x=\"72\" y=\"100\">Contract</text></svg>\n"
            .write(toFile: svg, atomically: true, encoding: .utf8)
        let made = try run("rsvg-convert", ["-f", "pdf", "-o", documents + "/contract.pdf", svg])
        #expect(made.status == 0, "\(made.output)")

        // The customer reads the page to its foot, taps Sign and signs (the API tests' customer).
        let reading = kiosk.dir + "/reads-and-signs.evemu"
        let readingMade = try run("python3", ["-c", "import sys; sys.path.insert(0, 'Tests/api'); import document_api_test; document_api_test.reading_recording(sys.argv[1], decline=False)",
                                         reading], environment: ["SIGNPAD": Self.signpad])
        #expect(readingMade.status == 0, "\(readingMade.output)")
        let socket = kiosk.dir + "/control.sock"
        let daemon = try SpawnedChild([Self.signpad, "run", "--offscreen", "800x480", "--input-recording", reading, "--confirm-at-end",
                                       "--config", kiosk.file, "--set", "control.socket=\"\(socket)\"", "--set", "control.group=\"\"",
                                       "--set", "control.results=\"\(kiosk.dir)/requests.json\"", "--set", "kiosk.mode=\"requested\"",
                                       "--set", "export.document_certificate=\"\(kiosk.dir)/kiosk.crt\"", "--set", "documents.directory=\"\(documents)\""],
                                      environment: tpm.environment)
        defer { daemon.stop(SIGTERM) }
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: socket), daemon.isRunning, Date() < deadline { usleep(50_000) }
        let asked = try run("timeout", ["60", Self.signpad, "request", "--socket", socket, "--reference", "INV-T", "--signer", "Dana",
                                        "--document", documents + "/contract.pdf", "--rect", "72,82,292,142"])
        #expect(asked.status == 0 && asked.output.contains("document: "), "\(asked.output)")
        let signed = try #require(try FileManager.default.contentsOfDirectory(atPath: kiosk.dir + "/out").first { $0.hasSuffix(".pdf") }, "\(asked.output)")
        let pdfsig = try run("pdfsig", [kiosk.dir + "/out/" + signed])
        #expect(pdfsig.output.contains("Signature is Valid") && pdfsig.output.contains("Total document signed"), "\(pdfsig.output)")
        #expect(pdfsig.output.contains("Signer Certificate Common Name: Till 3, Main Street"), "\(pdfsig.output)")
    }

    @Test func theCertificateAndRequestNameTheKioskAndOpenSSLAcceptsThem() throws {
        try requirePeer(.tool("openssl"))
        let tpm = try TestTPM()
        let kiosk = try Kiosk()
        defer { removeScratch(kiosk.dir) }
        let publicKey = try Self.createKey(kiosk, in: tpm)

        let certified = try run(Self.signpad, ["key", "certificate", "--days", "30", "--config", kiosk.file], environment: tpm.environment)
        #expect(certified.status == 0, "\(certified.output)")
        try Self.pem("CERTIFICATE", in: certified.output).write(toFile: kiosk.dir + "/kiosk.crt", atomically: true, encoding: .utf8)
        let verified = try run("openssl", ["verify", "-check_ss_sig", "-CAfile", kiosk.dir + "/kiosk.crt", kiosk.dir + "/kiosk.crt"])
        #expect(verified.status == 0 && verified.output.contains("OK"), "\(verified.output)")
        let fields = try run("openssl", ["x509", "-in", kiosk.dir + "/kiosk.crt", "-noout", "-subject", "-ext", "keyUsage,basicConstraints", "-enddate"])
        #expect(fields.output.contains("subject=CN = \"Till 3, Main Street\""), "\(fields.output)")
        #expect(fields.output.contains("critical\n    Digital Signature, Non Repudiation"), "\(fields.output)")
        #expect(fields.output.contains("CA:FALSE"), "\(fields.output)")
        let inCertificate = try run("openssl", ["x509", "-in", kiosk.dir + "/kiosk.crt", "-noout", "-pubkey"])
        #expect(inCertificate.output == publicKey, "\(inCertificate.output)")

        let requested = try run(Self.signpad, ["key", "csr", "--config", kiosk.file], environment: tpm.environment)
        #expect(requested.status == 0, "\(requested.output)")
        try Self.pem("CERTIFICATE REQUEST", in: requested.output).write(toFile: kiosk.dir + "/kiosk.csr", atomically: true, encoding: .utf8)
        let request = try run("openssl", ["req", "-in", kiosk.dir + "/kiosk.csr", "-verify", "-noout", "-subject", "-pubkey"])
        #expect(request.status == 0 && request.output.contains("verify OK") && request.output.contains("subject=CN = \"Till 3, Main Street\""), "\(request.output)")
        #expect(request.output.contains(publicKey), "\(request.output)")
        // The organisation's CA issues from it, and the issued certificate chains to the CA.
        let ca = try run("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", kiosk.dir + "/ca.key",
                                     "-out", kiosk.dir + "/ca.crt", "-days", "30", "-subj", "/CN=Back office CA"])
        #expect(ca.status == 0, "\(ca.output)")
        let issued = try run("openssl", ["x509", "-req", "-in", kiosk.dir + "/kiosk.csr", "-CA", kiosk.dir + "/ca.crt", "-CAkey", kiosk.dir + "/ca.key",
                                         "-copy_extensions", "copy", "-days", "30", "-out", kiosk.dir + "/issued.crt"])
        #expect(issued.status == 0, "\(issued.output)")
        let chained = try run("openssl", ["verify", "-CAfile", kiosk.dir + "/ca.crt", kiosk.dir + "/issued.crt"])
        #expect(chained.status == 0 && chained.output.contains("OK"), "\(chained.output)")
    }

    /// A key file's Ed25519 key is certified the same way; openssl checks its self-signature.
    @Test func aKeyFilesCertificateVerifiesToo() throws {
        try requirePeer(.tool("openssl"))
        let kiosk = try Kiosk(signingKey: "")
        defer { removeScratch(kiosk.dir) }
        let config = ["--config", kiosk.file, "--set", "export.signing_key=\"\(kiosk.dir)/signing.key\""]
        let made = try run(Self.signpad, ["key", "create"] + config)
        #expect(made.status == 0, "\(made.output)")
        let again = try run(Self.signpad, ["key", "create"] + config)
        #expect(again.status == 1 && again.output.contains("the kiosk has a key already"), "\(again.output)")
        let certified = try run(Self.signpad, ["key", "certificate"] + config)
        try Self.pem("CERTIFICATE", in: certified.output).write(toFile: kiosk.dir + "/kiosk.crt", atomically: true, encoding: .utf8)
        let verified = try run("openssl", ["verify", "-check_ss_sig", "-CAfile", kiosk.dir + "/kiosk.crt", kiosk.dir + "/kiosk.crt"])
        #expect(verified.status == 0 && verified.output.contains("OK"), "\(verified.output)")
        let kind = try run("openssl", ["x509", "-in", kiosk.dir + "/kiosk.crt", "-noout", "-text"])
        #expect(kind.output.contains("Signature Algorithm: ED25519"), "\(kind.output)")
    }

    /// A kiosk whose TPM is gone, or holds no key at the handle, does not start (78, the
    /// reason said), and no key file is made instead; check-config says the same.
    @Test func aKioskWhoseTPMFailsDoesNotStart() throws {
        let tpm = try TestTPM()
        let kiosk = try Kiosk()
        defer { removeScratch(kiosk.dir) }
        // Under timeout: a start that is not refused stays, a daemon, and fails the test with 124.
        let runArguments = ["20", Self.signpad, "run", "--config", kiosk.file, "--offscreen", "320x200", "--input-recording", "demo/signature.evemu"]

        let empty = try run("timeout", runArguments, environment: tpm.environment)
        #expect(empty.status == 78, "\(empty.output)")
        #expect(empty.output.contains("the TPM holds no key there"), "\(empty.output)")
        _ = try Self.createKey(kiosk, in: tpm)
        let checked = try run(Self.signpad, ["check-config", kiosk.file], environment: tpm.environment)
        #expect(checked.status == 0, "\(checked.output)")

        tpm.stop()
        for command in [runArguments, ["20", Self.signpad, "check-config", kiosk.file], ["20", Self.signpad, "key", "show", "--config", kiosk.file]] {
            let refused = try run("timeout", command, environment: tpm.environment)
            #expect(refused.status == 78, "\(command[2]): \(refused.output)")
            #expect(refused.output.contains("export.signing_key") || command[2] == "key", "\(command[2]): \(refused.output)")
            #expect(refused.output.contains("OpenSSL's tpm2 provider cannot reach a TPM") && refused.output.contains("tcti:IO failure"), "\(command[2]): \(refused.output)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: kiosk.dir).sorted() == ["kiosk.pem", "kiosk.toml"])
        // Nor where the configured text, taken for a path, would put one.
        #expect(!FileManager.default.fileExists(atPath: "tpm2:handle:\(Self.handle)"))

        // Back, it signs again (replay: run would stay, a daemon).
        try tpm.start()
        let signed = try run(Self.signpad, ["replay", "demo/signature.evemu", "--output-dir", kiosk.dir + "/out", "--config", kiosk.file], environment: tpm.environment)
        #expect(signed.status == 0, "\(signed.output)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: kiosk.dir + "/out").contains { $0.hasSuffix(".meta.json.sig") })
    }

    /// A TPM that stops answering while the kiosk runs loses no signature: the signature waits
    /// in memory, and once the TPM is back the key is loaded anew (the provider's old connection
    /// is dead for good) and it is signed and written.
    @Test func aSignatureWaitsForATPMThatCameBackAndIsSigned() throws {
        try requirePeer(.tool("openssl"))
        let tpm = try TestTPM()
        let kiosk = try Kiosk()
        defer { removeScratch(kiosk.dir) }
        _ = try Self.createKey(kiosk, in: tpm)

        let logPath = kiosk.dir + "/daemon.log"
        let log = open(logPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        defer { close(log) }
        let daemon = try SpawnedChild([Self.signpad, "run", "--config", kiosk.file, "--set", "export.retry_seconds=0.5", "--offscreen", "320x200",
                                       "--input-recording", "demo/signature.evemu", "--confirm-at-end"], output: log, errors: log, environment: tpm.environment)
        defer { daemon.stop() }
        func logged(_ text: String, within seconds: Double) -> Bool {
            let end = Date().addingTimeInterval(seconds)
            while Date() < end {
                if ((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "").contains(text) { return true }
                usleep(20_000)
            }
            return false
        }
        #expect(logged("signing key", within: 20), "\((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "")")
        tpm.stop()
        // The signature is confirmed at the recording's end and cannot be signed.
        #expect(logged("tcti:IO failure", within: 30), "\((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "")")
        let out = kiosk.dir + "/out"
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []).allSatisfy { !$0.hasSuffix(".meta.json") })

        try tpm.start(samePort: true)
        var manifest: String?
        let end = Date().addingTimeInterval(30)
        while manifest == nil, Date() < end {
            manifest = ((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []).first { $0.hasSuffix(".meta.json") }
            usleep(50_000)
        }
        let name = try #require(manifest, "\((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "")")
        let checked = try run("openssl", ["dgst", "-sha256", "-verify", kiosk.dir + "/kiosk.pem", "-signature", "\(out)/\(name).sig", "\(out)/\(name)"])
        #expect(checked.status == 0 && checked.output.contains("Verified OK"), "\(checked.output)")
    }

    /// A storage key at the handle (the SRK many systems keep at 0x81000001 is one) is P-256
    /// but cannot sign: the kiosk does not start, rather than start and fail every signature.
    @Test func aKeyThatCannotSignStopsTheStart() throws {
        let tpm = try TestTPM()
        let kiosk = try Kiosk()
        defer { removeScratch(kiosk.dir) }
        let context = kiosk.dir + "/primary.ctx"
        let primary = try run("tpm2_createprimary", ["-Q", "-C", "o", "-g", "sha256", "-G", "ecc256", "-c", context], environment: tpm.environment)
        #expect(primary.status == 0, "\(primary.output)")
        let kept = try run("tpm2_evictcontrol", ["-C", "o", "-c", context, Self.handle], environment: tpm.environment)
        #expect(kept.status == 0, "\(kept.output)")
        // Under timeout: a start that is not refused stays, a daemon, and fails the test with 124.
        for command in [["run", "--config", kiosk.file, "--offscreen", "320x200", "--input-recording", "demo/signature.evemu"], ["check-config", kiosk.file]] {
            let refused = try run("timeout", ["20", Self.signpad] + command, environment: tpm.environment)
            #expect(refused.status == 78, "\(command[0]): \(refused.output)")
            #expect(refused.output.contains("export.signing_key: tpm2:handle:\(Self.handle): trying the TPM's key: it does not sign"), "\(command[0]): \(refused.output)")
        }
    }
}
