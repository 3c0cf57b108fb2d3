import Testing
import SignpadInput
import SignpadTestSupport

/// Which device signpad takes without `input.device`: a touchscreen or pen before an absolute
/// pointer (a BMC's virtual mouse, QEMU's tablet), whatever their node numbers.
@Suite struct DeviceChoiceTests {
    typealias C = EventCode

    static let virtualMouse: DeviceDescription = {
        var d = DeviceDescription(name: "American Megatrends Inc. Virtual Keyboard and Mouse")
        d.codes[C.EV_KEY] = [C.BTN_LEFT, 0x111, 0x112]
        d.codes[C.EV_ABS] = [C.ABS_X, C.ABS_Y]
        d.absInfo[C.ABS_X] = AbsInfo(minimum: 0, maximum: 32767)
        d.absInfo[C.ABS_Y] = AbsInfo(minimum: 0, maximum: 32767)
        return d
    }()

    static let keyboard: DeviceDescription = {
        var d = DeviceDescription(name: "AT Translated Set 2 keyboard")
        d.codes[C.EV_KEY] = [0x1E, 0x1F, 0x20]
        return d
    }()

    /// The positions (node order) of the devices of these kinds, in the order they are tried.
    func order(_ kinds: [DeviceKind?]) -> [Int] {
        DeviceChoice.automaticOrder(Array(kinds.enumerated())) { $0.element }.map(\.offset)
    }

    @Test func anAbsolutePointerGivesWayToAPanelNumberedAfterIt() {
        #expect(order([.absolutePointer, nil, .touchscreen]) == [2, 0])
        #expect(order([.absolutePointer, .pen, .absolutePointer, .touchscreen]) == [1, 3, 0, 2])
    }

    @Test func panelsAndPensKeepTheKernelsOrder() {
        #expect(order([.pen, .touchscreen]) == [0, 1])
        #expect(order([.touchscreen, .pen]) == [0, 1])
    }

    @Test func anAbsolutePointerIsTakenWhenItIsAllThereIs() {
        #expect(order([nil, .absolutePointer]) == [1])
        #expect(order([nil, nil]) == [])
        #expect(taken([nil, .absolutePointer, .absolutePointer]) == [1])
    }

    /// The positions of the devices read when all open.
    func taken(_ kinds: [DeviceKind?]) -> [Int] {
        DeviceChoice.automaticSet(Array(kinds.enumerated())) { $0.element }.map(\.offset)
    }

    @Test func everyTouchscreenAndPenIsReadAndNoAbsolutePointerBesideThem() {
        #expect(taken([.absolutePointer, .touchscreen, nil, .pen]) == [1, 3])
        #expect(taken([.pen, .absolutePointer]) == [0])
        #expect(taken([nil]) == [])
    }

    /// Kinds as the classifier gives them for real devices: a keyboard, a BMC's mouse, then the
    /// Atmel panel of the recordings (its header, read from ../shared when present).
    @Test(.enabled(if: SharedRecordings.available, "skipped: ../shared/data/recordings is absent (a fresh clone has no shared recordings)"))
    func classifiedDevicesPutTheRealPanelFirst() throws {
        let atmel = try EvemuRecording.parse(SharedRecordings.text(SharedRecordings.atmel), file: SharedRecordings.atmel)
        let kinds = [Self.keyboard, Self.virtualMouse, atmel.device].map { DeviceClassifier.classify($0).kind }
        #expect(kinds == [nil, .absolutePointer, .touchscreen])
        #expect(order(kinds) == [2, 1])
    }
}
