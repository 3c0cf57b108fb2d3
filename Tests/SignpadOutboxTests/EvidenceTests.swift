import Foundation
import SignpadCrypto
import SignpadExport
@testable import SignpadOutbox
import SignpadTestSupport
import SignpadVocabulary
import Testing

/// The evidence a back office relies on, checked with stock OpenSSL, not only with signpad's code.
@Suite
struct EvidenceTests {
    /// A back office's key pair made by OpenSSL itself: `kind` rsa or ec; `usage` an X.509 keyUsage, if any.
    static func backOffice(_ folder: String, kind: String, usage: String? = nil) throws -> (certificate: String, key: String) {
        let certificate = folder + "/\(kind).pem", key = folder + "/\(kind).key"
        let algorithm = kind == "rsa" ? ["-newkey", "rsa:2048"] : kind == "ec" ? ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"] : ["-newkey", kind]
        let made = try run("openssl", ["req", "-x509"] + algorithm + ["-nodes", "-keyout", key, "-out", certificate, "-days", "30",
                                                                      "-subj", "/CN=Back office \(kind)"] + (usage.map { ["-addext", "keyUsage=\($0)"] } ?? []))
        #expect(made.status == 0, "\(made.output)")
        return (certificate, key)
    }

    static func write(_ bytes: [UInt8], _ path: String) throws { try Data(bytes).write(to: URL(fileURLWithPath: path)) }

    static func exportAll(_ record: SignatureRecord, evidence: Evidence, into folder: String) throws -> [ExportFile] {
        let files = try SignatureEncoder.files(for: record, options: ExportOptions(formats: ExportFormat.allCases), evidence: evidence)
        try FolderWriter(directory: folder).write(files.map { ($0.name, $0.bytes) }, durableBeforeLast: SignatureEncoder.sealCount)
        return files
    }

    @Test func everyManifestSignatureVerifiesWithOpenSSLAndAnEditedOneFails() throws {
        let dir = scratch()
        defer { removeScratch(dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let (key, created) = try SigningKeyFile(path: dir + "/signing.key").loadOrCreate()
        #expect(created)
        var record = sampleRecord()
        record.request = SignatureRequest(reference: "SALE-9", lines: ["Total 12.50"], signer: "Ada", documentSha256: String(repeating: "cd", count: 32))
        let files = try Self.exportAll(record, evidence: Evidence(signingKey: key), into: dir)
        let publicKey = dir + "/kiosk.pem"
        try Self.write(Array(key.publicKey.pem.utf8), publicKey)
        let manifest = dir + "/\(record.id).meta.json"

        let verified = try run("openssl", ["pkeyutl", "-verify", "-pubin", "-inkey", publicKey, "-rawin", "-in", manifest, "-sigfile", manifest + ".sig"])
        #expect(verified.status == 0 && verified.output.contains("Signature Verified Successfully"), "\(verified.output)")
        // The fingerprint the manifest names is what stock tools compute from the PEM.
        let der = try run("openssl", ["pkey", "-pubin", "-in", publicKey, "-outform", "DER", "-out", dir + "/kiosk.der"])
        #expect(der.status == 0, "\(der.output)")
        let digest = try run("openssl", ["dgst", "-sha256", "-r", dir + "/kiosk.der"])
        let meta = try JSONDecoder().decode(SignatureMetadata.self, from: Data(try #require(files.last?.bytes)))
        #expect(digest.output.hasPrefix(key.publicKey.fingerprint + " "), "\(digest.output)")
        #expect(meta.signingKey == .init(algorithm: "Ed25519", sha256: key.publicKey.fingerprint))
        #expect(meta.request?.reference == "SALE-9" && meta.request?.documentSha256 == String(repeating: "cd", count: 32))
        #expect(ManifestCheck.check(manifest: manifest, keys: [key.publicKey]).passed)

        // One digit of the document's hash changed: OpenSSL and signpad verify refuse it.
        var text = try String(contentsOfFile: manifest, encoding: .utf8)
        text = text.replacingOccurrences(of: String(repeating: "cd", count: 32), with: "d" + String(repeating: "cd", count: 32).dropFirst())
        try text.write(toFile: manifest, atomically: false, encoding: .utf8)
        let edited = try run("openssl", ["pkeyutl", "-verify", "-pubin", "-inkey", publicKey, "-rawin", "-in", manifest, "-sigfile", manifest + ".sig"])
        #expect(edited.status != 0, "\(edited.output)")
        #expect(ManifestCheck.check(manifest: manifest, keys: [key.publicKey]).problems == [.signatureInvalid])
    }

    @Test(arguments: ["rsa", "ec"], [false, true])
    func everyEnvelopeOpensWithOpenSSLCMSToTheClearFile(kind: String, encryptsImages: Bool) throws {
        let dir = scratch()
        defer { removeScratch(dir) }
        try FileManager.default.createDirectory(atPath: dir + "/out", withIntermediateDirectories: true)
        let office = try Self.backOffice(dir, kind: kind)
        let recipient = try RecipientCertificateFile.load(office.certificate)
        let record = sampleRecord()
        let files = try Self.exportAll(record, evidence: Evidence(signingKey: testSigningKey, recipient: recipient, encryptsImages: encryptsImages), into: dir + "/out")
        let clear = try SignatureEncoder.files(for: record, options: ExportOptions(formats: ExportFormat.allCases), evidence: testEvidence)
        // By their names' last part: the ISO record is .sig.bin, in CBEFF .cbeff.xml.
        let sealed = (encryptsImages ? ["png", "svg"] : []) + ["inkml", "json", "bin", "xml"]
        #expect(files.map(\.name) == clear.dropLast(2).map { name in sealed.contains { name.name.hasSuffix(".\($0)") } ? name.name + ".p7m" : name.name }
                                      + ["\(record.id).meta.json.sig", "\(record.id).meta.json"])
        for file in clear.dropLast(2) {
            let format = String(file.name.split(separator: ".").last!)
            let path = dir + "/out/" + file.name + (sealed.contains(format) ? ".p7m" : "")
            guard sealed.contains(format) else {
                #expect(FileManager.default.contents(atPath: path) == Data(file.bytes), "\(format) stays in clear")
                continue
            }
            let opened = try run("openssl", ["cms", "-decrypt", "-inform", "DER", "-in", path, "-recip", office.certificate, "-inkey", office.key,
                                             "-out", path + ".clear"])
            #expect(opened.status == 0, "\(opened.output)")
            #expect(FileManager.default.contents(atPath: path + ".clear") == Data(file.bytes), "\(format): the envelope holds the clear file exactly")
        }
        let meta = try JSONDecoder().decode(SignatureMetadata.self, from: Data(try #require(files.last?.bytes)))
        #expect(meta.encryptedTo?.sha256 == recipient.fingerprint)
        let fingerprint = try run("openssl", ["x509", "-in", office.certificate, "-noout", "-fingerprint", "-sha256"])
        #expect(fingerprint.output.uppercased().contains(stride(from: 0, to: 64, by: 2).map { i in
            String(recipient.fingerprint.uppercased().dropFirst(i).prefix(2)) }.joined(separator: ":")), "\(fingerprint.output)")
    }

    /// `verify` names each file that was changed, whichever kind it is.
    /// A TPM's key is ECDSA P-256: a signature openssl makes with such a key verifies with the
    /// public key read from its PEM, one byte changed does not, and keys of other curves or
    /// kinds are refused by name.
    @Test func aP256SignatureMadeByOpenSSLVerifiesAndOtherKindsAreRefused() throws {
        let dir = scratch()
        defer { removeScratch(dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let message = Array("{\"id\": \"x\"}".utf8)
        try Self.write(message, dir + "/message")
        for (curve, accepted) in [("P-256", true), ("P-384", false)] {
            let made = try run("openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:\(curve)", "-out", dir + "/\(curve).key"])
            #expect(made.status == 0, "\(made.output)")
            let pub = try run("openssl", ["pkey", "-in", dir + "/\(curve).key", "-pubout", "-out", dir + "/\(curve).pem"])
            #expect(pub.status == 0, "\(pub.output)")
            let pem = Array(try #require(FileManager.default.contents(atPath: dir + "/\(curve).pem")))
            guard accepted else {
                #expect(throws: CryptoError("reading public key 1", reason: "expected an Ed25519 or ECDSA P-256 key (signpad key show prints one), found another kind")) {
                    try PublicKey.all(inPEM: pem)
                }
                continue
            }
            let key = try #require(try PublicKey.all(inPEM: pem).first)
            #expect(key.algorithm == .ecdsaP256)
            let signed = try run("openssl", ["dgst", "-sha256", "-sign", dir + "/\(curve).key", "-out", dir + "/message.sig", dir + "/message"])
            #expect(signed.status == 0, "\(signed.output)")
            var signature = Array(try #require(FileManager.default.contents(atPath: dir + "/message.sig")))
            #expect(key.verifies(signature, of: message))
            #expect(!key.verifies(signature, of: message + [0x20]))
            signature[signature.count - 3] ^= 0x01
            #expect(!key.verifies(signature, of: message))
            let fingerprint = try run("sh", ["-c", "openssl pkey -pubin -in '\(dir)/\(curve).pem' -outform DER | sha256sum"])
            #expect(fingerprint.output.hasPrefix(key.fingerprint + " "), "\(fingerprint.output)")
        }
    }

    /// `verify --key` takes a kiosk's certificate as well as its public key (a back office that
    /// receives signed documents holds the certificate): the key it certifies, not the CA's in a
    /// chain, before it or after it, though a certificate that calls itself a CA and issued no
    /// other in the file counts (as `openssl req -x509` makes a self-signed one); a block that
    /// never ends is refused.
    @Test func aCertificateGivesTheKeyItCertifiesNotItsCAs() throws {
        let dir = scratch()
        defer { removeScratch(dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for step in [["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2",
                      "-subj", "/CN=Office CA", "-addext", "basicConstraints=critical,CA:TRUE"],
                     ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "kiosk.key"],
                     ["req", "-new", "-key", "kiosk.key", "-out", "kiosk.csr", "-subj", "/CN=Till 3"],
                     ["x509", "-req", "-in", "kiosk.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "kiosk.crt", "-days", "2"],
                     ["pkey", "-in", "kiosk.key", "-pubout", "-out", "kiosk.pub"]] {
            let made = try run("sh", ["-c", "cd '\(dir)' && openssl " + step.map { "'\($0)'" }.joined(separator: " ")])
            #expect(made.status == 0, "\(made.output)")
        }
        func read(_ names: String...) throws -> [UInt8] { try names.flatMap { Array(try #require(FileManager.default.contents(atPath: dir + "/" + $0))) } }
        let expected = try #require(try PublicKey.all(inPEM: try read("kiosk.pub")).first)
        #expect(try PublicKey.all(inPEM: try read("kiosk.crt", "ca.pem")) == [expected])
        #expect(try PublicKey.all(inPEM: try read("kiosk.pub", "kiosk.crt")) == [expected, expected])
        let authority = try #require(try PublicKey.all(inPEM: try read("ca.pem")).first)
        let caFirst = try PublicKey.all(inPEM: try read("ca.pem", "kiosk.crt"))
        #expect(authority != expected && caFirst == [expected])
        #expect(throws: CryptoError("reading public keys", reason: "block 2 (CERTIFICATE) has no END line")) {
            try PublicKey.all(inPEM: try read("kiosk.pub") + Array(try read("kiosk.crt").dropLast(30)))
        }
    }

    @Test func aBitFlippedInAnyFileIsNamed() throws {
        let dir = scratch()
        defer { removeScratch(dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let office = try Self.backOffice(dir, kind: "ec")
        let evidence = Evidence(signingKey: testSigningKey, recipient: try RecipientCertificateFile.load(office.certificate))
        let record = sampleRecord()
        for file in try Self.exportAll(record, evidence: evidence, into: dir + "/out") {
            let path = dir + "/out/" + file.name, manifest = dir + "/out/\(record.id).meta.json"
            #expect(ManifestCheck.check(manifest: manifest, keys: [testSigningKey.publicKey]).passed)
            var flipped = file.bytes
            flipped[flipped.count / 2] ^= 0x04
            try Self.write(flipped, path)
            let check = ManifestCheck.check(manifest: manifest, keys: [testSigningKey.publicKey])
            if file.name.hasSuffix(".meta.json") || file.name.hasSuffix(".sig") {
                #expect(check.problems.first == .signatureInvalid, "\(file.name): \(check.problems)")
            } else {
                #expect(check.problems == [.fileChanged(file.name)], "\(file.name): \(check.problems)")
                #expect(check.line.hasPrefix("FAILED  \(manifest): \(file.name) does not match"), "\(check.line)")
            }
            try Self.write(file.bytes, path)
            try FileManager.default.removeItem(atPath: path)
            let missing = ManifestCheck.check(manifest: manifest, keys: [testSigningKey.publicKey])
            if file.name.hasSuffix(".meta.json") {
                #expect(missing.problems.first == .manifestUnreadable("it is missing"))
            } else if file.name.hasSuffix(".sig") {
                #expect(missing.problems == [.signatureMissing])
            } else {
                #expect(missing.problems == [.fileMissing(file.name)])
            }
            try Self.write(file.bytes, path)
        }
        // Another kiosk's key does not vouch for this one's signatures.
        #expect(ManifestCheck.check(manifest: dir + "/out/\(record.id).meta.json", keys: [try SigningKey.generate().publicKey]).problems == [.signatureInvalid])
    }

    /// A record is bound to its name: its manifest and signature copied under another sale's
    /// name, or a signed manifest that lists another signature's file, are not that record.
    @Test func aManifestUnderAnotherNameOrNamingAnothersFileFails() throws {
        let dir = scratch()
        defer { removeScratch(dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        var record = sampleRecord()
        record.id = "SALE-1_" + record.id
        _ = try Self.exportAll(record, evidence: testEvidence, into: dir)
        let manifest = dir + "/\(record.id).meta.json", copied = dir + "/SALE-999_\(record.id.dropFirst(7)).meta.json"
        #expect(ManifestCheck.check(manifest: manifest, keys: [testSigningKey.publicKey]).passed)
        try FileManager.default.copyItem(atPath: manifest, toPath: copied)
        try FileManager.default.copyItem(atPath: manifest + ".sig", toPath: copied + ".sig")
        let renamed = ManifestCheck.check(manifest: copied, keys: [testSigningKey.publicKey])
        #expect(!renamed.passed && renamed.line.contains("SALE-999_\(record.id.dropFirst(7)).meta.json is not named from the manifest's id \(record.id)"),
                "\(renamed.line)")
        #expect(renamed.line.hasSuffix("find the signature its id names, or treat this one as unproven"), "\(renamed.line)")

        // Signed by the kiosk's key, yet naming SALE-1's image as its own.
        var metadata = try JSONDecoder().decode(SignatureMetadata.self, from: Data(contentsOf: URL(fileURLWithPath: manifest)))
        metadata.id = "SALE-2_" + record.id.dropFirst(7)
        let png = "\(record.id).png"
        metadata.files = [png: try #require(metadata.files[png])]
        let bytes = Array(try JSONEncoder().encode(metadata))
        let other = dir + "/\(metadata.id).meta.json"
        try Self.write(bytes, other)
        try Self.write(try testSigningKey.sign(bytes), other + ".sig")
        let borrowing = ManifestCheck.check(manifest: other, keys: [testSigningKey.publicKey])
        #expect(!borrowing.passed && borrowing.line.contains("\(png) is not named from the manifest's id \(metadata.id)"), "\(borrowing.line)")
    }

    /// With a recipient, a kiosk stolen or imaged while its folder is down gives no biometric data:
    /// the spool holds the envelopes, never the samples.
    @Test func theSpoolHoldsNoClearSamplesWithARecipient() throws {
        let dir = scratch()
        defer { removeScratch(dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let office = try Self.backOffice(dir, kind: "rsa")
        let evidence = Evidence(signingKey: testSigningKey, recipient: try RecipientCertificateFile.load(office.certificate))
        #expect(FileManager.default.createFile(atPath: dir + "/not-a-folder", contents: Data()))
        let exporter = Exporter(directory: dir + "/not-a-folder/out", options: ExportOptions(), evidence: evidence, retrySeconds: 60,
                                spool: SignatureSpool(directory: dir + "/spool"))
        let record = sampleRecord()
        exporter.submit(record, exportID: 1)
        #expect(!exporter.waitUntilIdle(timeout: 0.5))
        exporter.stop()
        let spooled = try #require(FileManager.default.contents(atPath: dir + "/spool/\(record.id).spool.json"))
        let text = String(decoding: spooled, as: UTF8.self)
        #expect(!text.contains("strokes") && !text.contains("\"startedAt\""), "no record in it")
        let (kept, problems) = try SignatureSpool(directory: dir + "/spool").recover(olderFilesAs: CaptureSettings())
        #expect(problems.isEmpty)
        guard case .sealed(let sealed)? = kept.first else { Issue.record("expected sealed files, got \(kept)"); return }
        #expect(sealed.files.map(\.name) == ["png", "svg", "inkml.p7m", "json.p7m", "meta.json.sig", "meta.json"].map { "\(record.id).\($0)" })
        let clearInkML = Array(InkMLEncoder.encode(record).utf8), clearJSON = try SignaturePadJSON.encode(record)
        for file in sealed.files {
            // No sample's coordinates in any file in clear: the first sample's x and y as the formats write them.
            #expect(!file.bytes.starts(with: clearInkML.prefix(64)) && !file.bytes.starts(with: clearJSON.prefix(16)), "\(file.name)")
        }
        let inkml = try #require(sealed.files.first { $0.name.hasSuffix(".inkml.p7m") })
        try Self.write(inkml.bytes, dir + "/spooled.p7m")
        let opened = try run("openssl", ["cms", "-decrypt", "-inform", "DER", "-in", dir + "/spooled.p7m", "-recip", office.certificate,
                                         "-inkey", office.key, "-out", dir + "/spooled.inkml"])
        #expect(opened.status == 0, "\(opened.output)")
        #expect(FileManager.default.contents(atPath: dir + "/spooled.inkml") == Data(clearInkML))
    }

    @Test func aCertificateThatCannotBeUsedIsRefusedSayingWhy() throws {
        let dir = scratch()
        defer { removeScratch(dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let rsa = try Self.backOffice(dir, kind: "rsa")
        let certificate = try RecipientCertificateFile.load(rsa.certificate)
        #expect(throws: EvidenceError.self) { try RecipientCertificateFile.load(rsa.certificate, now: certificate.notAfter + 86_400) }
        do {
            _ = try RecipientCertificateFile.load(rsa.certificate, now: certificate.notAfter + 86_400)
        } catch {
            #expect(error.path == rsa.certificate && error.reason.contains("it expired on") && error.reason.contains("ask the back office for a new one"), "\(error)")
        }
        try FileManager.default.createDirectory(atPath: dir + "/signing-only", withIntermediateDirectories: true)
        let signOnly = try Self.backOffice(dir + "/signing-only", kind: "ec", usage: "digitalSignature")
        #expect { try RecipientCertificateFile.load(signOnly.certificate) } throws: { "\($0)".contains("does not allow keyAgreement") }
        let ed = try Self.backOffice(dir, kind: "ed25519")
        #expect { try RecipientCertificateFile.load(ed.certificate) } throws: { "\($0)".contains("expected an RSA or EC key") }
        #expect { try RecipientCertificateFile.load(rsa.key) } throws: { "\($0)".contains("expected PEM \"-----BEGIN CERTIFICATE-----\"") }
        #expect { try RecipientCertificateFile.load(dir + "/none.pem") } throws: { "\($0)".hasPrefix(dir + "/none.pem: the recipient certificate cannot be read") }
    }

    /// The exporter's first results, within 10 s.
    static func firstResults(of exporter: Exporter) -> [Exporter.Result] {
        var results: [Exporter.Result] = []
        let deadline = Date(timeIntervalSinceNow: 10)
        while results.isEmpty && Date() < deadline {
            results = exporter.results()
            usleep(10_000)
        }
        return results
    }

    /// A back office's certificate that expired on 2020-02-01, made by OpenSSL's own CA command
    /// (`req -x509` makes none in the past); with the time inside its validity, to load it.
    static func expiredBackOffice(_ folder: String) throws -> (certificate: String, validAt: Double, notAfter: Double) {
        try "[ca]\ndefault_ca = old\n[old]\ndatabase = \(folder)/index.txt\nnew_certs_dir = \(folder)\nserial = \(folder)/serial\ndefault_md = sha256\npolicy = any\nunique_subject = no\n[any]\ncommonName = supplied\n"
            .write(toFile: folder + "/ca.cnf", atomically: true, encoding: .utf8)
        try "".write(toFile: folder + "/index.txt", atomically: true, encoding: .utf8)
        try "01\n".write(toFile: folder + "/serial", atomically: true, encoding: .utf8)
        let request = try run("openssl", ["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", folder + "/expired.key",
                                          "-out", folder + "/expired.csr", "-subj", "/CN=Expired office"])
        #expect(request.status == 0, "\(request.output)")
        let signed = try run("openssl", ["ca", "-batch", "-notext", "-config", folder + "/ca.cnf", "-selfsign", "-keyfile", folder + "/expired.key",
                                         "-in", folder + "/expired.csr", "-out", folder + "/expired.pem", "-startdate", "20200101000000Z", "-enddate", "20200201000000Z"])
        #expect(signed.status == 0, "\(signed.output)")
        return (folder + "/expired.pem", 1_579_046_400, 1_580_515_200)
    }

    /// From 30 days before the certificate's end the journal is told, once a day, and that it has
    /// expired once it has; its end is the one OpenSSL reads.
    @Test func aCertificateNearItsEndIsWarnedOfOnceADay() throws {
        let dir = scratch()
        defer { removeScratch(dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let office = try Self.backOffice(dir, kind: "ec")
        let certificate = try RecipientCertificateFile.load(office.certificate)
        let end = try run("openssl", ["x509", "-in", office.certificate, "-noout", "-enddate", "-dateopt", "iso_8601"])
        #expect(end.output.trimmingCharacters(in: .whitespacesAndNewlines)
                    == "notAfter=" + ISO8601.string(certificate.notAfter).replacingOccurrences(of: "T", with: " ").replacingOccurrences(of: ".000Z", with: "Z"),
                "\(end.output)")
        let day = 86_400.0, notAfter = certificate.notAfter
        var expiry = CertificateExpiry(certificate)
        #expect(expiry.warning(now: notAfter - 31 * day) == nil)
        #expect(expiry.warning(now: notAfter - 29.5 * day) == .init(subject: "CN=Back office ec", expires: ISO8601.string(notAfter), expired: false, daysLeft: 29))
        #expect(expiry.warning(now: notAfter - 29 * day) == nil, "not twice in a day")
        #expect(expiry.warning(now: notAfter - 28.4 * day)?.daysLeft == 28)
        #expect(expiry.warning(now: notAfter + 1) == .init(subject: "CN=Back office ec", expires: ISO8601.string(notAfter), expired: true, daysLeft: 0))
        var farOff = CertificateExpiry(certificate)
        #expect(farOff.warning(now: notAfter - 40 * day) == nil)
        // Its end is told when it comes, not a day after the last warning.
        #expect(farOff.warning(now: notAfter - 3600)?.expired == false)
        #expect(farOff.warning(now: notAfter - 1) == nil)
        #expect(farOff.warning(now: notAfter + 1)?.expired == true)
        #expect(farOff.warning(now: notAfter + 3600) == nil)
    }

    /// Once the certificate has expired nothing is sealed to it, and nothing is written in clear
    /// instead: the signature stays unwritten, its export failing with that reason.
    @Test func nothingIsSealedToAnExpiredCertificateNorWrittenInClear() throws {
        let dir = scratch()
        defer { removeScratch(dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let office = try Self.expiredBackOffice(dir)
        #expect(throws: EvidenceError.self) { try RecipientCertificateFile.load(office.certificate) }
        let recipient = try RecipientCertificateFile.load(office.certificate, now: office.validAt)
        #expect(recipient.notAfter == office.notAfter)
        let evidence = Evidence(signingKey: testSigningKey, recipient: recipient)
        let expired = CertificateExpired(subject: "CN=Expired office", notAfter: office.notAfter)
        #expect(throws: expired) { try SignatureEncoder.files(for: sampleRecord(), options: ExportOptions(), evidence: evidence) }
        #expect(throws: Never.self) { try SignatureEncoder.files(for: sampleRecord(), options: ExportOptions(), evidence: evidence, now: office.validAt) }

        let exporter = Exporter(directory: dir + "/out", options: ExportOptions(), evidence: evidence, retrySeconds: 60,
                                spool: SignatureSpool(directory: dir + "/spool"))
        exporter.submit(sampleRecord(), exportID: 1)
        let results = Self.firstResults(of: exporter)
        #expect(results.first?.error?.contains("expired on 2020-02-01T00:00:00.000Z") == true, "\(results)")
        #expect(results.first?.error?.contains("export.recipient_certificate") == true, "\(results)")
        #expect(exporter.pending == 1, "kept")
        exporter.stop()
        #expect(names(dir + "/out").isEmpty && !names(dir + "/spool").contains { $0.hasSuffix(".spool.json") }, "\(names(dir + "/out")) \(names(dir + "/spool"))")
    }

    /// A signature its certificate's end kept from being sealed is held in memory only: the
    /// evidence a reload brings (`reseal`) seals it to the new certificate, the spool keeps it
    /// and the folder gets it, before the reload starts signpad again. It was lost at the reload.
    @Test func aSignatureRefusedItsSealIsSealedToTheNextCertificate() throws {
        let dir = scratch()
        defer { removeScratch(dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let ended = try Self.expiredBackOffice(dir)
        let old = Evidence(signingKey: testSigningKey, recipient: try RecipientCertificateFile.load(ended.certificate, now: ended.validAt))
        let office = try Self.backOffice(dir, kind: "ec")
        let next = Evidence(signingKey: testSigningKey, recipient: try RecipientCertificateFile.load(office.certificate))
        let exporter = Exporter(directory: dir + "/out", options: ExportOptions(), evidence: old, retrySeconds: 60,
                                spool: SignatureSpool(directory: dir + "/spool"))
        defer { exporter.stop() }
        let record = sampleRecord()
        exporter.submit(record, exportID: 1)
        let results = Self.firstResults(of: exporter)
        #expect(results.first?.error?.contains("expired on") == true, "\(results)")
        #expect(exporter.pendingOutsideSpool == 1, "held in memory only")

        exporter.reseal(with: next)
        #expect(exporter.waitUntilIdle(timeout: 10), "written without waiting for the 60 s retry")
        let sealed = dir + "/out/\(record.id).inkml.p7m"
        let opened = try run("openssl", ["cms", "-decrypt", "-inform", "DER", "-in", sealed, "-recip", office.certificate,
                                         "-inkey", office.key, "-out", dir + "/opened.inkml"])
        #expect(opened.status == 0, "\(opened.output)")
        #expect(FileManager.default.contents(atPath: dir + "/opened.inkml") == Data(InkMLEncoder.encode(record).utf8))
        let check = ManifestCheck.check(manifest: dir + "/out/\(record.id).meta.json", keys: [testSigningKey.publicKey])
        #expect(check.passed, "\(check.line)")
    }

    @Test func theKeyIsMadeOnceOwnerOnlyAndRotationKeepsTheOldPublicKey() throws {
        let dir = scratch()
        defer { removeScratch(dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let file = SigningKeyFile(path: dir + "/signing.key")
        let (first, created) = try file.loadOrCreate()
        #expect(created)
        let mode = try #require(FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
        let again = try file.loadOrCreate()
        #expect(!again.created && again.key.publicKey == first.publicKey, "the same key at the next start")
        // OpenSSL reads the key file as its own.
        let derived = try run("openssl", ["pkey", "-in", file.path, "-pubout"])
        #expect(derived.status == 0 && derived.output == first.publicKey.pem, "\(derived.output)")

        let signedBefore = try first.sign(Array("manifest".utf8))
        let (next, retired) = try file.rotate()
        #expect(next.publicKey != first.publicKey)
        #expect(try file.load()?.publicKey == next.publicKey)
        #expect(file.retiredKeys().map(\.key) == [first.publicKey])
        #expect(retired == file.retiredKeys().first?.path)
        #expect(file.retiredKeys().first?.key.verifies(signedBefore, of: Array("manifest".utf8)) == true)

        try Data("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n".utf8).write(to: URL(fileURLWithPath: file.path))
        #expect { try file.loadOrCreate() } throws: { "\($0)".hasPrefix(file.path + ": reading the signing key") && "\($0)".contains("move the file away") }
    }

    /// A key others may read is no longer the kiosk's alone: refused, naming the file and the
    /// mode expected, and left as it is.
    @Test(arguments: [0o644, 0o666, 0o640, 0o604, 0o620])
    func aKeyFileOthersMayReadIsRefused(mode: Int) throws {
        let dir = scratch()
        defer { removeScratch(dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let file = SigningKeyFile(path: dir + "/signing.key")
        _ = try file.loadOrCreate()
        let before = try #require(FileManager.default.contents(atPath: file.path))
        #expect(chmod(file.path, mode_t(mode)) == 0)
        #expect { try file.loadOrCreate() } throws: { error in
            "\(error)".hasPrefix(file.path + ": ") && "\(error)".contains("mode 0\(String(mode, radix: 8))") && "\(error)".contains("expected 0600")
        }
        #expect(throws: EvidenceError.self) { try file.rotate() }
        #expect(FileManager.default.contents(atPath: file.path) == before)
    }

    /// A symbolic link could make the kiosk sign as another; one that leads nowhere is not made a
    /// new key, which would change the kiosk's identity without a word. What is not a file is refused too.
    @Test func aLinkOrAFolderWhereTheKeyGoesIsRefusedAndNothingIsMadeThere() throws {
        let dir = scratch()
        defer { removeScratch(dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        _ = try SigningKeyFile(path: dir + "/other-kiosk.key").loadOrCreate()
        let linked = SigningKeyFile(path: dir + "/signing.key")
        try FileManager.default.createSymbolicLink(atPath: linked.path, withDestinationPath: dir + "/other-kiosk.key")
        #expect { try linked.loadOrCreate() } throws: { "\($0)".hasPrefix(linked.path + ": ") && "\($0)".contains("symbolic link") }

        let dangling = SigningKeyFile(path: dir + "/dangling.key")
        try FileManager.default.createSymbolicLink(atPath: dangling.path, withDestinationPath: dir + "/nowhere.key")
        #expect { try dangling.loadOrCreate() } throws: { "\($0)".hasPrefix(dangling.path + ": ") && "\($0)".contains("symbolic link") }
        #expect(!FileManager.default.fileExists(atPath: dir + "/nowhere.key"), "no key made through the link")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dangling.path) == dir + "/nowhere.key")

        let folder = SigningKeyFile(path: dir + "/folder.key")
        try FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: true)
        #expect { try folder.loadOrCreate() } throws: { "\($0)".hasPrefix(folder.path + ": ") && "\($0)".contains("not a regular file") }
    }

    /// A key owned by someone other than the signpad user, root or the user signpad runs as could
    /// have been put there by them.
    @Test(.enabled(if: getuid() == 0, "needs root, to give the key another owner")) func aKeyOwnedByAnotherUserIsRefused() throws {
        let dir = scratch()
        defer { removeScratch(dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let file = SigningKeyFile(path: dir + "/signing.key")
        _ = try file.loadOrCreate()
        #expect(chown(file.path, 65534, 65534) == 0)
        #expect { try file.load() } throws: { "\($0)".hasPrefix(file.path + ": ") && "\($0)".contains("owned by uid 65534") }
        // The service user's key is read by root, as `signpad key show` does.
        #expect(try SigningKeyFile(path: file.path, serviceUser: "nobody").load() != nil)
    }

    /// `signpad key rotate` is run as root; the daemon reads the key as the signpad user. The new
    /// key, and the old public key kept, belong to whoever owned the key they replace.
    @Test(.enabled(if: getuid() == 0, "needs root, to give the key another owner")) func aRotatedKeyKeepsItsOwner() throws {
        let dir = scratch()
        defer { removeScratch(dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let file = SigningKeyFile(path: dir + "/signing.key", serviceUser: "nobody")
        _ = try file.loadOrCreate()
        #expect(chown(file.path, 65534, 65534) == 0)
        let (_, retired) = try file.rotate()
        var info = stat()
        #expect(stat(file.path, &info) == 0 && info.st_uid == 65534 && info.st_gid == 65534 && info.st_mode & 0o777 == 0o600)
        #expect(stat(try #require(retired), &info) == 0 && info.st_uid == 65534)
    }
}
