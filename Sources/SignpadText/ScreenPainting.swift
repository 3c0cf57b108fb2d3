import SignpadKiosk
import SignpadSession

extension ChromePainter: ScreenPainter {}

extension KioskOptions {
    /// The kiosk screen drawn with cairo, in these options' style and background.
    public var screenPainter: MakeScreenPainter {
        { [style, backgroundImage] width, height in try ChromePainter(style: style, backgroundImage: backgroundImage, width: width, height: height) }
    }
}
