#if canImport(Glibc)
import Glibc
#endif
import CEvdev
import SignpadInput
import SystemPackage

/// One open /dev/input/event* device behind libevdev.
///
/// Opening follows the kernel's rules: non-blocking, CLOCK_MONOTONIC set right after open (that
/// flushes the queue and queues a SYN_DROPPED), the fd drained, then handed to libevdev, then
/// optionally grabbed so the console does not see the touches as well.
public final class EvdevDevice {
    public let path: String
    public let description: DeviceDescription
    /// Open until `close`.
    private let descriptor: FileDescriptor
    private var handle: OpaquePointer?
    private var grabbed = false

    public enum ReadStatus: Equatable {
        /// Nothing more to read now.
        case drained
        /// The device went away (ENODEV): close it and look for it again later.
        case gone
    }

    public init(path: String, grab: Bool) throws(EvdevError) {
        self.path = path
        let opened: FileDescriptor
        do {
            opened = try FileDescriptor.open(path, .readOnly, options: [.nonBlocking, .closeOnExec])
        } catch {
            let reason = error as? Errno ?? .ioError
            throw EvdevError(path: path, operation: "open", errno: reason, hint: EvdevError.hint(for: reason))
        }
        descriptor = opened
        let fd = opened.rawValue
        // Undone here if a step fails; once the device is whole, `close` undoes it (deinit's
        // `close` does nothing before: `handle` is nil until then).
        var dev: OpaquePointer?
        var whole = false
        defer {
            if !whole {
                if let dev { libevdev_free(dev) }
                try? opened.close()
            }
        }
        _ = signpad_evdev_set_monotonic_clock(fd)
        Self.drain(opened)
        let rc = libevdev_new_from_fd(fd, &dev)
        guard rc == 0, let dev else {
            let error = Errno(rawValue: -rc)
            throw EvdevError(path: path, operation: "libevdev_new_from_fd", errno: error, hint: EvdevError.hint(for: error))
        }
        if grab && signpad_evdev_grab(fd, 1) != 0 {
            let error = Errno(rawValue: errno)
            throw EvdevError(path: path, operation: "EVIOCGRAB", errno: error, hint: EvdevError.hint(for: error))
        }
        whole = true
        grabbed = grab
        handle = dev
        description = Self.describe(dev)
    }

    deinit { close() }

    /// The descriptor to poll; nil once closed.
    public var fd: FileDescriptor? { handle == nil ? nil : descriptor }

    public func close() {
        guard let handle else { return }
        if grabbed { _ = signpad_evdev_grab(descriptor.rawValue, 0) }
        libevdev_free(handle)
        self.handle = nil
        try? descriptor.close()
    }

    /// The state at open, so contacts already down are not taken for new ones.
    public func seed(_ decoder: inout ContactDecoder) {
        guard let handle else { return }
        let slotCount = max(libevdev_get_num_slots(handle), 0)
        var slots: [(trackingID: Int32, x: Int32, y: Int32)] = []
        for slot in 0..<UInt32(slotCount) {
            slots.append((libevdev_get_slot_value(handle, slot, UInt32(EventCode.ABS_MT_TRACKING_ID)),
                          libevdev_get_slot_value(handle, slot, UInt32(EventCode.ABS_MT_POSITION_X)),
                          libevdev_get_slot_value(handle, slot, UInt32(EventCode.ABS_MT_POSITION_Y))))
        }
        let touching = libevdev_get_event_value(handle, UInt32(EventCode.EV_KEY), UInt32(EventCode.BTN_TOUCH)) != 0
            || libevdev_get_event_value(handle, UInt32(EventCode.EV_KEY), UInt32(EventCode.BTN_LEFT)) != 0
        let penInRange = libevdev_get_event_value(handle, UInt32(EventCode.EV_KEY), UInt32(EventCode.BTN_TOOL_PEN)) != 0
        let eraserInRange = libevdev_get_event_value(handle, UInt32(EventCode.EV_KEY), UInt32(EventCode.BTN_TOOL_RUBBER)) != 0
        decoder.setInitialState(slots: slots, currentSlot: Int(max(libevdev_get_current_slot(handle), 0)), touching: touching,
                                penInRange: penInRange, eraserInRange: eraserInRange,
                                x: libevdev_get_event_value(handle, UInt32(EventCode.EV_ABS), UInt32(EventCode.ABS_X)),
                                y: libevdev_get_event_value(handle, UInt32(EventCode.EV_ABS), UInt32(EventCode.ABS_Y)))
    }

    /// Reads every pending event, running libevdev's sync loop after a SYN_DROPPED so the
    /// handler sees the SYN_DROPPED and then the device's state again.
    public func read(_ handler: (InputEvent) -> Void) -> ReadStatus {
        guard let handle else { return .gone }
        var event = input_event()
        var flags = UInt32(LIBEVDEV_READ_FLAG_NORMAL.rawValue)
        while true {
            let rc = libevdev_next_event(handle, flags, &event)
            if rc == -EAGAIN {
                if flags == UInt32(LIBEVDEV_READ_FLAG_SYNC.rawValue) {
                    flags = UInt32(LIBEVDEV_READ_FLAG_NORMAL.rawValue)
                    continue
                }
                return .drained
            }
            if rc < 0 { return .gone }
            if rc == Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue) { flags = UInt32(LIBEVDEV_READ_FLAG_SYNC.rawValue) }
            handler(Self.convert(event))
        }
    }

    static func convert(_ event: input_event) -> InputEvent {
        var e = event
        return InputEvent(microseconds: signpad_input_event_sec(&e) * 1_000_000 + signpad_input_event_usec(&e),
                          type: event.type, code: event.code, value: event.value)
    }

    private static func drain(_ descriptor: FileDescriptor) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while (try? buffer.withUnsafeMutableBytes { try descriptor.read(into: $0) }) ?? 0 > 0 {}
    }

    static func describe(_ dev: OpaquePointer) -> DeviceDescription {
        var d = DeviceDescription(name: libevdev_get_name(dev).map { String(cString: $0) } ?? "unnamed")
        d.bus = UInt16(truncatingIfNeeded: libevdev_get_id_bustype(dev))
        d.vendor = UInt16(truncatingIfNeeded: libevdev_get_id_vendor(dev))
        d.product = UInt16(truncatingIfNeeded: libevdev_get_id_product(dev))
        for property in 0..<UInt32(INPUT_PROP_CNT) where libevdev_has_property(dev, property) != 0 {
            d.properties.insert(UInt16(property))
        }
        for (type, count) in [(EventCode.EV_KEY, UInt32(KEY_CNT)), (EventCode.EV_ABS, UInt32(ABS_CNT))] {
            guard libevdev_has_event_type(dev, UInt32(type)) != 0 else { continue }
            for code in 0..<count where libevdev_has_event_code(dev, UInt32(type), code) != 0 {
                d.codes[type, default: []].insert(UInt16(code))
                if type == EventCode.EV_ABS, let info = libevdev_get_abs_info(dev, code)?.pointee {
                    d.absInfo[UInt16(code)] = AbsInfo(value: info.value, minimum: info.minimum, maximum: info.maximum,
                                                      fuzz: info.fuzz, flat: info.flat, resolution: info.resolution)
                }
            }
        }
        return d
    }
}
