/// An indirect object's number and generation: `12 0 R`.
public struct PDFReference: Hashable, Sendable, CustomStringConvertible {
    public let number: Int
    public let generation: Int

    /// The largest generation a cross-reference can give (§7.5.4).
    public static let maxGeneration = 65_535

    public init(_ number: Int, _ generation: Int = 0) {
        self.number = number
        self.generation = generation
    }

    public var description: String { "\(number) \(generation) R" }
}

/// A PDF object as ISO 32000 defines them. Names and strings are bytes: a name may hold any byte
/// but NUL, a string any byte at all.
public indirect enum PDFObject: Equatable, Sendable {
    case null
    case boolean(Bool)
    case integer(Int)
    case real(Double)
    case string([UInt8])
    case name(PDFName)
    case array([PDFObject])
    case dictionary(PDFDictionary)
    case reference(PDFReference)
    /// A stream's dictionary and its bytes as the file holds them (still encoded).
    case stream(PDFDictionary, [UInt8])

    public var integer: Int? { if case .integer(let v) = self { v } else { nil } }
    public var number: Double? {
        switch self {
        case .integer(let v): Double(v)
        case .real(let v): v
        default: nil
        }
    }
    public var name: PDFName? { if case .name(let v) = self { v } else { nil } }
    public var array: [PDFObject]? { if case .array(let v) = self { v } else { nil } }
    public var dictionary: PDFDictionary? {
        switch self {
        case .dictionary(let v), .stream(let v, _): v
        default: nil
        }
    }
    public var reference: PDFReference? { if case .reference(let v) = self { v } else { nil } }
    public var string: [UInt8]? { if case .string(let v) = self { v } else { nil } }
}

/// A name, `/Sig`, by its bytes after `#xx` escapes are decoded.
public struct PDFName: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let bytes: [UInt8]
    public init(bytes: [UInt8]) { self.bytes = bytes }
    public init(stringLiteral value: String) { bytes = Array(value.utf8) }
    public var description: String { "/" + String(decoding: bytes, as: UTF8.self) }
}

/// A dictionary that keeps its entries' order, so a rewritten one reads as its original.
public struct PDFDictionary: Equatable, Sendable {
    public private(set) var entries: [(key: PDFName, value: PDFObject)]

    public init(_ entries: [(key: PDFName, value: PDFObject)] = []) {
        self.entries = []
        for (key, value) in entries { self[key] = value }
    }

    public subscript(key: PDFName) -> PDFObject? {
        get { entries.first { $0.key == key }?.value }
        set {
            let index = entries.firstIndex { $0.key == key }
            switch (index, newValue) {
            case (let i?, let v?): entries[i].value = v
            case (let i?, nil): entries.remove(at: i)
            case (nil, let v?): entries.append((key, v))
            case (nil, nil): break
            }
        }
    }

    public static func == (a: PDFDictionary, b: PDFDictionary) -> Bool {
        a.entries.count == b.entries.count && zip(a.entries, b.entries).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}
