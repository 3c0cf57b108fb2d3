import Foundation

/// An RFC 3161 time-stamp authority made by the test with OpenSSL: a CA, the authority's EC
/// certificate (extendedKeyUsage critical timeStamping) issued by it, and `openssl ts -reply`
/// answering queries, as a real authority would.
public struct TestTimeStampAuthority {
    public let directory: String
    public var caPEM: String { directory + "/ca.pem" }
    public var certificatePEM: String { directory + "/tsa.pem" }

    /// `digests`: what it accepts (a query for another gets a rejection, badAlg). `endsAfter`:
    /// seconds from now when the authority's certificate ends (OpenSSL's CA command issues it
    /// then, as `x509 -days` cannot), else 30 days.
    public init(in directory: String, digests: String = "sha256", endsAfter seconds: Int? = nil) throws {
        self.directory = directory
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let config = """
        [ tsa ]
        default_tsa = tsa_config
        [ tsa_config ]
        serial = \(directory)/serial
        crypto_device = builtin
        signer_cert = \(directory)/tsa.pem
        certs = \(directory)/tsa.pem
        signer_key = \(directory)/tsa.key
        signer_digest = sha256
        default_policy = 1.2.3.4.1
        other_policies = 1.2.3.4.2
        digests = \(digests)
        accuracy = secs:1
        ordering = no
        tsa_name = no
        ess_cert_id_chain = no
        ess_cert_id_alg = sha256

        """
        try config.write(toFile: directory + "/tsa.cnf", atomically: true, encoding: .utf8)
        try "01\n".write(toFile: directory + "/serial", atomically: true, encoding: .utf8)
        try "extendedKeyUsage=critical,timeStamping\nkeyUsage=critical,digitalSignature\n".write(toFile: directory + "/ext.cnf", atomically: true, encoding: .utf8)
        var issue = ["x509", "-req", "-in", directory + "/tsa.csr", "-CA", caPEM, "-CAkey", directory + "/ca.key", "-CAcreateserial",
                     "-out", certificatePEM, "-days", "30", "-extfile", directory + "/ext.cnf"]
        if let seconds {
            let ca = """
            [ ca ]
            default_ca = test
            [ test ]
            database = \(directory)/index.txt
            new_certs_dir = \(directory)
            serial = \(directory)/ca.serial
            default_md = sha256
            policy = any
            [ any ]
            commonName = supplied

            """
            try ca.write(toFile: directory + "/ca.cnf", atomically: true, encoding: .utf8)
            try "".write(toFile: directory + "/index.txt", atomically: true, encoding: .utf8)
            try "1000\n".write(toFile: directory + "/ca.serial", atomically: true, encoding: .utf8)
            let stamp = { (t: Date) -> String in
                let f = DateFormatter()
                f.dateFormat = "yyMMddHHmmss'Z'"
                f.timeZone = TimeZone(identifier: "UTC")
                return f.string(from: t)
            }
            issue = ["ca", "-batch", "-notext", "-config", directory + "/ca.cnf", "-cert", caPEM, "-keyfile", directory + "/ca.key",
                     "-in", directory + "/tsa.csr", "-out", certificatePEM, "-extfile", directory + "/ext.cnf",
                     "-startdate", stamp(Date(timeIntervalSinceNow: -3600)), "-enddate", stamp(Date(timeIntervalSinceNow: Double(seconds)))]
        }
        for step in [
            ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", directory + "/ca.key", "-out", caPEM,
             "-subj", "/CN=signpad test TSA CA", "-days", "30"],
            ["req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", directory + "/tsa.key",
             "-out", directory + "/tsa.csr", "-subj", "/CN=signpad test TSA"],
            issue,
        ] {
            let made = try run("openssl", step)
            guard made.status == 0 else { throw MissingPeer(description: "openssl \(step[0]) failed: \(made.output)") }
        }
    }

    /// The authority's reply (DER TimeStampResp) to a query (DER TimeStampReq).
    public func reply(to query: [UInt8]) throws -> [UInt8] {
        let name = UUID().uuidString
        let queryPath = "\(directory)/\(name).tsq", replyPath = "\(directory)/\(name).tsr"
        try Data(query).write(to: URL(fileURLWithPath: queryPath))
        let answered = try run("openssl", ["ts", "-reply", "-queryfile", queryPath, "-config", directory + "/tsa.cnf", "-out", replyPath])
        guard answered.status == 0, let reply = FileManager.default.contents(atPath: replyPath) else {
            throw MissingPeer(description: "openssl ts -reply failed: \(answered.output)")
        }
        return Array(reply)
    }
}

/// `TestTimeStampAuthority` behind HTTP on a free port of 127.0.0.1 (`Tests/tsa/tsa_server.py`),
/// until `stop()` (a `SpawnedChild`).
public final class TestTimeStampServer {
    public let authority: TestTimeStampAuthority
    public let port: Int
    private let child: SpawnedChild

    public init(_ authority: TestTimeStampAuthority) throws {
        self.authority = authority
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("tsa/tsa_server.py")
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw MissingPeer(description: "pipe: \(String(cString: strerror(errno)))") }
        let scriptPath: String = script.path
        do {
            child = try SpawnedChild(["python3", scriptPath, authority.directory], output: ends[1])
        } catch {
            close(ends[0])
            close(ends[1])
            throw error
        }
        close(ends[1])
        defer { close(ends[0]) }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while read(ends[0], &byte, 1) == 1, byte != UInt8(ascii: "\n") { line.append(byte) }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            child.stop()
            throw MissingPeer(description: "the test time-stamp server did not start (python3 \(scriptPath))")
        }
        self.port = port
    }

    /// The URL of `path` on it: "/" answers as an authority should; see tsa_server.py for the others.
    public func url(_ path: String = "/") -> String { "http://127.0.0.1:\(port)\(path)" }

    /// What it was asked: one line per POST, its path, Content-Type and length.
    public var queries: [String] {
        ((try? String(contentsOfFile: authority.directory + "/queries.log", encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    public func stop() { child.stop() }
}
