import SignpadCrypto

/// A certificate's end (the recipient's, or the kiosk's own for documents), told ahead: from 30 days before it, a warning at most once a
/// day, so staff have a month to get the back office's new one and the journal is not flooded;
/// and its end at once, then once a day.
public struct CertificateExpiry: Sendable {
    /// A warning is due from this long before the certificate's end.
    public static let warningSeconds = 30 * 86_400.0
    /// And again no sooner than this after the last.
    public static let repeatSeconds = 86_400.0

    /// What the journal is told.
    public struct Warning: Equatable, Sendable {
        public var subject: String
        /// The certificate's end, RFC 3339.
        public var expires: String
        public var expired: Bool
        /// Whole days left, 0 once it has expired.
        public var daysLeft: Int

        public init(subject: String, expires: String, expired: Bool, daysLeft: Int) {
            self.subject = subject
            self.expires = expires
            self.expired = expired
            self.daysLeft = daysLeft
        }
    }

    public let subject: String
    public let notAfter: Double
    /// Seconds since 1970 before which no warning is due.
    private var nextWarningAt: Double

    public init(_ certificate: RecipientCertificate) {
        self.init(subject: certificate.subject, notAfter: certificate.notAfter)
    }

    public init(subject: String, notAfter: Double) {
        self.subject = subject
        self.notAfter = notAfter
        nextWarningAt = notAfter - Self.warningSeconds
    }

    /// The warning due at `now` (seconds since 1970), if one is: within 30 days of the end, a day
    /// after the last or at the end. Costs a comparison when none is due.
    public mutating func warning(now: Double) -> Warning? {
        guard now >= nextWarningAt else { return nil }
        // The moment it expires is told at once, not up to a day later.
        nextWarningAt = now < notAfter ? min(now + Self.repeatSeconds, notAfter) : now + Self.repeatSeconds
        let left = notAfter - now
        return Warning(subject: subject, expires: ISO8601.string(notAfter), expired: left <= 0, daysLeft: max(0, Int(left / 86_400)))
    }
}

/// Nothing is sealed to a certificate that has expired: said, with what to do, as the reason a
/// signature is not written.
public struct CertificateExpired: Error, CustomStringConvertible, Equatable, Sendable {
    public var subject: String
    public var notAfter: Double

    public init(subject: String, notAfter: Double) {
        self.subject = subject
        self.notAfter = notAfter
    }

    public var description: String {
        "the recipient certificate \(subject) expired on \(ISO8601.string(notAfter)): nothing is sealed to it, so the signature is kept, not written; "
            + "put the back office's new certificate in export.recipient_certificate and reload signpad"
    }

    /// Why no signature is taken meanwhile: requests are not ready, the screen is out of service.
    public var outOfServiceReason: String {
        "the recipient certificate \(subject) expired on \(ISO8601.string(notAfter)), so nothing can be sealed; "
            + "put the back office's new one in export.recipient_certificate and reload signpad"
    }
}
