import SignpadPDF
import SignpadVocabulary

/// What a signature field shows: the ink as vector paths, the same pieces as the SVG's, scaled
/// to fit the field keeping its aspect; beneath it, the signer's name and the date.
enum DocumentAppearance {
    static let font = "Helv"

    static func content(_ record: SignatureRecord, box: PDFRect, signedAt: Double) -> PDFContentStream {
        var stream = PDFContentStream()
        let width = box.width, height = box.height
        let caption = [record.request?.signer, ISO8601.dayAndMinute(signedAt)].compactMap { $0 }.joined(separator: "  ")
        let fontSize = min(8, max(height * 0.14, 4))
        let textBand = fontSize * 1.5
        let inkBox = PDFRect(0, textBand, width, height)
        let image = SignatureImage(record.signature, pen: record.settings.pen, options: ExportOptions(margin: 2), inkArea: record.inkArea)
        let scale = min(inkBox.width / Double(image.width), inkBox.height / Double(image.height))
        let left = (inkBox.width - Double(image.width) * scale) / 2
        let top = inkBox.maxY - (inkBox.height - Double(image.height) * scale) / 2
        let ink = record.settings.inkColor
        let (r, g, b) = (Double(ink >> 16 & 0xFF) / 255, Double(ink >> 8 & 0xFF) / 255, Double(ink & 0xFF) / 255)

        stream.save()
        // The image's pixels, y down, onto the field's points, y up.
        stream.transform(scale, 0, 0, -scale, left, top)
        let c = image.clip
        stream.rectangle(Double(c.minX), Double(c.minY), Double(c.maxX - c.minX), Double(c.maxY - c.minY))
        stream.clip()
        stream.strokeColor(red: r, green: g, blue: b)
        stream.roundEnds()
        for stroke in image.pieces {
            for piece in stroke {
                switch piece {
                case .dot(let centre, let diameter):
                    stream.lineWidth(diameter)
                    stream.move(centre.x, centre.y)
                    stream.line(centre.x, centre.y)
                    stream.stroke()
                case .cubic(let s):
                    stream.lineWidth((s.startWidth + s.endWidth) / 2)
                    stream.move(s.p0.x, s.p0.y)
                    stream.curve(s.c1.x, s.c1.y, s.c2.x, s.c2.y, s.p3.x, s.p3.y)
                    stream.stroke()
                }
            }
        }
        stream.restore()
        if !caption.isEmpty {
            let size = min(fontSize, fontSize * width / max(PDFContentStream.helveticaWidth(caption, size: fontSize), 1))
            stream.fillColor(red: 0.25, green: 0.25, blue: 0.25)
            stream.text(caption, font: font, size: size, x: 1, y: fontSize * 0.4)
        }
        return stream
    }
}
