/// Draws ink over a background into a canvas, touching only what changes.
///
/// Two coverage planes: `dry` holds the final ink, `shown` what is on the canvas (dry plus the
/// wet tail). A pixel's colour is always the background blended with the ink colour at its
/// `shown` coverage, so restoring a wet pixel is `shown := dry` and recolouring.
public struct InkRenderer: Sendable {
    public private(set) var canvas: Canvas
    public private(set) var background: Canvas
    public var inkColor: UInt32
    /// Ink is drawn only inside this rectangle (the signature box).
    public var clip: PixelRect
    private var dry: [UInt8]
    private var shown: [UInt8]
    private var wet = DirtyRegion()
    private var rasterizer = InkRasterizer()
    /// Scratch for the rectangles one piece touches, reused so drawing does not allocate.
    private var touched = DirtyRegion()
    /// Pixels the wet tail raised above the dry ink: restoring them is all a new sample costs.
    private var wetPixels: [WetPixel] = []
    /// Bounds of all ink drawn since the last clear.
    public private(set) var inkBounds = PixelRect(minX: 0, minY: 0, maxX: 0, maxY: 0)

    public init(background: Canvas, inkColor: UInt32 = 0x000000, clip: PixelRect? = nil) {
        self.background = background
        self.canvas = background
        self.inkColor = inkColor
        self.clip = (clip ?? background.bounds).intersection(background.bounds)
        dry = [UInt8](repeating: 0, count: background.width * background.height)
        shown = dry
    }

    public init(width: Int, height: Int, stride: Int? = nil, backgroundColor: UInt32 = 0xFFFFFF, inkColor: UInt32 = 0x000000) {
        self.init(background: Canvas(width: width, height: height, stride: stride, fill: backgroundColor), inkColor: inkColor)
    }

    /// The final ink coverage at a pixel (0…255).
    public func dryCoverage(x: Int, y: Int) -> UInt8 { dry[y * canvas.width + x] }

    /// Draws what one smoother step produced; `dirty` receives every rectangle that changed.
    public mutating func apply(_ step: SmootherStep, dirty: inout DirtyRegion) {
        for piece in step.dry { draw(piece, dry: true, dirty: &dirty) }
        restoreWet(dirty: &dirty)
        for piece in step.wet { draw(piece, dry: false, dirty: &dirty) }
    }

    /// Draws a final piece of ink.
    public mutating func drawDry(_ piece: InkPiece, dirty: inout DirtyRegion) {
        draw(piece, dry: true, dirty: &dirty)
    }

    /// Removes all ink and any wet tail.
    public mutating func clearInk(dirty: inout DirtyRegion) {
        restoreWet(dirty: &dirty)
        let r = inkBounds.intersection(canvas.bounds)
        if !r.isEmpty {
            let width = canvas.width
            for y in r.minY..<r.maxY {
                for x in r.minX..<r.maxX {
                    dry[y * width + x] = 0
                    shown[y * width + x] = 0
                }
            }
            canvas.copy(r, from: background)
            dirty.add(r)
        }
        inkBounds = PixelRect(minX: 0, minY: 0, maxX: 0, maxY: 0)
    }

    /// Replaces the background (the kiosk's screen without ink) in `rect` and recolours it.
    public mutating func updateBackground(_ rect: PixelRect, from source: Canvas, dirty: inout DirtyRegion) {
        background.copy(rect, from: source)
        recolour(rect.intersection(canvas.bounds))
        dirty.add(rect.intersection(canvas.bounds))
    }

    private mutating func recolour(_ r: PixelRect) {
        guard !r.isEmpty else { return }
        let width = canvas.width, stride = canvas.stride, ink = inkColor
        Self.withPlanes(&canvas.pixels, background.pixels, &dry, &shown) { px, bg, _, s in
            for y in r.minY..<r.maxY {
                for x in r.minX..<r.maxX {
                    px[y * stride + x] = XRGB.blend(bg[y * stride + x], ink, s[y * width + x])
                }
            }
        }
    }

    private mutating func restoreWet(dirty: inout DirtyRegion) {
        guard !wet.isEmpty else { return }
        let ink = inkColor
        Self.withPlanes(&canvas.pixels, background.pixels, &dry, &shown) { px, bg, d, s in
            wetPixels.withUnsafeBufferPointer { list in
                for entry in list {
                    let plane = Int(entry.plane), pixel = Int(entry.pixel)
                    let c = d[plane]
                    s[plane] = c
                    px[pixel] = XRGB.blend(bg[pixel], ink, c)
                }
            }
        }
        wetPixels.removeAll(keepingCapacity: true)
        dirty.add(wet)
        wet.removeAll()
    }

    private mutating func draw(_ piece: InkPiece, dry isDry: Bool, dirty: inout DirtyRegion) {
        rasterizer.flatten(piece, tolerance: isDry ? InkRasterizer.tolerance : InkRasterizer.wetTolerance)
        touched.removeAll()
        let width = canvas.width, stride = canvas.stride, ink = inkColor, clip = self.clip
        Self.withPlanes(&canvas.pixels, background.pixels, &dry, &shown) { px, bg, d, s in
            var sink = Compositor(pixels: px, background: bg, dry: d, shown: s, width: width, stride: stride, ink: ink,
                                  isDry: isDry, region: touched, wetPixels: wetPixels)
            touched = DirtyRegion()
            wetPixels = []
            rasterizer.forEachCoverage(clip: clip, into: &sink)
            touched = sink.region
            wetPixels = sink.wetPixels
        }
        dirty.add(touched)
        if isDry {
            inkBounds = inkBounds.union(touched.bounds)
        } else {
            wet.add(touched)
        }
    }

    @inline(__always)
    private static func withPlanes(_ pixels: inout [UInt32], _ background: [UInt32], _ dry: inout [UInt8], _ shown: inout [UInt8],
                                   _ body: (UnsafeMutableBufferPointer<UInt32>, UnsafeBufferPointer<UInt32>,
                                            UnsafeMutableBufferPointer<UInt8>, UnsafeMutableBufferPointer<UInt8>) -> Void) {
        var unused = DirtyRegion()
        withPlanes(&pixels, background, &dry, &shown, &unused) { px, bg, d, s, _ in body(px, bg, d, s) }
    }

    @inline(__always)
    private static func withPlanes(_ pixels: inout [UInt32], _ background: [UInt32], _ dry: inout [UInt8], _ shown: inout [UInt8],
                                   _ region: inout DirtyRegion,
                                   _ body: (UnsafeMutableBufferPointer<UInt32>, UnsafeBufferPointer<UInt32>,
                                            UnsafeMutableBufferPointer<UInt8>, UnsafeMutableBufferPointer<UInt8>, inout DirtyRegion) -> Void) {
        pixels.withUnsafeMutableBufferPointer { px in
            background.withUnsafeBufferPointer { bg in
                dry.withUnsafeMutableBufferPointer { d in
                    shown.withUnsafeMutableBufferPointer { s in body(px, bg, d, s, &region) }
                }
            }
        }
    }
}

struct WetPixel {
    var plane: UInt32
    var pixel: UInt32
}

/// Composites coverage into the planes by per-pixel maximum and recolours what rose.
struct Compositor: CoverageSink {
    let pixels: UnsafeMutableBufferPointer<UInt32>
    let background: UnsafeBufferPointer<UInt32>
    let dry: UnsafeMutableBufferPointer<UInt8>
    let shown: UnsafeMutableBufferPointer<UInt8>
    let width: Int
    let stride: Int
    let ink: UInt32
    let isDry: Bool
    var region: DirtyRegion
    var wetPixels: [WetPixel]

    @inline(__always)
    mutating func touched(_ rect: PixelRect) { region.add(rect) }

    @inline(__always)
    mutating func cover(x: Int, y: Int, _ c: UInt8) {
        let i = y * width + x
        if isDry && c > dry[i] { dry[i] = c }
        let was = shown[i]
        if c > was {
            let p = y * stride + x
            if !isDry && was == dry[i] { wetPixels.append(WetPixel(plane: UInt32(i), pixel: UInt32(p))) }
            shown[i] = c
            pixels[p] = XRGB.blend(background[p], ink, c)
        }
    }
}
