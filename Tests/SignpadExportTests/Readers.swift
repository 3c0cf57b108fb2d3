import Foundation

/// Reads InkML traces back, as a back office would, to check the round trip.
enum InkMLReader {
    struct Trace {
        var contextRef: String?
        var points: [(x: Double, y: Double, t: Double, f: Double)]
    }

    struct Failure: Error { var message: String }

    static func traces(_ text: String) throws -> [Trace] {
        var traces: [Trace] = []
        var rest = Substring(text)
        while let open = rest.range(of: "<trace ") {
            guard let tagEnd = rest[open.upperBound...].firstIndex(of: ">"),
                  let close = rest[tagEnd...].range(of: "</trace>") else { throw Failure(message: "unclosed trace") }
            let attributes = rest[open.upperBound..<tagEnd]
            var contextRef: String?
            if let r = attributes.range(of: "contextRef=\"") {
                contextRef = String(attributes[r.upperBound...].prefix { $0 != "\"" })
            }
            let body = rest[rest.index(after: tagEnd)..<close.lowerBound]
            var points: [(Double, Double, Double, Double)] = []
            for point in body.split(separator: ",") {
                let v = point.split(separator: " ").compactMap { Double($0) }
                guard v.count == 4 else { throw Failure(message: "expected X Y T F, got \(point)") }
                points.append((v[0], v[1], v[2], v[3]))
            }
            traces.append(Trace(contextRef: contextRef, points: points.map { (x: $0.0, y: $0.1, t: $0.2, f: $0.3) }))
            rest = rest[close.upperBound...]
        }
        return traces
    }
}

/// Decodes an 8-bit RGB/RGBA non-interlaced PNG by asking Python's zlib to inflate it, so the
/// check does not trust signpad's own encoder.
struct PNGReader {
    var width: Int
    var height: Int
    var rgb: [UInt32]

    func pixel(_ x: Int, _ y: Int) -> UInt32 { rgb[y * width + x] }

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
