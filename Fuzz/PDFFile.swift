// libFuzzer target for what signpad reads of a point of sale's PDF itself: any bytes are a
// document whose cross-references, pages and signature fields are read and which is signed
// in its first unsigned field or a new one, or an error naming why, never a crash or a hang.
// Built by scripts/fuzz with the sources of the modules it needs in one module.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPDFDocument(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    do {
        let document = try PDFDocument(bytes: Array(UnsafeBufferPointer(start: data, count: size)))
        let pages = try document.pages()
        let target = try document.target(PDFSignaturePlacement(page: 1, rect: PDFRect(72, 82, 292, 142)), pages: pages)
        let content = PDFSignatureContent(appearance: Array("0 0 m 10 10 l S\n".utf8), standardFonts: ["Helv": "Helvetica"], signingTime: "D:20261128120000Z",
                                          reason: "fuzz", signer: "fuzz", attachment: .init(name: "a.p7m", mimeType: "application/pkcs7-mime", description: "d", bytes: [1, 2, 3]))
        let signed = try PDFSigner.sign(document, at: target, pages: pages, content: content, reserved: 64) { _, _ in [UInt8](repeating: 0x30, count: 16) }
        // What it appended reads back as a document with the same pages.
        let again = try PDFDocument(bytes: signed)
        if try again.pages().count != pages.count { fatalError("the signed document lost pages") }
    } catch {
        _ = "\(error)"
    }
    return 0
}
