import Foundation
import FoundationXML
import SignpadTestSupport

/// Reads InkML back as a reader that follows the W3C specification strictly: libxml2 (xmllint)
/// first validates the file against `Tests/schemas/inkml-strict.xsd` (the specification's
/// elements, attributes and unit lists), then every reference must name an element of the file,
/// each trace is read by the channels of the trace format its context names, in their order,
/// and T counts from the timestamp its channel is `respectTo`. A point gives a value for every
/// regular channel; of the intermittent ones it may give `?` (no value) or leave trailing ones
/// out, which carries the trace's last value on (the channel's default before any), as the
/// InkML toolkit of the specification's HP authors reads it.
enum InkMLReader {
    struct Point {
        var x: Double
        var y: Double
        /// Milliseconds after the timestamp T refers to.
        var t: Double
        /// Absent: the trace's format has no F channel, or the point gives F no value (`?`).
        var f: Double?
    }

    struct Trace {
        var contextRef: String
        /// The format's regular channels, then its intermittent ones.
        var channels: [String]
        var intermittentChannels: [String]
        var points: [Point]
    }

    struct Document {
        var traces: [Trace]
        /// The text of each `<annotation type="…">`, by its type.
        var annotations: [String: String]
        /// The `time` of the timestamp T refers to: milliseconds since 1970.
        var start: Double
        /// The inkSource's X and Y resolution, pixels per millimetre, when it gives one.
        var resolution: (x: Double, y: Double)?
        /// The channels of the inkSource's own trace format.
        var sourceChannels: [String]
        /// The `xml:id` of every context and every trace format in the file.
        var contexts: [String]
        var traceFormats: [String]
    }

    struct Failure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    static let namespace = "http://www.w3.org/2003/InkML"
    static let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("schemas/inkml-strict.xsd").path

    static func traces(_ text: String) throws -> [Trace] { try read(text).traces }

    static func annotations(_ text: String) throws -> [String: String] { try read(text).annotations }

    static func read(_ text: String) throws -> Document {
        try validate(text)
        let root = try Element.parse(text)
        var byID: [String: Element] = [:]
        root.forEach { if let id = $0.attributes["xml:id"] { byID[id] = $0 } }
        func resolve(_ ref: String?, _ kind: String) throws -> Element {
            guard let ref, ref.hasPrefix("#"), let element = byID[String(ref.dropFirst())] else {
                throw Failure(message: "\(kind) reference \(ref ?? "(none)") names no element of the file")
            }
            guard element.name == kind else { throw Failure(message: "\(ref) is a <\(element.name)>, not a <\(kind)>") }
            return element
        }
        let source = try require(root.first { $0.name == "inkSource" }, "an inkSource")
        let sourceFormat = try require(source.children.first { $0.name == "traceFormat" }, "the inkSource's traceFormat")
        func channels(_ format: Element) -> (regular: [Element], intermittent: [Element]) {
            (format.children.filter { $0.name == "channel" },
             format.children.first { $0.name == "intermittentChannels" }?.children ?? [])
        }
        func names(_ channels: [Element]) -> [String] { channels.map { $0.attributes["name"] ?? "?" } }
        let sourceChannels = names(channels(sourceFormat).regular + channels(sourceFormat).intermittent)
        var start: Double?
        var traces: [Trace] = []
        for trace in root.children where trace.name == "trace" {
            let context = try resolve(trace.attributes["contextRef"], "context")
            _ = try resolve(context.attributes["inkSourceRef"], "inkSource")
            let format = try resolve(context.attributes["traceFormatRef"], "traceFormat")
            let (regular, intermittent) = channels(format)
            let regularNames = names(regular), intermittentNames = names(intermittent)
            guard Set(regularNames + intermittentNames).isSubset(of: sourceChannels) else {
                throw Failure(message: "trace format \(regularNames + intermittentNames) has channels its inkSource \(sourceChannels) does not give")
            }
            guard regularNames == ["X", "Y", "T"] && (intermittentNames.isEmpty || intermittentNames == ["F"])
                || regularNames == ["X", "Y", "T", "F"] && intermittentNames.isEmpty else {
                throw Failure(message: "channels \(regularNames), intermittent \(intermittentNames): expected X Y T, then F or none")
            }
            let t = regular[2]
            guard t.attributes["units"] == "ms" else { throw Failure(message: "T in \(t.attributes["units"] ?? "no units"), expected ms") }
            let timestamp = try resolve(t.attributes["respectTo"], "timestamp")
            guard context.attributes["timestampRef"] == t.attributes["respectTo"] else { throw Failure(message: "the context's timestamp is not T's") }
            let time = try require(timestamp.attributes["time"].flatMap(Double.init), "the timestamp's time")
            if let start, start != time { throw Failure(message: "traces count T from different timestamps") }
            start = time
            func plainDecimal(_ word: Substring) -> Double? { word.contains { $0 == "e" || $0 == "E" } ? nil : Double(word) }
            var lastF = try intermittent.first.map { channel in
                try require(plainDecimal(Substring(channel.attributes["default"] ?? "0")), "a decimal default for F")
            }
            let points = try trace.text.split(separator: ",").map { point in
                let words = point.split(whereSeparator: \.isWhitespace)
                let expected = "\((regularNames + intermittentNames).joined(separator: " ")) as plain decimals"
                guard (regular.count...regular.count + intermittent.count).contains(words.count) else {
                    throw Failure(message: "expected \(expected), got \(point)")
                }
                let given = words.prefix(regular.count).compactMap(plainDecimal)
                guard given.count == regular.count else { throw Failure(message: "expected \(expected), got \(point)") }
                var f = given.count == 4 ? given[3] : nil
                if let word = words.dropFirst(regular.count).first {
                    if word == "?" {
                        f = nil
                    } else {
                        f = try require(plainDecimal(word), "\(expected) (an intermittent one may be ?) in \(point)")
                        lastF = f
                    }
                } else if !intermittent.isEmpty {
                    f = lastF
                }
                return Point(x: given[0], y: given[1], t: given[2], f: f)
            }
            traces.append(Trace(contextRef: trace.attributes["contextRef"]!, channels: regularNames, intermittentChannels: intermittentNames, points: points))
        }
        var annotations: [String: String] = [:]
        for annotation in root.children where annotation.name == "annotation" { annotations[annotation.attributes["type"] ?? "?"] = annotation.text }
        let properties = source.children.first { $0.name == "channelProperties" }?.children ?? []
        func resolution(_ channel: String) throws -> Double? {
            guard let property = properties.first(where: { $0.attributes["channel"] == channel && $0.attributes["name"] == "resolution" }) else { return nil }
            guard property.attributes["units"] == "1/mm" else { throw Failure(message: "resolution in \(property.attributes["units"] ?? "no units")") }
            return Double(property.attributes["value"] ?? "")
        }
        let resolutionXY = try (resolution("X"), resolution("Y"))
        var contexts: [String] = [], traceFormats: [String] = []
        root.forEach { element in
            if element.name == "context" { contexts.append(element.attributes["xml:id"] ?? "") }
            if element.name == "traceFormat" { traceFormats.append(element.attributes["xml:id"] ?? "") }
        }
        return Document(traces: traces, annotations: annotations, start: start ?? 0,
                        resolution: resolutionXY.0.flatMap { x in resolutionXY.1.map { (x, $0) } }, sourceChannels: sourceChannels,
                        contexts: contexts, traceFormats: traceFormats)
    }

    private static func validate(_ text: String) throws {
        let path = scratch() + ".inkml"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let result = try run("xmllint", ["--noout", "--nonet", "--schema", schema, path])
        guard result.status == 0 else { throw Failure(message: "not valid InkML: \(result.output)") }
    }

    private static func require<T>(_ value: T?, _ what: String) throws -> T {
        guard let value else { throw Failure(message: "no \(what)") }
        return value
    }

    /// An element of the InkML namespace with its attributes (`xml:id` by that name), children
    /// and character data.
    final class Element {
        let name: String
        let attributes: [String: String]
        var children: [Element] = []
        var text = ""

        init(name: String, attributes: [String: String]) {
            self.name = name
            self.attributes = attributes
        }

        func forEach(_ body: (Element) -> Void) {
            body(self)
            for child in children { child.forEach(body) }
        }

        func first(where match: (Element) -> Bool) -> Element? {
            if match(self) { return self }
            for child in children { if let found = child.first(where: match) { return found } }
            return nil
        }

        static func parse(_ text: String) throws -> Element {
            let parser = XMLParser(data: Data(text.utf8))
            parser.shouldProcessNamespaces = true
            let builder = Builder()
            parser.delegate = builder
            let parsed = parser.parse()
            if let error = parser.parserError ?? builder.failure.map({ Failure(message: $0) }) ?? (parsed ? nil : Failure(message: "not parsed")) {
                throw Failure(message: "line \(parser.lineNumber): \(error)")
            }
            return try require(builder.root, "root element")
        }
    }

    private final class Builder: NSObject, XMLParserDelegate {
        var root: Element?
        var open: [Element] = []
        var failure: String?

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            if namespaceURI != InkMLReader.namespace { failure = failure ?? "<\(name)> is outside the InkML namespace" }
            let element = Element(name: name, attributes: attributes)
            if let parent = open.last { parent.children.append(element) } else { root = element }
            open.append(element)
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            open.removeLast()
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { open.last?.text += string }
    }
}

/// Decodes an 8-bit RGB/RGBA non-interlaced PNG by asking Python's zlib to inflate it, so the
/// check does not trust signpad's own encoder.
struct PNGReader {
    var width: Int
    var height: Int
    var rgb: [UInt32]

    func pixel(_ x: Int, _ y: Int) -> UInt32 { rgb[y * width + x] }

    /// Every iTXt chunk's keyword and text, each chunk's CRC checked and its header as the PNG
    /// specification has it (no compression, empty language tag and translated keyword).
    static func texts(_ path: String) throws -> [String: String] {
        let script = """
        import json, struct, sys, zlib
        d = open(sys.argv[1], 'rb').read()
        pos, texts = 8, {}
        while pos < len(d):
            n, t = struct.unpack('>I4s', d[pos:pos+8]); c = d[pos+8:pos+8+n]
            assert struct.unpack('>I', d[pos+8+n:pos+12+n])[0] == zlib.crc32(t + c), f'bad CRC on {t}'
            pos += 12 + n
            if t == b'iTXt':
                keyword, rest = c.split(b'\\0', 1)
                assert 1 <= len(keyword) <= 79 and rest[:2] == b'\\0\\0', f'bad iTXt header {c[:40]}'
                language, translated, text = rest[2:].split(b'\\0', 2)
                assert language == b'' and translated == b''
                texts[keyword.decode('latin-1')] = text.decode('utf-8')
        print(json.dumps(texts))
        """
        let result = try run("python3", ["-c", script, path])
        guard result.status == 0 else { throw InkMLReader.Failure(message: "cannot read the texts of \(path): \(result.output)") }
        return try JSONDecoder().decode([String: String].self, from: Data(result.output.utf8))
    }

    static func rgb(_ path: String) throws -> PNGReader {
        let script = """
        import struct, sys, zlib
        d = open(sys.argv[1], 'rb').read()
        pos, idat, w, h, ct = 8, b'', 0, 0, 0
        while pos < len(d):
            n, t = struct.unpack('>I4s', d[pos:pos+8]); c = d[pos+8:pos+8+n]; pos += 12 + n
            if t == b'IHDR': w, h, bd, ct = struct.unpack('>IIBB', c[:10])
            if t == b'IDAT': idat += c
        raw = zlib.decompress(idat); bpp = {2: 3, 6: 4}[ct]; stride = w * bpp
        prev = bytearray(stride); out = []
        for y in range(h):
            f = raw[y*(stride+1)]; line = bytearray(raw[y*(stride+1)+1:(y+1)*(stride+1)])
            for i in range(stride):
                a = line[i-bpp] if i >= bpp else 0; b = prev[i]; c = prev[i-bpp] if i >= bpp else 0
                if f == 1: line[i] = (line[i] + a) & 255
                elif f == 2: line[i] = (line[i] + b) & 255
                elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
                elif f == 4:
                    p = a + b - c; pa, pb, pc = abs(p-a), abs(p-b), abs(p-c)
                    line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            prev = line
            for x in range(w):
                r, g, bl = line[x*bpp:x*bpp+3]
                if bpp == 4:
                    al = line[x*bpp+3]; r, g, bl = [(v*al + 255*(255-al)) // 255 for v in (r, g, bl)]
                out.append(str((r << 16) | (g << 8) | bl))
        print(w, h); print(' '.join(out))
        """
        let result = try run("python3", ["-c", script, path])
        let lines = result.output.split(separator: "\n")
        guard result.status == 0, lines.count >= 2 else { throw InkMLReader.Failure(message: "cannot decode \(path): \(result.output)") }
        let size = lines[0].split(separator: " ").compactMap { Int($0) }
        return PNGReader(width: size[0], height: size[1], rgb: lines[1].split(separator: " ").compactMap { UInt32($0) })
    }
}
