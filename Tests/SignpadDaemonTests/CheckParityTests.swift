import Foundation
import SignpadConfig
@testable import SignpadDaemon
import SignpadSystemCheck
import SignpadTestSupport
import SignpadVocabulary
import Testing

/// What check-config, the daemon's start and a reload say of one configuration: it runs, or it
/// is refused for these keys.
enum Verdict: Equatable, CustomStringConvertible {
    case accepted
    case refused(keys: [String])
    /// Refused by something that names no key: a check that is not shared.
    case failed(String)

    var description: String {
        switch self {
        case .accepted: return "accepted"
        case .refused(let keys): return "refused (\(keys.joined(separator: ", ")))"
        case .failed(let reason): return "failed: \(reason)"
        }
    }

    init(_ error: Error) {
        switch error {
        case let config as ConfigError: self = .refused(keys: [config.key ?? "(file)"])
        case let system as SystemCheckError: self = .refused(keys: system.problems.map(\.key).sorted())
        default: self = .failed("\(error)")
        }
    }
}

/// A broken configuration: the keys over the working one in the case's folder, or a whole file.
struct BrokenCase: CustomStringConvertible {
    var name: String
    var overrides: [String] = []
    var text = ""
    var expected: Verdict

    var description: String { name }
}

// One validation (issue 54): check-config, the start and a reload run the same checks, so that a
// reload never hands the screen to a start that would fail, and check-config passes nothing the
// start refuses. In the serialized suite: the start installs signal handlers for the process.
extension DaemonStartTests {
    @Test func checkConfigTheStartAndAReloadAgreeOnEveryBrokenConfiguration() throws {
        try requirePeer(.tool("openssl"))
        let dir = scratch()
        defer { removeScratch(dir) }
        let cases = try brokenCases(in: dir)
        #expect(cases.count >= 30)
        for broken in cases {
            let fresh = "\(dir)/\(broken.name.filter { $0.isLetter || $0.isNumber })"
            try FileManager.default.createDirectory(atPath: fresh, withIntermediateDirectories: true)
            let overrides = baseOverrides(fresh) + broken.overrides.map { expand($0, in: fresh) }
            let load = { @Sendable () throws -> Config in try Config.load(text: broken.text, file: "(case)", overrides: overrides) }
            let checked = checkConfigVerdict(load)
            let reloaded = reloadVerdict(load, running: try controlledConfig(fresh))
            let started = startVerdict(load)
            #expect(checked == broken.expected, "\(broken): check-config \(checked)")
            #expect(started == checked, "\(broken): start \(started), check-config \(checked)")
            #expect(reloaded == checked, "\(broken): reload \(reloaded), check-config \(checked)")
            // A refused start made nothing: no key, no socket.
            if started != .accepted {
                #expect(!FileManager.default.fileExists(atPath: fresh + "/control.sock"), "\(broken)")
                #expect(!FileManager.default.fileExists(atPath: fresh + "/signing.key"), "\(broken)")
            }
            removeScratch(fresh)
        }
    }
}

/// A case's override with its folder in place of `@`, and `@107`/`@108` a socket path of that many bytes in it.
private func expand(_ override: String, in folder: String) -> String {
    var text = override
    for bytes in [107, 108] {
        text = text.replacingOccurrences(of: "@\(bytes)", with: folder + "/" + String(repeating: "s", count: bytes - folder.utf8.count - 1))
    }
    return text.replacingOccurrences(of: "@", with: folder)
}

/// What `signpad check-config` does with a configuration that loads.
private func checkConfigVerdict(_ load: () throws -> Config) -> Verdict {
    do {
        let problems = SystemCheck(try load(), runner: .serviceUser("signpad")).problems
        return problems.isEmpty ? .accepted : Verdict(SystemCheckError(problems: problems))
    } catch {
        return Verdict(error)
    }
}

/// What a SIGHUP does: the daemon's reload check, with a kiosk shown on a screen in memory.
private func reloadVerdict(_ load: () throws -> Config, running: Config) -> Verdict {
    let daemon = Daemon(config: running, logger: CollectedLog().logger()) { running }
    do {
        try daemon.checkReload(try load(), shown: HeadlessDisplay(width: 640, height: 400))
        return .accepted
    } catch {
        return Verdict(error)
    }
}

/// What the daemon's start does: refused, or the kiosk shown (and then stopped).
private func startVerdict(_ load: @escaping @Sendable () throws -> Config) -> Verdict {
    let config: Config
    do { config = try load() } catch { return Verdict(error) }
    let (log, outcome) = runOffscreen(config, loadConfig: load) { _ in }
    switch outcome.value {
    case .success?: return log.text.contains("ready: ") ? .accepted : .failed("ended without showing the kiosk: \(log.text)")
    case .failure(let error)?: return Verdict(error)
    case nil: return .failed("did not stop: \(log.text)")
    }
}

/// The working configuration's folders, in `dir`.
private func baseOverrides(_ dir: String) -> [String] {
    [
        "export.directory=\"\(dir)/out\"", "export.spool_directory=\"\(dir)/spool\"", "export.signing_key=\"\(dir)/signing.key\"",
        "control.socket=\"\(dir)/control.sock\"", "control.group=\"\"", "control.results=\"\(dir)/requests.json\"",
    ]
}

/// At least 30 configurations that the file or the machine refuses, and a few it takes; `@` in
/// a case is its own fresh folder, `dir` holds the keys and certificates they share.
private func brokenCases(in dir: String) throws -> [BrokenCase] {
    let files = FileManager.default
    try files.createDirectory(atPath: dir + "/fixtures/a-folder", withIntermediateDirectories: true)
    let fixtures = dir + "/fixtures"
    func openssl(_ arguments: [String], in folder: String = fixtures) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "openssl \(arguments)")
    }
    #expect(files.createFile(atPath: fixtures + "/garbage.pem", contents: Data("not PEM at all".utf8)))
    #expect(files.createFile(atPath: fixtures + "/empty.pem", contents: Data()))
    #expect(files.createFile(atPath: fixtures + "/not-a.png", contents: Data("not a png".utf8)))
    #expect(files.createFile(atPath: fixtures + "/a-file", contents: Data("x".utf8)))
    try openssl(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:1024", "-out", "rsa.key"])
    try openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384", "-out", "ec.key"])
    try openssl(["genpkey", "-algorithm", "ED25519", "-out", "ed25519.key"])
    try openssl(["pkey", "-in", "ed25519.key", "-pubout", "-out", "ed25519.pub"])
    try openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "signer.key", "-out", "signing-only.pem",
                 "-days", "30", "-subj", "/CN=Signing only", "-addext", "keyUsage=digitalSignature"])
    try openssl(["req", "-x509", "-key", "ed25519.key", "-out", "ed25519-cert.pem", "-days", "30", "-subj", "/CN=Ed25519"])
    // Certificates outside their validity, signed by themselves with dates given (what `ca` allows).
    #expect(files.createFile(atPath: fixtures + "/index.txt", contents: Data()))
    #expect(files.createFile(atPath: fixtures + "/serial", contents: Data("01\n".utf8)))
    let ca = "[ca]\ndefault_ca = d\n[d]\ndatabase = index.txt\nserial = serial\nnew_certs_dir = .\nunique_subject = no\ndefault_md = sha256\npolicy = p\ncopy_extensions = copy\n[p]\ncommonName = supplied\n"
    #expect(files.createFile(atPath: fixtures + "/ca.cnf", contents: Data(ca.utf8)))
    try openssl(["req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "office.key", "-out", "office.csr",
                 "-subj", "/CN=Back office", "-addext", "keyUsage=keyAgreement"])
    for (name, start, end) in [("expired", "20200101000000Z", "20210101000000Z"), ("future", "20900101000000Z", "20910101000000Z")] {
        try openssl(["ca", "-batch", "-config", "ca.cnf", "-selfsign", "-keyfile", "office.key", "-in", "office.csr", "-out", "\(name).pem",
                     "-startdate", start, "-enddate", end])
    }
    try openssl(["x509", "-req", "-in", "office.csr", "-key", "office.key", "-days", "30", "-copy_extensions", "copy", "-out", "office.pem"])

    func key(_ path: String) -> String { "export.signing_key=\"\(path)\"" }
    func certificate(_ path: String) -> String { "export.recipient_certificate=\"\(path)\"" }
    func document(_ path: String) -> String { "export.document_certificate=\"\(path)\"" }
    func documents(_ path: String) -> String { "documents.directory=\"\(path)\"" }
    func refused(_ keys: String...) -> Verdict { .refused(keys: keys.sorted()) }
    let cases: [BrokenCase] = [
        // The file's own mistakes: one reader for all three.
        BrokenCase(name: "a relative export folder", overrides: ["export.directory=\"out\""], expected: refused("export.directory")),
        BrokenCase(name: "an unknown key", overrides: ["export.directry=\"/x\""], expected: refused("export.directry")),
        BrokenCase(name: "a width out of reason", overrides: ["ink.width=100000"], expected: refused("ink.width")),
        BrokenCase(name: "the spool in the export folder", overrides: ["export.spool_directory=\"@/out/\""], expected: refused("export.spool_directory")),
        BrokenCase(name: "images sealed to no one", overrides: ["export.encrypt_images=true"], expected: refused("export.encrypt_images")),
        BrokenCase(name: "a relative socket", overrides: ["control.socket=\"control.sock\""], expected: refused("control.socket")),
        BrokenCase(name: "a relative results file", overrides: ["control.results=\"requests.json\""], expected: refused("control.results")),
        BrokenCase(name: "a relative key", overrides: [key("signing.key")], expected: refused("export.signing_key")),
        BrokenCase(name: "an unclosed string", text: "[kiosk]\nprompt = \"unclosed\n", expected: refused("kiosk.prompt")),
        BrokenCase(name: "a log level that is none", overrides: ["daemon.log_level=\"loud\""], expected: refused("daemon.log_level")),
        // The signing key.
        BrokenCase(name: "a key that is garbage", overrides: [key(fixtures + "/garbage.pem")], expected: refused("export.signing_key")),
        BrokenCase(name: "an RSA key", overrides: [key(fixtures + "/rsa.key")], expected: refused("export.signing_key")),
        BrokenCase(name: "an EC key on P-384", overrides: [key(fixtures + "/ec.key")], expected: refused("export.signing_key")),
        BrokenCase(name: "a public key for the key", overrides: [key(fixtures + "/ed25519.pub")], expected: refused("export.signing_key")),
        BrokenCase(name: "an empty key file", overrides: [key(fixtures + "/empty.pem")], expected: refused("export.signing_key")),
        BrokenCase(name: "a key that is a folder", overrides: [key(fixtures + "/a-folder")], expected: refused("export.signing_key")),
        BrokenCase(name: "a key in a missing folder", overrides: [key("@/missing/signing.key")], expected: refused("export.signing_key")),
        BrokenCase(name: "a key under a file", overrides: [key(fixtures + "/a-file/signing.key")], expected: refused("export.signing_key")),
        // The recipient certificate.
        BrokenCase(name: "a missing certificate", overrides: [certificate("@/office.pem")], expected: refused("export.recipient_certificate")),
        BrokenCase(name: "a certificate that is garbage", overrides: [certificate(fixtures + "/garbage.pem")], expected: refused("export.recipient_certificate")),
        BrokenCase(name: "an expired certificate", overrides: [certificate(fixtures + "/expired.pem")], expected: refused("export.recipient_certificate")),
        BrokenCase(name: "a certificate not valid yet", overrides: [certificate(fixtures + "/future.pem")], expected: refused("export.recipient_certificate")),
        BrokenCase(name: "a certificate for signing only", overrides: [certificate(fixtures + "/signing-only.pem")], expected: refused("export.recipient_certificate")),
        BrokenCase(name: "an Ed25519 certificate", overrides: [certificate(fixtures + "/ed25519-cert.pem")], expected: refused("export.recipient_certificate")),
        BrokenCase(name: "a certificate that is a folder", overrides: [certificate(fixtures + "/a-folder")], expected: refused("export.recipient_certificate")),
        // The document certificate: the signing key's, P-256, readable; and the documents folder.
        BrokenCase(name: "a document certificate for another key",
                   overrides: [key(fixtures + "/signer.key"), document(fixtures + "/office.pem"), documents("@/documents")], expected: refused("export.document_certificate")),
        BrokenCase(name: "a document certificate of an Ed25519 key",
                   overrides: [key(fixtures + "/ed25519.key"), document(fixtures + "/ed25519-cert.pem"), documents("@/documents")], expected: refused("export.document_certificate")),
        BrokenCase(name: "a document certificate that is garbage",
                   overrides: [key(fixtures + "/signer.key"), document(fixtures + "/garbage.pem"), documents("@/documents")], expected: refused("export.document_certificate")),
        BrokenCase(name: "a document certificate and no key yet",
                   overrides: [document(fixtures + "/signing-only.pem"), documents("@/documents")], expected: refused("export.document_certificate")),
        BrokenCase(name: "a documents folder under a file",
                   overrides: [key(fixtures + "/signer.key"), document(fixtures + "/signing-only.pem"), documents(fixtures + "/a-file/documents")], expected: refused("documents.directory")),
        BrokenCase(name: "a relative documents folder", overrides: ["documents.directory=\"documents\""], expected: refused("documents.directory")),
        BrokenCase(name: "no page renderer",
                   overrides: [key(fixtures + "/signer.key"), document(fixtures + "/signing-only.pem"), documents("@/documents"), "documents.renderer=\"@/missing/signpad-render\""],
                   expected: refused("documents.renderer")),
        BrokenCase(name: "a renderer that is a folder",
                   overrides: [key(fixtures + "/signer.key"), document(fixtures + "/signing-only.pem"), documents("@/documents"), "documents.renderer=\"\(fixtures)/a-folder\""],
                   expected: refused("documents.renderer")),
        BrokenCase(name: "documents of a gigabyte", overrides: ["documents.max_bytes=1073741824"], expected: refused("documents.max_bytes")),
        BrokenCase(name: "the key's own document certificate",
                   overrides: [key(fixtures + "/signer.key"), document(fixtures + "/signing-only.pem"), documents("@/documents")], expected: .accepted),
        // Groups.
        BrokenCase(name: "a control group that is none", overrides: ["control.group=\"signpad-no-such-group\""], expected: refused("control.group")),
        BrokenCase(name: "an export group that is none", overrides: ["export.group=\"signpad-no-such-group\""], expected: refused("export.group")),
        // The socket and the results file.
        BrokenCase(name: "a socket path of 108 bytes", overrides: ["control.socket=\"@108\""], expected: refused("control.socket")),
        BrokenCase(name: "a socket in a missing folder", overrides: ["control.socket=\"@/missing/control.sock\""], expected: refused("control.socket")),
        BrokenCase(name: "a socket that is a folder", overrides: ["control.socket=\"\(fixtures)/a-folder\""], expected: refused("control.socket")),
        BrokenCase(name: "results in a missing folder", overrides: ["control.results=\"@/missing/requests.json\""], expected: refused("control.results")),
        BrokenCase(name: "results that are a folder", overrides: ["control.results=\"\(fixtures)/a-folder\""], expected: refused("control.results")),
        // The spool and the picture.
        BrokenCase(name: "a spool that is a file", overrides: ["export.spool_directory=\"\(fixtures)/a-file\""], expected: refused("export.spool_directory")),
        BrokenCase(name: "a spool in a missing folder", overrides: ["export.spool_directory=\"@/missing/spool\""], expected: refused("export.spool_directory")),
        BrokenCase(name: "a missing background", overrides: ["kiosk.background_image=\"@/brand.png\""], expected: refused("kiosk.background_image")),
        BrokenCase(name: "a background that is no PNG", overrides: ["kiosk.background_image=\"\(fixtures)/not-a.png\""], expected: refused("kiosk.background_image")),
        // Several at once: all are said, not the first alone.
        BrokenCase(name: "a garbage key and no group", overrides: [key(fixtures + "/garbage.pem"), "control.group=\"signpad-no-such-group\""],
                   expected: refused("export.signing_key", "control.group")),
        // What all three take: the working file, a socket path that just fits, a group unused
        // without a socket, a good certificate, and an export folder that fails (the status says so).
        BrokenCase(name: "the working configuration", expected: .accepted),
        BrokenCase(name: "a socket path of 107 bytes", overrides: ["control.socket=\"@107\""], expected: .accepted),
        BrokenCase(name: "no socket and a group that is none", overrides: ["control.socket=\"\"", "control.group=\"signpad-no-such-group\""], expected: .accepted),
        BrokenCase(name: "a good certificate", overrides: [certificate(fixtures + "/office.pem")], expected: .accepted),
        BrokenCase(name: "an export folder under a file", overrides: ["export.directory=\"\(fixtures)/a-file/out\""], expected: .accepted),
    ]
    return cases
}
