// signpad-render: one page of a point of sale's PDF drawn by poppler, in a process of its own so
// that a document that crashes or hangs poppler ends this process and not the kiosk. The kiosk
// (PageRenderer) starts it, writes the document on its standard input and reads the page on
// its standard output: "SPR1", the width and height (UInt32, little-endian), the scale in pixels
// per PDF point (a Float64's bits, little-endian), the document's pages as poppler counts them
// (UInt32), then the rows,
// XRGB8888 (0x00RRGGBB, little-endian), white under the page. Limits its own memory and CPU
// before it reads anything.
//
//   signpad-render --page N --width W [--max-height H]
//                                          page N (from 1), W pixels wide, refused if taller than H
//   signpad-render --version               poppler's version
//
// Exit status: 0 drawn, 1 the document or page cannot be drawn (the reason on standard error),
// 2 a usage error.
import CCairo
import CPoppler
import Glibc

func fail(_ status: Int32, _ message: String) -> Never {
    let line = Array("signpad-render: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(status)
}

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments == ["--version"] {
    print(String(cString: poppler_get_version()))
    exit(0)
}
let usage = "usage: signpad-render --page N --width W [--max-height H] (N from 1, W from 1 to 8192, H from 1 to 65536), the document on standard input"
guard arguments.count == 4 || arguments.count == 6, arguments[0] == "--page", arguments[2] == "--width", let page = Int(arguments[1]),
      let width = Int(arguments[3]), page >= 1, (1...8192).contains(width) else { fail(2, usage) }
var maxHeight = 65_536
if arguments.count == 6 {
    guard arguments[4] == "--max-height", let most = Int(arguments[5]), (1...65_536).contains(most) else { fail(2, usage) }
    maxHeight = most
}

// A hostile document may ask poppler for gigabytes or loop: the kernel ends this process first.
var memory = rlimit(rlim_cur: 768 << 20, rlim_max: 768 << 20)
var cpu = rlimit(rlim_cur: 20, rlim_max: 20)
// Unlimited is no way to read a stranger's document: without its limits the renderer refuses.
guard setrlimit(Int32(RLIMIT_AS.rawValue), &memory) == 0, setrlimit(Int32(RLIMIT_CPU.rawValue), &cpu) == 0 else {
    fail(1, "cannot limit its own memory and CPU time: \(String(cString: strerror(errno)))")
}

var document: [UInt8] = []
var buffer = [UInt8](repeating: 0, count: 1 << 16)
while true {
    let n = read(0, &buffer, buffer.count)
    if n < 0 && errno == EINTR { continue }
    if n <= 0 { break }
    document.append(contentsOf: buffer[0..<n])
    if document.count > 256 << 20 { fail(1, "the document is larger than 256 MiB") }
}

var reason = [CChar](repeating: 0, count: 512)
guard let opened = document.withUnsafeBytes({ signpad_poppler_open($0.baseAddress, $0.count, &reason, reason.count) }) else {
    fail(1, "poppler cannot open the document: \(String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))")
}
let pages = Int(poppler_document_get_n_pages(opened))
guard page <= pages else { fail(1, "page \(page) was asked for; the document has \(pages)") }
guard let drawn = poppler_document_get_page(opened, Int32(page - 1)) else { fail(1, "poppler cannot read page \(page)") }
var pointsWide = 0.0, pointsHigh = 0.0
poppler_page_get_size(drawn, &pointsWide, &pointsHigh)
guard pointsWide > 0, pointsHigh > 0 else { fail(1, "page \(page) has no size") }
let scale = Double(width) / pointsWide
let height = max(1, Int((pointsHigh * scale).rounded()))
guard height <= maxHeight else { fail(1, "page \(page) is \(height) pixels high at \(width) wide; at most \(maxHeight) are drawn") }

let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height))
guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let context = cairo_create(surface) else { fail(1, "no memory for a \(width)x\(height) page") }
cairo_set_source_rgb(context, 1, 1, 1)
cairo_paint(context)
cairo_scale(context, scale, scale)
poppler_page_render(drawn, context)
cairo_surface_flush(surface)

var header = Array("SPR1".utf8)
for v in [UInt32(width), UInt32(height)] { header += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)] }
for shift in Swift.stride(from: 0, to: 64, by: 8) { header.append(UInt8(truncatingIfNeeded: scale.bitPattern >> UInt64(shift))) }
for shift in Swift.stride(from: 0, to: 32, by: 8) { header.append(UInt8(truncatingIfNeeded: UInt32(pages) >> UInt32(shift))) }
func writeAll(_ bytes: UnsafeRawBufferPointer) {
    var done = 0
    while done < bytes.count {
        let n = write(1, bytes.baseAddress! + done, bytes.count - done)
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { exit(1) }
        done += n
    }
}
header.withUnsafeBytes { writeAll($0) }
let stride = Int(cairo_image_surface_get_stride(surface))
let pixels = cairo_image_surface_get_data(surface)!
for y in 0..<height {
    writeAll(UnsafeRawBufferPointer(start: pixels + y * stride, count: width * 4))
}
exit(0)
