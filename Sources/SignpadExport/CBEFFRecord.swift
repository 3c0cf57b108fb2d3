import FoundationEssentials

/// An ISO/IEC 19785-3 CBEFF record in its patron format for XML (`BIR`), wrapping a biometric
/// data block as Wacom's Signature Library wraps its ISO/IEC 19794-7 records: the block's
/// format owner 257 (ISO/IEC JTC 1/SC 37) and type 7, as the design notes decode Wacom's sample;
/// the block base64 in `BDB`. Integrity is false here: the kiosk's signature over the manifest,
/// which lists this file's SHA-256, is what protects it.
public enum CBEFFRecord {
    public static let namespace = "http://standards.iso.org/iso-iec/19785/-3/ed-2/"
    public static let formatOwner = 257
    public static let formatType = 7

    public static func xml(wrapping block: [UInt8], record: SignatureRecord) -> String {
        var info = "    <Creator>signpad</Creator>\n"
        if let uuid = uuid(in: record.id) { info += "    <Index>\(uuid)</Index>\n" }
        info += "    <Integrity>false</Integrity>\n    <CreationDate>\(ISO8601.string(record.endedAt))</CreationDate>\n"
        return """
        <?xml version="1.0" encoding="UTF-8"?>
        <BIR xmlns="\(namespace)">
          <Version><Major>1</Major><Minor>0</Minor></Version>
          <CBEFFVersion><Major>2</Major><Minor>0</Minor></CBEFFVersion>
          <BIRInfo>
        \(info)  </BIRInfo>
          <BDBInfo>
            <Format><Organization>\(formatOwner)</Organization><Type>\(formatType)</Type></Format>
            <CreationDate>\(ISO8601.string(record.startedAt))</CreationDate>
            <Type>SignatureSign</Type>
            <Level>Raw</Level>
          </BDBInfo>
          <BDB>\(Data(block).base64EncodedString())</BDB>
        </BIR>

        """
    }

    /// Whether `bytes` look like XML rather than a binary record.
    public static func looksLikeXML(_ bytes: [UInt8]) -> Bool {
        bytes.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) } == UInt8(ascii: "<")
    }

    /// The biometric data block of a `BIR`: its one `BDB` element's base64, with or without a
    /// namespace prefix. Comments, processing instructions, CDATA and character references are
    /// read as XML has them; the root must be a `BIR` in the CBEFF namespace. A record holding
    /// several (nested `BIR`s) is refused by name.
    public static func block(in xml: [UInt8]) throws(CBEFFError) -> [UInt8] {
        guard let text = String(validating: xml, as: UTF8.self) else { throw CBEFFError(reason: "expected UTF-8 XML") }
        var rootSeen = false
        var blocks: [String] = []
        var open: String?  // a BDB's content so far
        var rest = text[...]
        while !rest.isEmpty {
            if rest.hasPrefix("<!--") {
                rest = try after("-->", in: rest, "a comment is not closed")
            } else if rest.hasPrefix("<?") {
                rest = try after("?>", in: rest, "a processing instruction is not closed")
            } else if rest.hasPrefix("<![CDATA[") {
                guard let end = rest.firstRange(of: "]]>") else { throw CBEFFError(reason: "a CDATA section is not closed") }
                open?.append(contentsOf: rest[rest.index(rest.startIndex, offsetBy: 9)..<end.lowerBound])
                rest = rest[end.upperBound...]
            } else if rest.hasPrefix("<!") {
                rest = try after(">", in: rest, "a declaration is not closed")
            } else if rest.hasPrefix("<") {
                guard let end = rest.firstIndex(of: ">") else { throw CBEFFError(reason: "a tag is not closed") }
                let tag = rest[rest.index(after: rest.startIndex)..<end]
                rest = rest[rest.index(after: end)...]
                let closing = tag.hasPrefix("/")
                let name = (closing ? tag.dropFirst() : tag).prefix { !$0.isWhitespace && $0 != "/" }
                let local = name.split(separator: ":").last ?? name
                if !rootSeen {
                    guard local == "BIR", tag.contains("\"\(namespace)\"") || tag.contains("'\(namespace)'") else {
                        throw CBEFFError(reason: "expected a BIR in the namespace \(namespace) at the root, found <\(name)>")
                    }
                    rootSeen = true
                }
                guard local == "BDB" else { continue }
                if closing, let content = open {
                    blocks.append(content)
                    open = nil
                } else if !closing {
                    guard !tag.hasSuffix("/") else { throw CBEFFError(reason: "the BDB element is empty") }
                    open = ""
                }
            } else {
                let end = rest.firstIndex(of: "<") ?? rest.endIndex
                if open != nil { open!.append(try characters(rest[..<end])) }
                rest = rest[end...]
            }
        }
        guard rootSeen else { throw CBEFFError(reason: "expected a BIR in the namespace \(namespace) at the root, found no element") }
        guard open == nil else { throw CBEFFError(reason: "the BDB element is not closed") }
        guard blocks.count == 1, let base64 = blocks.first else {
            throw CBEFFError(reason: blocks.isEmpty ? "expected a BDB element, found none" : "expected one BDB element, found \(blocks.count)")
        }
        guard let data = Data(base64Encoded: String(base64.filter { !$0.isWhitespace })) else { throw CBEFFError(reason: "the BDB element is not base64") }
        return Array(data)
    }

    private static func after(_ end: String, in text: Substring, _ problem: String) throws(CBEFFError) -> Substring {
        guard let range = text[text.index(text.startIndex, offsetBy: 2)...].firstRange(of: end) else { throw CBEFFError(reason: problem) }
        return text[range.upperBound...]
    }

    /// Character data with its references resolved: the numeric ones (a writer may encode a
    /// line break as `&#xD;`) and the five XML names.
    private static func characters(_ text: Substring) throws(CBEFFError) -> String {
        var out = "", rest = text
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            guard let semicolon = rest[amp...].firstIndex(of: ";") else { throw CBEFFError(reason: "a character reference is not closed") }
            let name = rest[rest.index(after: amp)..<semicolon]
            let named: [Substring: Character] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"]
            if let c = named[name] {
                out.append(c)
            } else if name.hasPrefix("#"), let code = name.hasPrefix("#x") ? UInt32(name.dropFirst(2), radix: 16) : UInt32(name.dropFirst()),
                      let scalar = Unicode.Scalar(code) {
                out.unicodeScalars.append(scalar)
            } else {
                throw CBEFFError(reason: "unknown reference &\(name);")
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return out + rest
    }

    /// The UUID at the end of a signature's id (`<time>-<uuid>`), as `Index` takes it.
    private static func uuid(in id: String) -> String? {
        let tail = id.suffix(36)
        return UUID(uuidString: String(tail)) != nil && tail.count == 36 ? tail.lowercased() : nil
    }
}

public struct CBEFFError: Error, Equatable, CustomStringConvertible {
    public var reason: String

    public var description: String { "CBEFF XML: \(reason)" }
}
