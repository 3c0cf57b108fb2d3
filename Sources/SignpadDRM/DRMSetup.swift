#if canImport(Glibc)
import Glibc
import SignpadVocabulary
import SystemPackage
#endif
import CDRM

/// A dumb buffer with its framebuffer and mapping, destroyed in reverse order of creation.
final class DumbBuffer {
    let fd: Int32
    let handle: UInt32
    let pitch: UInt32
    let size: UInt64
    let framebuffer: UInt32
    let memory: UnsafeMutableRawPointer
    private var destroyed = false

    init(fd: Int32, path: String, width: UInt32, height: UInt32) throws(DisplayError) {
        self.fd = fd
        var handle: UInt32 = 0, pitch: UInt32 = 0, size: UInt64 = 0
        var rc = signpad_drm_create_dumb(fd, width, height, &handle, &pitch, &size)
        guard rc == 0 else { throw .call(path: path, operation: "DRM_IOCTL_MODE_CREATE_DUMB", errno: Errno(rawValue: -rc)) }
        var handles: [UInt32] = [handle, 0, 0, 0], pitches: [UInt32] = [pitch, 0, 0, 0], offsets: [UInt32] = [0, 0, 0, 0]
        var framebuffer: UInt32 = 0
        rc = drmModeAddFB2(fd, width, height, signpad_drm_format_xrgb8888(), &handles, &pitches, &offsets, &framebuffer, 0)
        guard rc == 0 else {
            _ = signpad_drm_destroy_dumb(fd, handle)
            throw .call(path: path, operation: "drmModeAddFB2", errno: Errno(rawValue: rc < 0 ? -rc : errno))
        }
        var offset: UInt64 = 0
        rc = signpad_drm_map_dumb(fd, handle, &offset)
        let mapped = rc == 0 ? mmap(nil, Int(size), PROT_READ | PROT_WRITE, MAP_SHARED, fd, off_t(offset)) : MAP_FAILED
        guard let mapped, mapped != MAP_FAILED else {
            let error = Errno(rawValue: rc != 0 ? -rc : errno)
            _ = drmModeRmFB(fd, framebuffer)
            _ = signpad_drm_destroy_dumb(fd, handle)
            throw .call(path: path, operation: "mapping the dumb buffer", errno: error)
        }
        self.handle = handle
        self.pitch = pitch
        self.size = size
        self.framebuffer = framebuffer
        self.memory = mapped
        // Start black rather than with whatever the kernel left in the buffer.
        memset(mapped, 0, Int(size))
    }

    func destroy() {
        guard !destroyed else { return }
        destroyed = true
        munmap(memory, Int(size))
        _ = drmModeRmFB(fd, framebuffer)
        _ = signpad_drm_destroy_dumb(fd, handle)
    }
}

struct Output {
    var connector: UInt32
    var name: String
    var crtc: UInt32
    var mode: drmModeModeInfo
    /// The panel's size from its EDID; nil when it reports none (0 x 0, as virtual GPUs do).
    var millimetres: Millimetres?
}

extension DRMDisplay {
    static func openCard(_ requested: String?) throws(DisplayError) -> (card: FileDescriptor, path: String) {
        let candidates = requested.map { [$0] } ?? primaryNodes()
        guard !candidates.isEmpty else { throw .noDevice(searched: "drmGetDevices2 found no primary node") }
        var firstError: DisplayError?
        for path in candidates {
            let card: FileDescriptor
            do {
                card = try FileDescriptor.open(path, .readWrite, options: .closeOnExec)
            } catch {
                let error = error as? Errno ?? .ioError
                // A named card that is not there yet is the same as none found: its driver may still load.
                let failure: DisplayError = error == .permissionDenied || error == .notPermitted ? .permissionDenied(path: path)
                    : error == .noSuchFileOrDirectory ? .noDevice(searched: path) : .call(path: path, operation: "open", errno: error)
                firstError = firstError ?? failure
                continue
            }
            var dumb: UInt64 = 0
            if drmGetCap(card.rawValue, UInt64(DRM_CAP_DUMB_BUFFER), &dumb) != 0 || dumb == 0 {
                try? card.close()
                firstError = firstError ?? .noDumbBuffers(path: path)
                continue
            }
            if requested == nil && !hasConnectedConnector(card.rawValue) {
                try? card.close()
                firstError = firstError ?? .noConnectedConnector(path: path, connectors: [])
                continue
            }
            return (card, path)
        }
        throw firstError ?? .noDevice(searched: candidates.joined(separator: ", "))
    }

    /// Primary nodes of every DRM device: card0 is not always the display.
    static func primaryNodes() -> [String] {
        let count = drmGetDevices2(0, nil, 0)
        guard count > 0 else { return [] }
        var devices = [drmDevicePtr?](repeating: nil, count: Int(count))
        let filled = drmGetDevices2(0, &devices, count)
        defer { drmFreeDevices(&devices, filled) }
        var paths: [String] = []
        for device in devices.prefix(Int(max(filled, 0))) {
            guard let device, device.pointee.available_nodes & (1 << DRM_NODE_PRIMARY) != 0,
                  let node = device.pointee.nodes[Int(DRM_NODE_PRIMARY)] else { continue }
            paths.append(String(cString: node))
        }
        return paths.sorted()
    }

    static func hasConnectedConnector(_ fd: Int32) -> Bool {
        guard let resources = drmModeGetResources(fd) else { return false }
        defer { drmModeFreeResources(resources) }
        for i in 0..<Int(resources.pointee.count_connectors) {
            guard let connector = drmModeGetConnector(fd, resources.pointee.connectors[i]) else { continue }
            defer { drmModeFreeConnector(connector) }
            if connector.pointee.connection == DRM_MODE_CONNECTED { return true }
        }
        return false
    }

    static func connectorName(_ connector: drmModeConnectorPtr) -> String {
        let type = drmModeGetConnectorTypeName(connector.pointee.connector_type).map { String(cString: $0) } ?? "Unknown"
        return "\(type)-\(connector.pointee.connector_type_id)"
    }

    static func name(of mode: drmModeModeInfo) -> String { "\(mode.hdisplay)x\(mode.vdisplay)" }

    /// Each size once, in the driver's order: a panel lists a size at several refresh rates, and
    /// a message naming what it offers is read by a person.
    static func sizes(of modes: [drmModeModeInfo]) -> [String] {
        var seen = Set<String>()
        return modes.map(name(of:)).filter { seen.insert($0).inserted }
    }

    static func pickOutput(fd: Int32, path: String, options: DisplayOptions) throws(DisplayError) -> Output {
        guard let resources = drmModeGetResources(fd) else { throw .call(path: path, operation: "drmModeGetResources", errno: Errno(rawValue: errno)) }
        defer { drmModeFreeResources(resources) }
        var names: [String] = []
        var chosen: drmModeConnectorPtr?
        for i in 0..<Int(resources.pointee.count_connectors) {
            guard let connector = drmModeGetConnector(fd, resources.pointee.connectors[i]) else { continue }
            let name = connectorName(connector)
            let connected = connector.pointee.connection == DRM_MODE_CONNECTED && connector.pointee.count_modes > 0
            names.append(name + (connected ? " (connected)" : ""))
            let wanted = options.connector.map { $0 == name } ?? connected
            if chosen == nil && wanted { chosen = connector } else { drmModeFreeConnector(connector) }
        }
        guard let connector = chosen else {
            if let name = options.connector { throw .connectorNotFound(path: path, name: name, connectors: names) }
            throw .noConnectedConnector(path: path, connectors: names)
        }
        defer { drmModeFreeConnector(connector) }
        let name = connectorName(connector)
        // A named connector with its panel off or unplugged has no modes to pick from yet. (One
        // whose state is unknown but that lists modes, as some built-in panels do, is used.)
        guard connector.pointee.connection != DRM_MODE_DISCONNECTED && connector.pointee.count_modes > 0 else {
            throw .notConnected(path: path, connector: name)
        }
        let modes = (0..<Int(connector.pointee.count_modes)).map { connector.pointee.modes[$0] }
        guard let mode = pickMode(modes, wanted: options.mode) else {
            throw .modeNotFound(path: path, connector: name, mode: options.mode ?? "any", available: Self.sizes(of: modes))
        }
        guard let crtc = pickCRTC(fd: fd, resources: resources, connector: connector) else { throw .noCRTC(path: path, connector: name) }
        let mm = (width: connector.pointee.mmWidth, height: connector.pointee.mmHeight)
        return Output(connector: connector.pointee.connector_id, name: name, crtc: crtc, mode: mode,
                      millimetres: mm.width > 0 && mm.height > 0 ? Millimetres(width: Double(mm.width), height: Double(mm.height)) : nil)
    }

    /// The configured mode, else the one flagged PREFERRED (modes[0] is not always it), else the largest.
    static func pickMode(_ modes: [drmModeModeInfo], wanted: String?) -> drmModeModeInfo? {
        if let wanted { return modes.first { name(of: $0) == wanted } }
        if let preferred = modes.first(where: { $0.type & UInt32(DRM_MODE_TYPE_PREFERRED) != 0 }) { return preferred }
        return modes.max { Int($0.hdisplay) * Int($0.vdisplay) < Int($1.hdisplay) * Int($1.vdisplay) }
    }

    /// The encoder's current CRTC, else the first one `possible_crtcs` allows.
    static func pickCRTC(fd: Int32, resources: drmModeResPtr, connector: drmModeConnectorPtr) -> UInt32? {
        if connector.pointee.encoder_id != 0, let encoder = drmModeGetEncoder(fd, connector.pointee.encoder_id) {
            defer { drmModeFreeEncoder(encoder) }
            if encoder.pointee.crtc_id != 0 { return encoder.pointee.crtc_id }
        }
        for e in 0..<Int(connector.pointee.count_encoders) {
            guard let encoder = drmModeGetEncoder(fd, connector.pointee.encoders[e]) else { continue }
            defer { drmModeFreeEncoder(encoder) }
            for c in 0..<Int(resources.pointee.count_crtcs) where encoder.pointee.possible_crtcs & (1 << UInt32(c)) != 0 {
                return resources.pointee.crtcs[c]
            }
        }
        return nil
    }
}
