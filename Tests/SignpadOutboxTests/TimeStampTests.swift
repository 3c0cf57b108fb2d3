import Foundation
import SignpadCrypto
import SignpadTestSupport
import Testing

/// RFC 3161 with OpenSSL's `ts` command as the authority and the verifier: signpad's request as
/// OpenSSL reads it, the authority's reply accepted only for that request, and the token verified
/// against the authority's CA as `openssl ts -verify` does.
@Suite struct TimeStampTests {
    static let digest = SHA256.digest(Array("the manifest's signature".utf8))

    @Test func theRequestIsWhatOpenSSLExpectsAndItsReplyVerifiesWithOpenSSL() throws {
        try requirePeer(.tool("openssl"))
        let dir = scratch()
        defer { removeScratch(dir) }
        let authority = try TestTimeStampAuthority(in: dir)
        let request = try TimeStampRequest(sha256: Self.digest)
        try Data(request.der).write(to: URL(fileURLWithPath: dir + "/q.tsq"))
        let text = try run("openssl", ["ts", "-query", "-in", dir + "/q.tsq", "-text"])
        #expect(text.status == 0 && text.output.contains("Hash Algorithm: sha256") && text.output.contains("Certificate required: yes")
                && text.output.contains("Nonce: 0x"), "\(text.output)")
        let hex = Self.digest.map { String(format: "%02x", $0) }.joined(separator: " ")
        #expect(text.output.replacingOccurrences(of: "-", with: " ").lowercased().contains(hex.prefix(23)), "the imprint is the digest: \(text.output)")

        let before = Date().timeIntervalSince1970.rounded(.down)
        let reply = try request.accept(authority.reply(to: request.der))
        #expect(reply.time >= before - 1 && reply.time <= Date().timeIntervalSince1970 + 1)
        try Data(reply.der).write(to: URL(fileURLWithPath: dir + "/r.tsr"))
        let verified = try run("openssl", ["ts", "-verify", "-queryfile", dir + "/q.tsq", "-in", dir + "/r.tsr", "-CAfile", authority.caPEM])
        #expect(verified.status == 0 && verified.output.contains("Verification: OK"), "\(verified.output)")
        let ca = Array(try Data(contentsOf: URL(fileURLWithPath: authority.caPEM)))
        #expect(try reply.verify(sha256: Self.digest, caPEM: ca) == reply.time)
        #expect(try TimeStampReply(der: reply.der) == reply)
    }

    /// A reply for another digest, or to another request over the same one (its nonce), or a
    /// refusal, or bytes that are no reply, is not taken.
    @Test func aReplyThatIsNotForThisRequestIsRefused() throws {
        try requirePeer(.tool("openssl"))
        let dir = scratch()
        defer { removeScratch(dir) }
        let authority = try TestTimeStampAuthority(in: dir + "/a")
        let request = try TimeStampRequest(sha256: Self.digest)
        let other = try TimeStampRequest(sha256: SHA256.digest(Array("another".utf8)))
        let again = try TimeStampRequest(sha256: Self.digest)
        #expect(throws: CryptoError.self) { try request.accept(authority.reply(to: other.der)) }
        #expect(throws: CryptoError.self) { try request.accept(authority.reply(to: again.der)) }
        let refusing = try TestTimeStampAuthority(in: dir + "/b", digests: "sha512")
        do {
            _ = try request.accept(refusing.reply(to: request.der))
            Issue.record("a rejection was taken")
        } catch {
            #expect("\(error)".contains("checking the time-stamp reply"), "\(error)")
        }
        do {
            _ = try request.accept(Array("<html>502 Bad Gateway</html>".utf8))
            Issue.record("garbage was taken")
        } catch {
            #expect("\(error)".contains("expected a DER TimeStampResp"), "\(error)")
        }
        #expect(throws: CryptoError.self) { try TimeStampRequest(sha256: [1, 2, 3]) }
    }

    /// A token stays good once its authority's certificate has ended: it is checked as at its own
    /// time, as a record is kept for years. (`openssl ts -verify` checks at today's, and refuses it.)
    @Test func aTokenVerifiesAfterItsAuthoritysCertificateHasEnded() throws {
        try requirePeer(.tool("openssl"))
        let dir = scratch()
        defer { removeScratch(dir) }
        let authority = try TestTimeStampAuthority(in: dir, endsAfter: 3)
        let request = try TimeStampRequest(sha256: Self.digest)
        let reply = try request.accept(authority.reply(to: request.der))
        let ca = Array(try Data(contentsOf: URL(fileURLWithPath: authority.caPEM)))
        #expect(throws: Never.self) { try reply.verify(sha256: Self.digest, caPEM: ca) }
        sleep(5)
        #expect(throws: Never.self) { try reply.verify(sha256: Self.digest, caPEM: ca) }
        try Data(reply.der).write(to: URL(fileURLWithPath: dir + "/r.tsr"))
        let today = try run("openssl", ["ts", "-verify", "-digest", Hex.string(Self.digest), "-in", dir + "/r.tsr", "-CAfile", authority.caPEM])
        #expect(today.status != 0 && today.output.contains("expired"), "the certificate has ended by today's date: \(today.output)")
    }

    /// The token verifies only against its authority's CA and for its own digest.
    @Test func theTokenVerifiesOnlyWithItsCAAndItsDigest() throws {
        try requirePeer(.tool("openssl"))
        let dir = scratch()
        defer { removeScratch(dir) }
        let authority = try TestTimeStampAuthority(in: dir + "/a"), stranger = try TestTimeStampAuthority(in: dir + "/b")
        let request = try TimeStampRequest(sha256: Self.digest)
        let reply = try request.accept(authority.reply(to: request.der))
        let ca = Array(try Data(contentsOf: URL(fileURLWithPath: authority.caPEM)))
        let strangerCA = Array(try Data(contentsOf: URL(fileURLWithPath: stranger.caPEM)))
        #expect(throws: Never.self) { try reply.verify(sha256: Self.digest, caPEM: ca) }
        #expect(throws: CryptoError.self) { try reply.verify(sha256: Self.digest, caPEM: strangerCA) }
        #expect(throws: CryptoError.self) { try reply.verify(sha256: SHA256.digest(Array("another".utf8)), caPEM: ca) }
        #expect(throws: CryptoError.self) { try reply.verify(sha256: Self.digest, caPEM: Array("not PEM".utf8)) }
    }
}
