import SignpadConfig
import SignpadSession

extension ChromePainter: ScreenPainter {}

extension Config {
    /// The kiosk screen drawn with cairo, in this configuration's style and background.
    public var screenPainter: MakeScreenPainter {
        { [style, backgroundImage] width, height in try ChromePainter(style: style, backgroundImage: backgroundImage, width: width, height: height) }
    }
}
