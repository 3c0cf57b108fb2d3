/// An XRGB8888 picture in RAM: each pixel is 0x00RRGGBB as a native 32-bit word, rows `stride`
/// pixels apart, so it can mirror a DRM dumb buffer whose pitch is wider than its width.
public struct Canvas: Equatable, Sendable {
    public let width: Int
    public let height: Int
    /// Distance between rows, in pixels (the buffer's pitch / 4).
    public let stride: Int
    public var pixels: [UInt32]

    public init(width: Int, height: Int, stride: Int? = nil, fill: UInt32 = 0xFFFFFF) {
        precondition(width > 0 && height > 0, "a canvas needs a positive size, got \(width)x\(height)")
        let stride = stride ?? width
        precondition(stride >= width, "stride \(stride) is narrower than width \(width)")
        self.width = width
        self.height = height
        self.stride = stride
        self.pixels = [UInt32](repeating: fill, count: stride * height)
    }

    /// A canvas of `pixels` already drawn, rows `width` apart.
    public init(width: Int, height: Int, pixels: [UInt32]) {
        precondition(width > 0 && height > 0 && pixels.count == width * height, "\(pixels.count) pixels are not a \(width)x\(height) canvas")
        self.width = width
        self.height = height
        stride = width
        self.pixels = pixels
    }

    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }

    public subscript(x: Int, y: Int) -> UInt32 {
        get { pixels[y * stride + x] }
        set { pixels[y * stride + x] = newValue }
    }

    public mutating func fill(_ rect: PixelRect, with color: UInt32) {
        let r = rect.intersection(bounds)
        guard !r.isEmpty else { return }
        pixels.withUnsafeMutableBufferPointer { buffer in
            for y in r.minY..<r.maxY { Self.fill(buffer.baseAddress! + y * stride + r.minX, count: r.width, with: color) }
        }
    }

    /// Sets `count` pixels from `start` to `color`, sixteen to a store where the standard
    /// library's `update(repeating:)` stores one pixel per instruction.
    @inlinable
    public static func fill(_ start: UnsafeMutablePointer<UInt32>, count: Int, with color: UInt32) {
        let block = SIMD16<UInt32>(repeating: color), raw = UnsafeMutableRawPointer(start)
        var x = 0
        while x + 16 <= count {
            raw.storeBytes(of: block, toByteOffset: x &* 4, as: SIMD16<UInt32>.self)
            x &+= 16
        }
        while x < count {
            start[x] = color
            x &+= 1
        }
    }
}

/// Colour helpers for XRGB8888 words.
public enum XRGB {
    public static func make(red: UInt8, green: UInt8, blue: UInt8) -> UInt32 {
        UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue)
    }

    /// `background` covered by `ink` at coverage `alpha` (0…255); exact at 0 and 255, with no
    /// branch so a row of pixels can be blended without waiting on each one.
    @inlinable @inline(__always)
    public static func blend(_ background: UInt32, _ ink: UInt32, _ alpha: UInt8) -> UInt32 {
        let a = UInt32(alpha), na = 255 - a
        let r = (((background >> 16) & 0xFF) * na + ((ink >> 16) & 0xFF) * a + 127) / 255
        let g = (((background >> 8) & 0xFF) * na + ((ink >> 8) & 0xFF) * a + 127) / 255
        let b = ((background & 0xFF) * na + (ink & 0xFF) * a + 127) / 255
        return r << 16 | g << 8 | b
    }

    /// Parses "#RRGGBB" or "RRGGBB".
    public static func parse(_ text: String) -> UInt32? {
        let hex = text.hasPrefix("#") ? String(text.dropFirst()) : text
        guard hex.count == 6, let value = UInt32(hex, radix: 16) else { return nil }
        return value
    }

    public static func hex(_ color: UInt32) -> String {
        let digits = String(color & 0xFFFFFF, radix: 16, uppercase: true)
        return "#" + String(repeating: "0", count: 6 - digits.count) + digits
    }
}
