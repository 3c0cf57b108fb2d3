/// How the picture is turned on a portrait- or upside-down-mounted panel. The same value turns
/// the touch input (libinput's matrices), so a touch lands where the ink appears.
public enum Rotation: Int, Equatable, Sendable, CaseIterable {
    case none = 0, quarter = 90, half = 180, threeQuarter = 270

    public var swapsAxes: Bool { self == .quarter || self == .threeQuarter }
}

public struct Millimetres: Equatable, Sendable {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

/// Pixels per millimetre of the logical canvas, along each axis.
public struct PixelDensity: Equatable, Sendable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// The geometry between the logical canvas signpad draws and the buffer the panel scans out.
public struct Scanout: Equatable, Sendable {
    public let width: Int
    public let height: Int
    public let rotation: Rotation
    /// The panel's picture in millimetres (scanout orientation), as its EDID reports it; nil
    /// when unknown (an offscreen display, or a panel that reports none).
    public let millimetres: Millimetres?

    public init(width: Int, height: Int, rotation: Rotation, millimetres: Millimetres? = nil) {
        self.width = width
        self.height = height
        self.rotation = rotation
        self.millimetres = millimetres
    }

    /// Logical pixels per millimetre along the canvas's x and y; nil when the size is unknown.
    public var pixelDensity: PixelDensity? {
        guard let mm = millimetres, mm.width > 0, mm.height > 0 else { return nil }
        let x = Double(width) / mm.width, y = Double(height) / mm.height
        return rotation.swapsAxes ? PixelDensity(x: y, y: x) : PixelDensity(x: x, y: y)
    }

    /// The size of the canvas the kiosk draws on.
    public var logicalWidth: Int { rotation.swapsAxes ? height : width }
    public var logicalHeight: Int { rotation.swapsAxes ? width : height }

    /// Where a logical pixel lands in the scanout buffer.
    @inline(__always)
    public func map(x: Int, y: Int) -> (x: Int, y: Int) {
        switch rotation {
        case .none: return (x, y)
        case .quarter: return (y, height - 1 - x)
        case .half: return (width - 1 - x, height - 1 - y)
        case .threeQuarter: return (width - 1 - y, x)
        }
    }

    /// The scanout rectangle covering a logical rectangle.
    public func map(_ r: PixelRect) -> PixelRect {
        let a = map(x: r.minX, y: r.minY), b = map(x: r.maxX - 1, y: r.maxY - 1)
        return PixelRect(minX: min(a.x, b.x), minY: min(a.y, b.y), maxX: max(a.x, b.x) + 1, maxY: max(a.y, b.y) + 1)
    }

    /// Copies `rect` of `canvas` into a scanout buffer with `pitch` bytes per row, turning it as
    /// configured. Only writes: the destination may be write-combined memory. Returns the
    /// scanout rectangle written.
    @discardableResult
    public func copy(_ rect: PixelRect, from canvas: Canvas, to destination: UnsafeMutableRawPointer, pitch: Int) -> PixelRect {
        let r = rect.intersection(canvas.bounds)
        guard !r.isEmpty else { return r }
        canvas.pixels.withUnsafeBufferPointer { src in
            if rotation == .none {
                for y in r.minY..<r.maxY {
                    (destination + y * pitch + r.minX * 4).copyMemory(from: src.baseAddress! + y * canvas.stride + r.minX, byteCount: r.width * 4)
                }
            } else {
                for y in r.minY..<r.maxY {
                    for x in r.minX..<r.maxX {
                        let s = map(x: x, y: y)
                        (destination + s.y * pitch + s.x * 4).storeBytes(of: src[y * canvas.stride + x], as: UInt32.self)
                    }
                }
            }
        }
        return map(r)
    }

    /// DRM DirtyFB clips for scanout rectangles, one by one: at most `limit` (the kernel takes
    /// 256), clamped to the buffer, 16-bit with x2/y2 exclusive; without allocating when there are
    /// no more than `limit`.
    public func forEachClip(_ rects: [PixelRect], limit: Int = 256, _ body: (UInt16, UInt16, UInt16, UInt16) -> Void) {
        let bounds = PixelRect(x: 0, y: 0, width: min(width, 65535), height: min(height, 65535))
        let fits = rects.count <= limit
        for r in fits ? rects : DirtyRegion(rects.map { $0.intersection(bounds) }).coalesced(toAtMost: limit) {
            let c = r.intersection(bounds)
            if !c.isEmpty { body(UInt16(c.minX), UInt16(c.minY), UInt16(c.maxX), UInt16(c.maxY)) }
        }
    }
}

/// Where the picture goes: the DRM panel, or an offscreen buffer for replay, tests and the bench.
public protocol Display: AnyObject {
    var scanout: Scanout { get }
    /// Bytes copied to the screen so far.
    var bytesCopied: Int { get }
    /// Shows `dirty` of `canvas` (logical coordinates) on the screen.
    func present(_ canvas: Canvas, dirty: DirtyRegion)
    /// Switches the screen off (true) or on (false). What is presented meanwhile shows when it is on.
    func setAsleep(_ asleep: Bool)
}

/// A display in RAM with the same interface as the panel.
public final class OffscreenDisplay: Display {
    public let scanout: Scanout
    // Both properties skip the run-time exclusivity check each access to a class's property
    // otherwise makes on every present: a display is used from one thread.
    /// What the panel would show, in scanout orientation.
    @exclusivity(unchecked) public private(set) var screen: Canvas
    /// Bytes copied to the screen so far.
    @exclusivity(unchecked) public private(set) var bytesCopied = 0
    /// The panel's backlight and signal, which `screen` does not show.
    public private(set) var asleep = false

    public init(width: Int, height: Int, rotation: Rotation = .none) {
        scanout = Scanout(width: width, height: height, rotation: rotation)
        screen = Canvas(width: width, height: height, fill: 0)
    }

    public func present(_ canvas: Canvas, dirty: DirtyRegion) {
        let pitch = screen.stride * 4
        let scanout = self.scanout
        screen.pixels.withUnsafeMutableBytes { buffer in
            for rect in dirty.rects {
                scanout.copy(rect, from: canvas, to: buffer.baseAddress!, pitch: pitch)
                bytesCopied += rect.intersection(canvas.bounds).area * 4
            }
        }
    }

    public func setAsleep(_ asleep: Bool) { self.asleep = asleep }
}

/// A display that keeps no picture: `signpad replay`'s. What the panel would show is then the
/// renderer's canvas turned by `scanout.turned(_:)`, so a replay holds one frame, as the kiosk
/// on its panel does, and not a second copy of it. (The tests that check what each present
/// copies use `OffscreenDisplay`.)
public final class HeadlessDisplay: Display {
    public let scanout: Scanout
    @exclusivity(unchecked) public private(set) var bytesCopied = 0

    public init(width: Int, height: Int, rotation: Rotation = .none) {
        scanout = Scanout(width: width, height: height, rotation: rotation)
    }

    public func present(_ canvas: Canvas, dirty: DirtyRegion) {
        for rect in dirty.rects { bytesCopied += rect.intersection(canvas.bounds).area * 4 }
    }

    public func setAsleep(_ asleep: Bool) {}
}

extension Scanout {
    /// `canvas` (logical) as the panel shows it: itself when not turned, else a turned copy.
    public func turned(_ canvas: Canvas) -> Canvas {
        guard rotation != .none else { return canvas }
        var screen = Canvas(width: width, height: height, fill: 0)
        screen.pixels.withUnsafeMutableBytes { _ = copy(canvas.bounds, from: canvas, to: $0.baseAddress!, pitch: screen.stride * 4) }
        return screen
    }
}
