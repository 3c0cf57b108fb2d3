import FoundationEssentials
import SignpadCrypto
import SignpadExport
import SignpadInk
import SignpadInput
import SignpadKiosk
import SignpadOutbox
import SignpadVocabulary

/// The effective configuration: the file's values over the defaults, flags over the file.
public struct Config: Sendable {
    // Each module's own options, which the file's tables map onto: a module takes its own.
    public var display = DisplayOptions()
    public var input = InputOptions()
    public var ink = InkOptions()
    public var kiosk = KioskOptions()
    public var export = ExportOptions()
    public var outbox = OutboxOptions()
    public var control = ControlOptions()
    public var documents = DocumentOptions()
    /// `export.kiosk_name`; "" when unset, which the command line fills with the host name
    /// (`HostName`), as the file's reader looks at nothing but the file.
    public var kioskName = ""
    public var evidence = EvidenceOptions()
    public var logLevel = "info"
    /// Every key with its effective value, in file order of the tables, for `check-config`.
    public private(set) var effective: [(key: String, value: TOMLValue)] = []
    /// Where it came from, for the log: the file (or "(defaults)") and how many --set overrode it.
    public private(set) var source = "(defaults)"

    public static let defaultPath = "/etc/signpad/signpad.toml"
    /// The exit status when the configuration does not load, or does not fit this kiosk
    /// (`Daemon.isMisconfiguration`): sysexits' EX_CONFIG, which systemd shows as
    /// `status=78/CONFIG` and the unit's `RestartPreventExitStatus=` does not restart.
    public static let unusableExitStatus: Int32 = 78

    /// What each signature confirmed under this configuration keeps (see `CaptureSettings`).
    public var captureSettings: CaptureSettings { CaptureSettings(kiosk: kioskName, inkColor: ink.color, pen: ink.pen) }

    /// Every word on screen with its key, for what is said about them.
    public var labelsByKey: [(key: String, text: String)] {
        [("kiosk.prompt", kiosk.labels.prompt), ("kiosk.clear_label", kiosk.labels.clear), ("kiosk.done_label", kiosk.labels.done),
         ("kiosk.too_little_ink", kiosk.labels.tooLittleInk), ("kiosk.saving", kiosk.labels.saving), ("kiosk.saved", kiosk.labels.saved),
         ("kiosk.save_failed", kiosk.labels.saveFailed), ("kiosk.decline_label", kiosk.labels.decline), ("kiosk.undo_label", kiosk.labels.undo), ("kiosk.idle_text", kiosk.labels.idle),
         ("kiosk.out_of_service", kiosk.labels.outOfService), ("kiosk.staff", kiosk.labels.staff), ("kiosk.review_prompt", kiosk.labels.review),
         ("kiosk.previous_label", kiosk.labels.previousPage), ("kiosk.next_label", kiosk.labels.nextPage), ("kiosk.sign_label", kiosk.labels.sign)]
    }

    /// Reads `text` (the file) and then `overrides` (`table.key=value` from --set).
    public static func load(text: String, file: String, overrides: [String] = []) throws(ConfigError) -> Config {
        var entries = try TOMLParser.parse(text, file: file)
        for (index, override) in overrides.enumerated() {
            let parsed = try TOMLParser.parse(override, file: "--set #\(index + 1)")
            guard parsed.count == 1, let (key, entry) = parsed.first else {
                throw ConfigError(file: "--set", line: index + 1, key: nil, message: "expected table.key=value, got \(override)")
            }
            entries[key] = TOMLParser.Entry(value: entry.value, line: 0)
        }
        var reader = ConfigReader(entries: entries, file: file)
        var config = Config()
        try config.read(&reader)
        try reader.rejectUnknownKeys()
        config.effective = reader.effective
        config.source = overrides.isEmpty ? file : "\(file) with \(overrides.count) --set"
        return config
    }

    private mutating func read(_ r: inout ConfigReader) throws(ConfigError) {
        display.device = try r.optionalString("display.device", default: "")
        display.connector = try r.optionalString("display.connector", default: "")
        display.mode = try r.optionalString("display.mode", default: "")
        if let mode = display.mode {
            let sides = mode.split(separator: "x", omittingEmptySubsequences: false)
            guard sides.count == 2, sides.allSatisfy({ !$0.isEmpty && $0.first != "0" && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) && (1...16384).contains(Int($0) ?? 0) }) else {
                throw r.error("display.mode", "expected WIDTHxHEIGHT such as 1920x1080 (or empty: the panel's preferred mode), got \"\(mode)\"")
            }
        }
        let rotation = try r.integer("display.rotation", default: 0)
        guard let turned = Rotation(rawValue: rotation) else { throw r.error("display.rotation", "expected 0, 90, 180 or 270") }
        display.rotation = turned
        display.vt = try r.optionalString("display.vt", default: "/dev/tty0")

        input.device = try r.optionalString("input.device", default: "")
        input.grab = try r.bool("input.grab", default: true)
        let matrix = try r.numbers("input.calibration", default: [])
        guard matrix.isEmpty || matrix.count == 6 else { throw r.error("input.calibration", "expected 6 numbers (libinput's a b c d e f) or []") }
        input.calibration = matrix.isEmpty ? nil : matrix
        input.flipX = try r.bool("input.flip_x", default: false)
        input.flipY = try r.bool("input.flip_y", default: false)

        ink.color = try r.color("ink.color", default: "#000000")
        // A width or scale out of reason would stall every touch or exhaust memory at each save.
        let widths = PenWidth.allowedWidths, widthsExpected = "a width from 0.1 to 100 (px)"
        let width = try r.number("ink.width", default: 2.5, in: widths, widthsExpected)
        let minWidth = try r.number("ink.min_width", default: 1.0, in: widths, widthsExpected)
        let maxWidth = try r.number("ink.max_width", default: 4.0, in: widths, widthsExpected)
        let weight = try r.number("ink.velocity_filter_weight", default: 0.7, in: 0...1, "a weight from 0 to 1")
        let mode = try r.string("ink.width_mode", default: "constant")
        // Checked in every mode: a file that switches modes later must not start failing then.
        if minWidth > maxWidth {
            throw r.error("ink.max_width", "expected at least ink.min_width (\(TOMLValue.float(minWidth)))")
        }
        switch mode {
        case "constant": ink.pen.width = .constant(width)
        case "pressure": ink.pen.width = .pressure(min: minWidth, max: maxWidth)
        case "velocity": ink.pen.width = .velocity(min: minWidth, max: maxWidth, filterWeight: weight)
        default: throw r.error("ink.width_mode", "expected \"constant\", \"pressure\" or \"velocity\"")
        }
        ink.pen.minDistance = try r.number("ink.min_distance", default: 0.5, in: SmootherOptions.allowedMinDistances, "a distance from 0 to 100 (px)")
        kiosk.rules.inkWidth = ink.pen.width.maximum
        ink.predictMilliseconds = try r.number("ink.predict_ms", default: 16, in: 0...25, "milliseconds from 0 (off) to 25")

        kiosk.style.font = try r.string("kiosk.font", default: kiosk.style.font)
        kiosk.style.background = try r.color("kiosk.background_color", default: XRGB.hex(kiosk.style.background))
        kiosk.style.text = try r.color("kiosk.text_color", default: XRGB.hex(kiosk.style.text))
        kiosk.backgroundImage = try r.optionalString("kiosk.background_image", default: "")
        // These three are always on screen: blank, the prompt says nothing and a button nothing anyone can read.
        kiosk.labels.prompt = try r.visibleLabel("kiosk.prompt", default: kiosk.labels.prompt)
        kiosk.labels.clear = try r.visibleLabel("kiosk.clear_label", default: kiosk.labels.clear)
        kiosk.labels.done = try r.visibleLabel("kiosk.done_label", default: kiosk.labels.done)
        kiosk.labels.tooLittleInk = try r.string("kiosk.too_little_ink", default: kiosk.labels.tooLittleInk)
        kiosk.labels.saving = try r.string("kiosk.saving", default: kiosk.labels.saving)
        kiosk.labels.saved = try r.string("kiosk.saved", default: kiosk.labels.saved)
        kiosk.labels.saveFailed = try r.string("kiosk.save_failed", default: kiosk.labels.saveFailed)
        kiosk.labels.outOfService = try r.string("kiosk.out_of_service", default: kiosk.labels.outOfService)
        kiosk.labels.staff = try r.string("kiosk.staff", default: kiosk.labels.staff)
        kiosk.labels.review = try r.visibleLabel("kiosk.review_prompt", default: kiosk.labels.review)
        kiosk.labels.previousPage = try r.visibleLabel("kiosk.previous_label", default: kiosk.labels.previousPage)
        kiosk.labels.nextPage = try r.visibleLabel("kiosk.next_label", default: kiosk.labels.nextPage)
        kiosk.labels.sign = try r.visibleLabel("kiosk.sign_label", default: kiosk.labels.sign)
        kiosk.rules.idleTimeout = try r.number("kiosk.idle_timeout", default: kiosk.rules.idleTimeout, in: 0..., "seconds ≥ 0 (0: never)")
        kiosk.rules.sleepAfter = try r.number("kiosk.sleep_after", default: kiosk.rules.sleepAfter, in: 0..., "seconds ≥ 0 (0: never)")
        kiosk.rules.savedSeconds = try r.number("kiosk.saved_seconds", default: kiosk.rules.savedSeconds, in: 0...3600, "seconds from 0 to 3600")
        kiosk.rules.minInkLength = try r.number("kiosk.min_ink_length", default: kiosk.rules.minInkLength, in: 0..., "a length ≥ 0 (px)")
        kiosk.rules.minInkExtent = try r.number("kiosk.min_ink_extent", default: kiosk.rules.minInkExtent, in: 0..., "a length ≥ 0 (px)")
        kiosk.rules.doubleTapConfirms = try r.bool("kiosk.double_tap_confirm", default: false)
        let modeName = try r.string("kiosk.mode", default: KioskMode.walkUp.rawValue)
        guard let kioskMode = KioskMode(rawValue: modeName) else { throw r.error("kiosk.mode", "expected \"walk-up\" or \"requested\", got \"\(modeName)\"") }
        kiosk.rules.mode = kioskMode
        kiosk.labels.decline = try r.optionalString("kiosk.decline_label", default: "") ?? ""
        kiosk.labels.undo = try r.optionalString("kiosk.undo_label", default: kiosk.labels.undo) ?? ""
        kiosk.rules.offersDecline = !kiosk.labels.decline.isEmpty
        kiosk.labels.idle = try r.string("kiosk.idle_text", default: kiosk.labels.idle)

        outbox.directory = try r.string("export.directory", default: outbox.directory)
        // A relative folder would be relative to wherever the daemon was started (/ under systemd).
        guard outbox.directory.hasPrefix("/") else { throw r.error("export.directory", "expected an absolute path (starting with /), got \"\(outbox.directory)\"") }
        let formats = try r.strings("export.formats", default: ExportFormat.defaults.map(\.rawValue))
        // With none, a confirmed signature would be "saved" as a manifest with no samples: lost.
        guard !formats.isEmpty else { throw r.error("export.formats", "expected at least one of \(Self.formatNames), got []") }
        export.formats = []
        for name in formats {
            guard let format = ExportFormat(rawValue: name) else { throw r.error("export.formats", "unknown format \"\(name)\"; expected \(Self.formatNames)") }
            export.formats.append(format)
        }
        export.margin = try r.integer("export.margin", default: 16)
        guard (0...1024).contains(export.margin) else { throw r.error("export.margin", "expected output pixels from 0 to 1024, got \(export.margin)") }
        export.scale = try r.number("export.scale", default: 1.0, in: 0.01...4, "a number from 0.01 to 4 (at 4, a 1920x1080 screen is a 7680x4320 image)")
        switch try r.string("export.background", default: "white") {
        case "white": export.transparent = false
        case "transparent": export.transparent = true
        default: throw r.error("export.background", "expected \"white\" or \"transparent\"")
        }
        // Whether the group exists is the system's matter (SystemCheck), not the file's.
        export.group = try r.optionalString("export.group", default: "")
        export.createsFolder = try r.bool("export.create_directory", default: true)
        let kiosk = try r.string("export.kiosk_name", default: "")
        if let problem = CaptureSettings.kioskNameProblem(kiosk) { throw r.error("export.kiosk_name", problem) }
        kioskName = kiosk
        outbox.retrySeconds = try r.number("export.retry_seconds", default: 5, in: 0.1...3600, "seconds from 0.1 to 3600")
        outbox.spoolDirectory = try r.optionalString("export.spool_directory", default: "/var/lib/signpad/spool")
        if let spool = outbox.spoolDirectory, !spool.hasPrefix("/") {
            throw r.error("export.spool_directory", "expected an absolute path (starting with /), or \"\" for memory only, got \"\(spool)\"")
        }
        if let spool = outbox.spoolDirectory, Self.samePath(spool, outbox.directory) {
            throw r.error("export.spool_directory", "expected a folder other than export.directory: the back office would see spool files")
        }

        evidence.signingKey = try r.string("export.signing_key", default: evidence.signingKey)
        if evidence.signingKey.hasPrefix(TPMHandle.prefix) {
            guard evidence.signingKeyTPM != nil else { throw r.error("export.signing_key", "expected \(TPMHandle.expected), got \"\(evidence.signingKey)\"") }
        } else if !evidence.signingKey.hasPrefix("/") {
            throw r.error("export.signing_key", "expected an absolute path (starting with /), or a TPM's key as \(TPMHandle.standard), got \"\(evidence.signingKey)\"")
        }
        evidence.signingKeyGiven = r.entries["export.signing_key"] != nil
        evidence.recipientCertificate = try r.optionalString("export.recipient_certificate", default: "")
        if let path = evidence.recipientCertificate, !path.hasPrefix("/") {
            throw r.error("export.recipient_certificate", "expected an absolute path (starting with /) to a PEM certificate, or \"\" to keep every file in clear, got \"\(path)\"")
        }
        evidence.documentCertificate = try r.optionalString("export.document_certificate", default: "")
        if let path = evidence.documentCertificate, !path.hasPrefix("/") {
            throw r.error("export.document_certificate", "expected an absolute path (starting with /) to the signing key's certificate (PEM, its chain after it), or \"\" to sign no documents, got \"\(path)\"")
        }
        evidence.encryptImages = try r.bool("export.encrypt_images", default: false)
        if evidence.encryptImages && evidence.recipientCertificate == nil {
            throw r.error("export.encrypt_images", "expected false without export.recipient_certificate: there is no one to seal the images to")
        }
        outbox.retentionDays = try r.integer("export.retention_days", default: 0)
        guard (0...36_500).contains(outbox.retentionDays) else { throw r.error("export.retention_days", "expected days from 0 (keep for ever) to 36500, got \(outbox.retentionDays)") }
        outbox.timestampURL = try r.optionalString("export.timestamp_url", default: "")
        if let url = outbox.timestampURL {
            let scheme = url.lowercased()
            guard scheme.hasPrefix("http://") || scheme.hasPrefix("https://"), url.utf8.count <= 2048,
                  !url.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) else {
                throw r.error("export.timestamp_url", "expected an http:// or https:// URL of a time-stamp authority (RFC 3161), without spaces, at most 2048 bytes, or \"\" for none")
            }
        }

        control.socket = try r.optionalString("control.socket", default: "/run/signpad/control.sock")
        if let socket = control.socket, !socket.hasPrefix("/") {
            throw r.error("control.socket", "expected an absolute path (starting with /), or \"\" for no point-of-sale API, got \"\(socket)\"")
        }
        control.group = try r.optionalString("control.group", default: "signpad-pos")
        control.results = try r.string("control.results", default: control.results)
        guard control.results.hasPrefix("/") else { throw r.error("control.results", "expected an absolute path (starting with /), got \"\(control.results)\"") }

        documents.directory = try r.string("documents.directory", default: documents.directory)
        guard documents.directory.hasPrefix("/") else { throw r.error("documents.directory", "expected an absolute path (starting with /), got \"\(documents.directory)\"") }
        documents.maxBytes = try r.integer("documents.max_bytes", default: documents.maxBytes)
        documents.requireReview = try r.bool("documents.require_review", default: documents.requireReview)
        documents.renderer = try r.optionalString("documents.renderer", default: "")
        if let renderer = documents.renderer, !renderer.hasPrefix("/") {
            throw r.error("documents.renderer", "expected an absolute path (starting with /), or \"\" for signpad-render beside signpad or in /usr/libexec/signpad, got \"\(renderer)\"")
        }
        guard DocumentOptions.maxBytesRange.contains(documents.maxBytes) else {
            throw r.error("documents.max_bytes", "expected bytes from \(DocumentOptions.maxBytesRange.lowerBound) to \(DocumentOptions.maxBytesRange.upperBound) (128 MiB), got \(documents.maxBytes)")
        }

        logLevel = try r.string("daemon.log_level", default: "info")
        guard ["trace", "debug", "info", "notice", "warning", "error", "critical"].contains(logLevel) else {
            throw r.error("daemon.log_level", "expected trace, debug, info, notice, warning, error or critical")
        }
    }

    /// The formats `export.formats` takes, as its mistakes name them.
    static let formatNames = ExportFormat.allCases.map(\.rawValue).dropLast().joined(separator: ", ") + " or " + ExportFormat.allCases.last!.rawValue

    /// Equal once repeated and trailing slashes, `.` and `..` are resolved: by the text alone,
    /// as Foundation's `URL` would look at the file system.
    static func samePath(_ a: String, _ b: String) -> Bool {
        func resolved(_ path: String) -> [Substring] {
            var parts: [Substring] = []
            for part in path.split(separator: "/") where part != "." {
                if part == ".." { _ = parts.popLast() } else { parts.append(part) }
            }
            return parts
        }
        return resolved(a) == resolved(b)
    }

    /// The effective configuration as a TOML file.
    public var effectiveTOML: String {
        var out = ""
        var table = ""
        for (key, value) in effective {
            let parts = key.split(separator: ".", maxSplits: 1).map(String.init)
            if parts[0] != table {
                table = parts[0]
                out += (out.isEmpty ? "" : "\n") + "[\(table)]\n"
            }
            out += "\(parts[1]) = \(value)\n"
        }
        return out
    }
}

/// Typed reads from the parsed file that remember which keys were used and what they became.
struct ConfigReader {
    let entries: [String: TOMLParser.Entry]
    let file: String
    var used: Set<String> = []
    var effective: [(key: String, value: TOMLValue)] = []

    func error(_ key: String, _ message: String) -> ConfigError {
        ConfigError(file: entries[key]?.line == 0 ? "--set" : file, line: entries[key]?.line ?? 0, key: key, message: message)
    }

    mutating func raw(_ key: String, _ fallback: TOMLValue) -> TOMLValue {
        used.insert(key)
        let value = entries[key]?.value ?? fallback
        effective.append((key, value))
        return value
    }

    mutating func string(_ key: String, default d: String) throws(ConfigError) -> String {
        guard case .string(let s) = raw(key, .string(d)) else { throw mismatch(key, "a string") }
        return s
    }

    /// A string with at least one character that is not a space.
    mutating func visibleLabel(_ key: String, default d: String) throws(ConfigError) -> String {
        let s = try string(key, default: d)
        guard s.contains(where: { !$0.isWhitespace }) else { throw error(key, "expected a label with a visible character, got \"\(s)\"") }
        return s
    }

    /// A string where "" means "not set".
    mutating func optionalString(_ key: String, default d: String) throws(ConfigError) -> String? {
        let s = try string(key, default: d)
        return s.isEmpty ? nil : s
    }

    mutating func integer(_ key: String, default d: Int) throws(ConfigError) -> Int {
        guard case .integer(let i) = raw(key, .integer(d)) else { throw mismatch(key, "an integer") }
        return i
    }

    mutating func number(_ key: String, default d: Double) throws(ConfigError) -> Double {
        switch raw(key, .float(d)) {
        case .float(let f): return f
        case .integer(let i): return Double(i)
        default: throw mismatch(key, "a number")
        }
    }

    /// A number that must lie in `range`; `expected` says what may be there.
    mutating func number(_ key: String, default d: Double, in range: some RangeExpression<Double>, _ expected: String) throws(ConfigError) -> Double {
        let n = try number(key, default: d)
        guard range.contains(n) else { throw error(key, "expected \(expected), got \(TOMLValue.float(n))") }
        return n
    }

    mutating func bool(_ key: String, default d: Bool) throws(ConfigError) -> Bool {
        guard case .bool(let b) = raw(key, .bool(d)) else { throw mismatch(key, "true or false") }
        return b
    }

    mutating func numbers(_ key: String, default d: [Double]) throws(ConfigError) -> [Double] {
        guard case .array(let items) = raw(key, .array(d.map { .float($0) })) else { throw mismatch(key, "an array of numbers") }
        var result: [Double] = []
        for item in items {
            switch item {
            case .float(let f): result.append(f)
            case .integer(let i): result.append(Double(i))
            default: throw mismatch(key, "an array of numbers")
            }
        }
        return result
    }

    mutating func strings(_ key: String, default d: [String]) throws(ConfigError) -> [String] {
        guard case .array(let items) = raw(key, .array(d.map { .string($0) })) else { throw mismatch(key, "an array of strings") }
        var result: [String] = []
        for item in items {
            guard case .string(let s) = item else { throw mismatch(key, "an array of strings") }
            result.append(s)
        }
        return result
    }

    mutating func color(_ key: String, default d: String) throws(ConfigError) -> UInt32 {
        let text = try string(key, default: d)
        guard let color = XRGB.parse(text) else { throw error(key, "expected a colour like \"#1A2B3C\", got \"\(text)\"") }
        return color
    }

    func mismatch(_ key: String, _ expected: String) -> ConfigError {
        error(key, "expected \(expected), got \(entries[key]?.value.typeName ?? "nothing")")
    }

    func rejectUnknownKeys() throws(ConfigError) {
        let unknown = entries.filter { !used.contains($0.key) }.sorted { $0.value.line < $1.value.line }
        if let (key, entry) = unknown.first {
            let table = key.split(separator: ".").first.map(String.init) ?? ""
            let known = used.filter { $0.hasPrefix(table + ".") }.sorted().joined(separator: ", ")
            throw ConfigError(file: entry.line == 0 ? "--set" : file, line: entry.line, key: key,
                              message: "unknown key" + (known.isEmpty ? " (unknown table [\(table)])" : "; [\(table)] takes \(known)"))
        }
    }
}
