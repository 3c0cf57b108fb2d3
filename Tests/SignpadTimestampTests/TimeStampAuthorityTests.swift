import Foundation
import SignpadCrypto
import SignpadTestSupport
@testable import SignpadTimestamp
import Testing

/// The authority over HTTP, as libcurl reaches it: a token from a working one, which OpenSSL
/// verifies; and from broken ones, an error that says which kind of broken, never a token.
@Suite struct TimeStampAuthorityTests {
    /// libcurl is loaded, not linked: where it is installed it loads with every function signpad
    /// calls; a library that is not there is an error that names it and says what to install.
    @Test func libcurlIsLoadedWhenAnAuthorityIsAsked() {
        #expect(TimeStampAuthority.libraryProblem == nil)
        guard case .failure(let missing) = TimeStampAuthority.load("libcurl-not-installed.so.4") else {
            Issue.record("a library that is not installed loaded")
            return
        }
        #expect("\(missing)".contains("libcurl-not-installed.so.4") && "\(missing)".contains("apt-get install libcurl4"), "\(missing)")
        // A library that is there but is no libcurl.
        guard case .failure(let wrong) = TimeStampAuthority.load("libz.so.1") else {
            Issue.record("zlib passed for libcurl")
            return
        }
        #expect("\(wrong)".contains("libz.so.1 has no curl_easy_init"), "\(wrong)")
    }

    static let digest = SHA256.digest(Array("the manifest's signature".utf8))

    @Test func aWorkingAuthorityGivesATokenOpenSSLVerifies() throws {
        try requirePeer(.tool("openssl"))
        try requirePeer(.tool("python3"))
        let dir = scratch()
        defer { removeScratch(dir) }
        let server = try TestTimeStampServer(TestTimeStampAuthority(in: dir))
        defer { server.stop() }
        let reply = try TimeStampAuthority(url: server.url()).stamp(sha256: Self.digest)
        #expect(server.queries.count == 1 && server.queries.first?.hasPrefix("/ application/timestamp-query ") == true, "\(server.queries)")
        try Data(reply.der).write(to: URL(fileURLWithPath: dir + "/r.tsr"))
        let hex = Self.digest.map { String(format: "%02x", $0) }.joined()
        let verified = try run("openssl", ["ts", "-verify", "-digest", hex, "-in", dir + "/r.tsr", "-CAfile", server.authority.caPEM])
        #expect(verified.status == 0 && verified.output.contains("Verification: OK"), "\(verified.output)")
    }

    @Test(arguments: [
        ("/down", "HTTP status 503"),
        ("/html", "Content-Type \"text/html\""),
        ("/garbage", "expected a DER TimeStampResp"),
        ("/other", "checking the time-stamp reply against its request"),
        ("/slow", "timed out after 2"),
    ])
    func aBrokenAuthorityGivesNoToken(path: String, said: String) throws {
        try requirePeer(.tool("openssl"))
        try requirePeer(.tool("python3"))
        let dir = scratch()
        defer { removeScratch(dir) }
        let server = try TestTimeStampServer(TestTimeStampAuthority(in: dir))
        defer { server.stop() }
        do {
            _ = try TimeStampAuthority(url: server.url(path), timeoutSeconds: 2).stamp(sha256: Self.digest)
            Issue.record("\(path): a token")
        } catch {
            #expect("\(error)".contains(said), "\(path): \(error)")
        }
    }

    @Test func anAuthorityNobodyAnswersIsUnreachable() throws {
        // A port nothing listens on: the server's own, once stopped.
        let dir = scratch()
        defer { removeScratch(dir) }
        let server = try TestTimeStampServer(TestTimeStampAuthority(in: dir))
        server.stop()
        #expect(throws: TimeStampError.self) { try TimeStampAuthority(url: server.url(), timeoutSeconds: 2).stamp(sha256: Self.digest) }
        do {
            _ = try TimeStampAuthority(url: server.url(), timeoutSeconds: 2).stamp(sha256: Self.digest)
            Issue.record("a token from a server that is not there")
        } catch {
            guard case .unreachable = error else { Issue.record("\(error)"); return }
        }
        do {
            _ = try TimeStampAuthority(url: "ftp://127.0.0.1/", timeoutSeconds: 2).stamp(sha256: Self.digest)
            Issue.record("ftp was used")
        } catch {
            #expect("\(error)".contains("could not be reached") && "\(error)".contains("not supported"), "only HTTP(S): \(error)")
        }
    }
}
