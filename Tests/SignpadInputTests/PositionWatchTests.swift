@testable import SignpadInput
import SignpadVocabulary
import Testing

/// The watch for a device whose position is on axes signpad does not read, touch by touch.
@Suite struct PositionWatchTests {
    /// One touch: down, `axis` moved from 10 to 20 and back, up; what the watch said at the lift.
    static func touch(_ watch: inout PositionWatch, moving axes: [UInt16]) -> UInt64? {
        for axis in axes { watch.saw(axis: axis, value: 10) }
        _ = watch.frame(contactDown: true)
        for axis in axes { watch.saw(axis: axis, value: 20) }
        _ = watch.frame(contactDown: true)
        for axis in axes { watch.saw(axis: axis, value: 10) }
        return watch.frame(contactDown: false)
    }

    @Test func threeTouchesMovingOnlyAnotherAxisNameIt() {
        var watch = PositionWatch()
        let z = UInt16(0x02), rx = UInt16(0x03)
        #expect(Self.touch(&watch, moving: [z]) == nil)
        #expect(Self.touch(&watch, moving: [z, rx]) == nil)
        #expect(Self.touch(&watch, moving: [z]) == 1 << 2, "the third names the axes of that touch")
        #expect(Self.touch(&watch, moving: [z]) == nil, "once")
    }

    @Test func aTouchWhoseReadPositionMovesStartsTheCountAgain() {
        var watch = PositionWatch()
        let z = UInt16(0x02)
        #expect(Self.touch(&watch, moving: [z]) == nil)
        #expect(Self.touch(&watch, moving: [z]) == nil)
        #expect(Self.touch(&watch, moving: [z, EventCode.ABS_X]) == nil, "the position moved: a good touch")
        #expect(Self.touch(&watch, moving: [z]) == nil)
        #expect(Self.touch(&watch, moving: [z]) == nil)
        #expect(Self.touch(&watch, moving: []) == nil, "a touch where nothing moved neither counts nor resets")
        #expect(Self.touch(&watch, moving: [z]) == 1 << 2)
    }

    @Test func axesThatAreNeverAPositionAreNotCounted() {
        var watch = PositionWatch()
        for _ in 0..<5 { #expect(Self.touch(&watch, moving: [EventCode.ABS_PRESSURE, EventCode.ABS_MT_TRACKING_ID]) == nil) }
    }
}
