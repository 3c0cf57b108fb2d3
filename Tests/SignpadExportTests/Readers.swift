import Foundation
import FoundationXML
import SignpadTestSupport

/// Reads InkML back with libxml2 (FoundationXML's parser), as a back office's XML tooling would:
/// the file must be well-formed XML in the InkML namespace, and each trace's points are read by
/// the channels its context declares, in their order.
enum InkMLReader {
    struct Trace {
        var contextRef: String?
        var points: [(x: Double, y: Double, t: Double, f: Double)]
    }

    struct Failure: Error { var message: String }

    static let namespace = "http://www.w3.org/2003/InkML"

    static func traces(_ text: String) throws -> [Trace] { try read(text).traces }

    /// The text of each `<annotation type="…">`, by its type.
    static func annotations(_ text: String) throws -> [String: String] { try read(text).annotations }

    private static func read(_ text: String) throws -> (traces: [Trace], annotations: [String: String]) {
        let parser = XMLParser(data: Data(text.utf8))
        parser.shouldProcessNamespaces = true
        let reader = Delegate()
        parser.delegate = reader
        let parsed = parser.parse()
        if let error = parser.parserError ?? reader.failure.map({ Failure(message: $0) }) ?? (parsed ? nil : Failure(message: "not parsed")) {
            throw Failure(message: "line \(parser.lineNumber): \(error)")
        }
        guard reader.channels == ["X", "Y", "T", "F"] else { throw Failure(message: "channels \(reader.channels), expected X Y T F") }
        let traces = try reader.traces.map { trace in
            Trace(contextRef: trace.contextRef, points: try trace.text.split(separator: ",").map { point in
                let v = point.split(separator: " ").compactMap { Double($0) }
                guard v.count == 4 else { throw Failure(message: "expected X Y T F, got \(point)") }
                return (x: v[0], y: v[1], t: v[2], f: v[3])
            })
        }
        return (traces, reader.annotations)
    }

    private final class Delegate: NSObject, XMLParserDelegate {
        var channels: [String] = []
        var traces: [(contextRef: String?, text: String)] = []
        var annotations: [String: String] = [:]
        var failure: String?
        private var inTrace = false
        private var annotation: String?

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            if namespaceURI != InkMLReader.namespace { failure = failure ?? "<\(name)> is outside the InkML namespace" }
            switch name {
            case "channel": channels.append(attributes["name"] ?? "?")
            case "trace":
                traces.append((attributes["contextRef"], ""))
                inTrace = true
            case "annotation":
                annotation = attributes["type"] ?? "?"
                annotations[annotation!] = ""
            default: break
            }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if name == "trace" { inTrace = false }
            if name == "annotation" { annotation = nil }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if inTrace { traces[traces.count - 1].text += string }
            if let annotation { annotations[annotation, default: ""] += string }
        }
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
