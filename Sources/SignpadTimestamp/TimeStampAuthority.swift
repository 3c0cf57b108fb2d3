import CCurl
import SignpadCrypto

/// An RFC 3161 time-stamp authority over HTTP (RFC 3161 §3.4): a request POSTed as
/// `application/timestamp-query`, its reply read back as `application/timestamp-reply` and
/// checked against the request (`TimeStampRequest.accept`).
public struct TimeStampAuthority: Sendable, Equatable {
    public let url: String
    /// The whole exchange's limit, in seconds.
    public let timeoutSeconds: Int

    /// A reply is a token of a few kilobytes; anything this long is no reply.
    static let replyLimit = 1 << 20

    public init(url: String, timeoutSeconds: Int = 30) {
        self.url = url
        self.timeoutSeconds = timeoutSeconds
    }

    /// Asks for a token over `digest` (SHA-256) and returns the checked reply.
    public func stamp(sha256 digest: [UInt8]) throws(TimeStampError) -> TimeStampReply {
        let request: TimeStampRequest
        do { request = try TimeStampRequest(sha256: digest) } catch { throw .refused(url: url, reason: "\(error)") }
        let reply = try post(request.der)
        do { return try request.accept(reply) } catch { throw .refused(url: url, reason: "\(error)") }
    }

    private func post(_ body: [UInt8]) throws(TimeStampError) -> [UInt8] {
        let loaded: signpad_curl
        switch libcurl {
        case .success(let api): loaded = api
        case .failure(let why): throw .unreachable(url: url, reason: "\(why)")
        }
        var curl = loaded
        var collected = signpad_http_body(bytes: nil, count: 0, limit: Self.replyLimit, overflowed: 0)
        defer { free(collected.bytes) }
        var status = 0
        var replyType = [CChar](repeating: 0, count: 128), error = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE))
        let code = body.withUnsafeBufferPointer { request in
            signpad_http_post(&curl, url, request.baseAddress, request.count, "application/timestamp-query", timeoutSeconds, min(timeoutSeconds, 10),
                              &collected, &status, &replyType, &error)
        }
        func text(_ c: [CChar]) -> String { String(decoding: c.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        if collected.overflowed != 0 { throw .unusable(url: url, reason: "the reply is longer than \(Self.replyLimit) bytes") }
        guard code == CURLE_OK else { throw .unreachable(url: url, reason: text(error)) }
        guard status == 200 else { throw .unusable(url: url, reason: "HTTP status \(status), expected 200") }
        let type = String(text(replyType).prefix { $0 != ";" }.filter { $0 != " " }).lowercased()
        guard type == "application/timestamp-reply" else {
            throw .unusable(url: url, reason: "Content-Type \(type.isEmpty ? "none" : "\"\(type)\""), expected application/timestamp-reply")
        }
        return collected.bytes.map { Array(UnsafeBufferPointer(start: $0, count: collected.count)) } ?? []
    }
}

/// Why libcurl could not be loaded: the loader's words.
public struct CurlLoadFailure: Error, CustomStringConvertible {
    public var reason: String
    public var description: String { "libcurl could not be loaded: \(reason); install libcurl4 (apt-get install libcurl4)" }
}

/// Function pointers only, each copy a value of its own: nothing in it is shared or changes.
extension signpad_curl: @retroactive @unchecked Sendable {}

extension TimeStampAuthority {
    /// Loads `library` and the functions signpad calls from it.
    static func load(_ library: String) -> Result<signpad_curl, CurlLoadFailure> {
        var api = signpad_curl()
        var error = [CChar](repeating: 0, count: 256)
        guard signpad_curl_load(library, &api, &error, error.count) == 0 else {
            return .failure(CurlLoadFailure(reason: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))
        }
        return .success(api)
    }

    /// Why no authority can be asked on this machine, or nil: what `check-config` and the start
    /// say when `export.timestamp_url` is set.
    public static var libraryProblem: CurlLoadFailure? {
        if case .failure(let why) = libcurl { why } else { nil }
    }
}

/// libcurl, loaded the first time an authority is asked or checked for, once for the process; a
/// kiosk without an authority never maps it.
private let libcurl = TimeStampAuthority.load("libcurl.so.4")

/// Why no token came: the authority could not be reached, answered what is no reply, or a reply
/// that is not for the request. Each is retried later.
public enum TimeStampError: Error, Equatable, CustomStringConvertible {
    case unreachable(url: String, reason: String)
    case unusable(url: String, reason: String)
    case refused(url: String, reason: String)

    public var description: String {
        switch self {
        case .unreachable(let url, let reason): "the time-stamp authority \(url) could not be reached: \(reason)"
        case .unusable(let url, let reason): "the time-stamp authority \(url) answered no time-stamp reply: \(reason)"
        case .refused(let url, let reason): "the time-stamp authority \(url) gave no token for the request: \(reason)"
        }
    }
}
