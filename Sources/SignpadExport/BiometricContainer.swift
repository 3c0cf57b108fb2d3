import FoundationEssentials
import SignpadCrypto

/// What a signed PDF carries of the signature beyond its picture: the time series (InkML and
/// the ISO/IEC 19794-7 record) bound to the document's hash, the request's reference, the field
/// and the capture times, as one JSON object sealed to the back office's certificate (CMS
/// EnvelopedData, `openssl cms -decrypt`). Bound to the hash, it cannot be lifted into another
/// document unnoticed.
struct BiometricContainer: Codable, Equatable {
    static let formatName = "signpad-biometric-container/1"

    var format = Self.formatName
    var id: String
    var documentSha256: String
    var reference: String?
    var field: String
    var captureStart: String
    var captureEnd: String
    var device: String
    var inkml: String
    /// Base64 of the binary record.
    var iso19794_7: String

    init(_ record: SignatureRecord, documentSha256: String, field: String) {
        id = record.id
        self.documentSha256 = documentSha256
        reference = record.request?.reference
        self.field = field
        captureStart = ISO8601.string(record.startedAt)
        captureEnd = ISO8601.string(record.endedAt)
        device = record.device
        inkml = InkMLEncoder.encode(record)
        iso19794_7 = Data(ISOSignatureEncoder.record(record).bytes()).base64EncodedString()
    }

    func sealed(to recipient: RecipientCertificate) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try recipient.envelope(Array(try encoder.encode(self)))
    }
}
