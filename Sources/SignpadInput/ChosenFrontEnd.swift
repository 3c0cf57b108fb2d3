import SignpadVocabulary

/// The one front end a decoder drives, chosen once from the device's classification and held as
/// its own type, not as `any ContactFrontEnd`: a front end is larger than an existential's inline
/// buffer, and changing one in its box cost about 55 instructions at every raw event (projecting
/// the box, making it unique, a witness thunk). Only the chosen class's property is ever set, and
/// it is changed in place: a multitouch front end's slots are never copied.
struct ChosenFrontEnd {
    /// What the decoder reads of the front end beside its frames.
    struct Reading {
        /// A contact down by the device's word, let go of or not.
        let anyContactDown: Bool
        /// Where a pen is, and whether near (see `ContactFrontEnd.pen`).
        let pen: PenReading
    }

    /// The device classes, one front end each.
    private enum FrontEndClass {
        case multitouchA
        case multitouchB
        case singleTouch
        case pen
        case absolutePointer
    }

    private let frontEndClass: FrontEndClass
    private var multitouchA: MultitouchAFrontEnd?
    private var multitouchB: MultitouchBFrontEnd?
    private var singleTouch: SingleTouchFrontEnd?
    private var penFrontEnd: PenFrontEnd?
    private var absolutePointer: AbsolutePointerFrontEnd?

    /// The front end for a device of `kind` reporting contacts as `reporting`.
    init(device: DeviceDescription, kind: DeviceKind, reporting: ContactReporting, mapping: ScreenMapping) {
        switch (reporting, kind) {
        case (.multitouchA, _):
            frontEndClass = .multitouchA
            multitouchA = MultitouchAFrontEnd(mapping: mapping)
        case (.multitouchB(let slots), _):
            frontEndClass = .multitouchB
            multitouchB = MultitouchBFrontEnd(mapping: mapping, slotCount: slots)
        case (.single, .touchscreen):
            frontEndClass = .singleTouch
            singleTouch = SingleTouchFrontEnd(mapping: mapping)
        case (.single, .pen):
            frontEndClass = .pen
            penFrontEnd = PenFrontEnd(mapping: mapping, reportsProximity: device.hasKey(EventCode.BTN_TOOL_PEN))
        case (.single, .absolutePointer):
            frontEndClass = .absolutePointer
            absolutePointer = AbsolutePointerFrontEnd(mapping: mapping)
        }
    }

    var mapping: ScreenMapping {
        switch frontEndClass {
        case .multitouchA: multitouchA!.mapping
        case .multitouchB: multitouchB!.mapping
        case .singleTouch: singleTouch!.mapping
        case .pen: penFrontEnd!.mapping
        case .absolutePointer: absolutePointer!.mapping
        }
    }

    var slotCount: Int {
        switch frontEndClass {
        case .multitouchA: multitouchA!.slotCount
        case .multitouchB: multitouchB!.slotCount
        case .singleTouch: singleTouch!.slotCount
        case .pen: penFrontEnd!.slotCount
        case .absolutePointer: absolutePointer!.slotCount
        }
    }

    mutating func absorb(_ event: InputEvent) {
        switch frontEndClass {
        case .multitouchA: multitouchA!.absorb(event)
        case .multitouchB: multitouchB!.absorb(event)
        case .singleTouch: singleTouch!.absorb(event)
        case .pen: penFrontEnd!.absorb(event)
        case .absolutePointer: absolutePointer!.absorb(event)
        }
    }

    /// The front end's reading now. Mutating, as every call an event makes here: a front end read
    /// out of its optional by a getter is copied first, mapping and all.
    var reading: Reading {
        mutating get {
            switch frontEndClass {
            case .multitouchA: Self.reading(of: &multitouchA!)
            case .multitouchB: Self.reading(of: &multitouchB!)
            case .singleTouch: Self.reading(of: &singleTouch!)
            case .pen: Self.reading(of: &penFrontEnd!)
            case .absolutePointer: Self.reading(of: &absolutePointer!)
            }
        }
    }

    /// SYN_REPORT: the frame's contacts into `frame`, and the reading after it, in the one
    /// dispatch a frame.
    mutating func endFrame(time: Double, into frame: inout ContactFrame) -> Reading {
        switch frontEndClass {
        case .multitouchA: Self.endFrame(of: &multitouchA!, time: time, into: &frame)
        case .multitouchB: Self.endFrame(of: &multitouchB!, time: time, into: &frame)
        case .singleTouch: Self.endFrame(of: &singleTouch!, time: time, into: &frame)
        case .pen: Self.endFrame(of: &penFrontEnd!, time: time, into: &frame)
        case .absolutePointer: Self.endFrame(of: &absolutePointer!, time: time, into: &frame)
        }
    }

    @inline(__always)
    private static func endFrame(of frontEnd: inout some ContactFrontEnd, time: Double, into frame: inout ContactFrame) -> Reading {
        frontEnd.endFrame(time: time, into: &frame)
        return reading(of: &frontEnd)
    }

    @inline(__always)
    private static func reading(of frontEnd: inout some ContactFrontEnd) -> Reading {
        Reading(anyContactDown: frontEnd.anyContactDown, pen: frontEnd.pen)
    }

    func dropped(into frame: inout ContactFrame) {
        switch frontEndClass {
        case .multitouchA: multitouchA!.dropped(into: &frame)
        case .multitouchB: multitouchB!.dropped(into: &frame)
        case .singleTouch: singleTouch!.dropped(into: &frame)
        case .pen: penFrontEnd!.dropped(into: &frame)
        case .absolutePointer: absolutePointer!.dropped(into: &frame)
        }
    }

    mutating func resync(into frame: inout ContactFrame) {
        switch frontEndClass {
        case .multitouchA: multitouchA!.resync(into: &frame)
        case .multitouchB: multitouchB!.resync(into: &frame)
        case .singleTouch: singleTouch!.resync(into: &frame)
        case .pen: penFrontEnd!.resync(into: &frame)
        case .absolutePointer: absolutePointer!.resync(into: &frame)
        }
    }

    mutating func letGo(into frame: inout ContactFrame) {
        switch frontEndClass {
        case .multitouchA: multitouchA!.letGo(into: &frame)
        case .multitouchB: multitouchB!.letGo(into: &frame)
        case .singleTouch: singleTouch!.letGo(into: &frame)
        case .pen: penFrontEnd!.letGo(into: &frame)
        case .absolutePointer: absolutePointer!.letGo(into: &frame)
        }
    }

    mutating func reset() {
        switch frontEndClass {
        case .multitouchA: multitouchA!.reset()
        case .multitouchB: multitouchB!.reset()
        case .singleTouch: singleTouch!.reset()
        case .pen: penFrontEnd!.reset()
        case .absolutePointer: absolutePointer!.reset()
        }
    }

    mutating func setInitialState(_ state: InitialDeviceState) {
        switch frontEndClass {
        case .multitouchA: multitouchA!.setInitialState(state)
        case .multitouchB: multitouchB!.setInitialState(state)
        case .singleTouch: singleTouch!.setInitialState(state)
        case .pen: penFrontEnd!.setInitialState(state)
        case .absolutePointer: absolutePointer!.setInitialState(state)
        }
    }
}
