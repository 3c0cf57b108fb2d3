import Foundation

/// An RFC 3161 time-stamp authority made by the test with OpenSSL: a CA, the authority's EC
/// certificate (extendedKeyUsage critical timeStamping) issued by it, and `openssl ts -reply`
/// answering queries, as a real authority would.
public struct TestTimeStampAuthority {
    public let directory: String
    public var caPEM: String { directory + "/ca.pem" }
    public var certificatePEM: String { directory + "/tsa.pem" }

    /// `digests`: what it accepts (a query for another gets a rejection, badAlg).
    public init(in directory: String, digests: String = "sha256") throws {
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
        for step in [
            ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", directory + "/ca.key", "-out", caPEM,
             "-subj", "/CN=signpad test TSA CA", "-days", "30"],
            ["req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", directory + "/tsa.key",
             "-out", directory + "/tsa.csr", "-subj", "/CN=signpad test TSA"],
            ["x509", "-req", "-in", directory + "/tsa.csr", "-CA", caPEM, "-CAkey", directory + "/ca.key", "-CAcreateserial",
             "-out", certificatePEM, "-days", "30", "-extfile", directory + "/ext.cnf"],
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
