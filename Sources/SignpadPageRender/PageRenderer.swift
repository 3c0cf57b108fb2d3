import Glibc

/// One page of a document as `signpad-render` drew it: XRGB8888 rows, white under the page.
public struct RenderedPage: Equatable, Sendable {
    public let width: Int
    public let height: Int
    /// Pixels per PDF point.
    public let scale: Double
    /// The document's pages as poppler counts them.
    public let pageCount: Int
    public let pixels: [UInt32]
}

/// Why a page was not drawn, for the point of sale and the journal.
public struct PageRenderError: Error, Equatable, Sendable, CustomStringConvertible {
    public let reason: String
    public var description: String { reason }
}

/// Poppler in a process of its own (`signpad-render`): the page comes back, or the reason it did
/// not, never a crash or a hang of the caller's. Blocking: run it off the kiosk's loop.
public enum PageRenderer {
    /// The renderer beside this program (a build's folder), else where the package puts it.
    public static var executable: String {
        var path = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &path, path.count - 1)
        if n > 0 {
            let own = String(decoding: path.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let beside = own.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/") + "/signpad-render"
            if access(beside, X_OK) == 0 { return beside }
        }
        return "/usr/libexec/signpad/signpad-render"
    }

    static let maxOutputBytes = 256 << 20

    /// `maxHeight`: a page taller than this at `width` is refused, not drawn (nil: the renderer's
    /// own limit, 65536).
    /// `started`: told the renderer's process id, for a caller that may have to kill it (its
    /// group: `kill(-pid, …)`), and nil once it is no longer to be killed (before it is reaped,
    /// so the id is never another's).
    public static func render(_ document: [UInt8], page: Int, width: Int, maxHeight: Int? = nil, seconds: Double = 10,
                              executable: String = PageRenderer.executable, started: (pid_t?) -> Void = { _ in })
        -> Result<RenderedPage, PageRenderError> {
        let most = maxHeight.map { ["--max-height", String($0)] } ?? []
        return run(executable, ["--page", String(page), "--width", String(width)] + most, input: document, seconds: seconds, started: started)
            .flatMap { decoded($0, width: width, maxHeight: maxHeight ?? 65_536) }
    }

    /// The poppler the renderer draws with, as "poppler 22.02.0", for a record of what was shown.
    public static func version(executable: String = PageRenderer.executable) -> Result<String, PageRenderError> {
        run(executable, ["--version"], input: [], seconds: 10).map { "poppler " + String(decoding: $0, as: UTF8.self).trimmingSuffix() }
    }

    /// The renderer's standard output, once it ended well within `seconds`.
    static func run(_ executable: String, _ arguments: [String], input document: [UInt8], seconds: Double,
                    started: (pid_t?) -> Void = { _ in }) -> Result<[UInt8], PageRenderError> {
        var input: [Int32] = [-1, -1], output: [Int32] = [-1, -1], errors: [Int32] = [-1, -1]
        guard pipe(&input) == 0, pipe(&output) == 0, pipe(&errors) == 0 else {
            let reason = String(cString: strerror(errno))
            for fd in input + output + errors where fd >= 0 { close(fd) }
            return .failure(PageRenderError(reason: "no pipe for the renderer: \(reason)"))
        }
        // Not for other children: the renderer gets its three ends as 0, 1 and 2 only.
        for fd in input + output + errors { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
        // Nothing else of the kiosk's: not its display, its devices or its sockets, whatever a
        // hostile document makes of poppler; nor a file another thread has open for writing.
        closeTheRest(&actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        // A group of its own, so that killing it kills whatever it started too.
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))
        let words = [executable] + arguments
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let envp: [UnsafeMutablePointer<CChar>?] = [strdup("LC_ALL=C"), nil]
        defer { envp.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        close(input[0]); close(output[1]); close(errors[1])
        guard spawned == 0 else {
            close(input[1]); close(output[0]); close(errors[0])
            return .failure(PageRenderError(reason: "the renderer \(executable) did not start: \(String(cString: strerror(spawned)))"))
        }
        started(pid)
        _ = fcntl(input[1], F_SETFL, O_NONBLOCK)
        // A renderer that ends before it has read the whole document (its memory limit struck,
        // or killed at a stop) leaves this thread writing into a pipe nobody reads: EPIPE, not a
        // SIGPIPE that would end the kiosk. One raised meanwhile is taken before the mask goes.
        var pipeSignal = sigset_t(), previous = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
        defer {
            var now = timespec(tv_sec: 0, tv_nsec: 0)
            while sigtimedwait(&pipeSignal, nil, &now) == SIGPIPE {}
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }
        var written = 0, out: [UInt8] = [], said: [UInt8] = [], writing = true, reading = (out: true, err: true)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let deadline = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9 + seconds
        var ending: String?
        while writing || reading.out || reading.err {
            clock_gettime(CLOCK_MONOTONIC, &now)
            let left = deadline - (Double(now.tv_sec) + Double(now.tv_nsec) / 1e9)
            if left <= 0 { ending = "the renderer took more than \(Int(seconds)) s"; break }
            var fds = [pollfd(fd: writing ? input[1] : -1, events: Int16(POLLOUT), revents: 0),
                       pollfd(fd: reading.out ? output[0] : -1, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: reading.err ? errors[0] : -1, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 3, Int32(min(left, 1) * 1000) + 1)
            if ready < 0 && errno == EINTR { continue }
            if writing, fds[0].revents != 0 {
                let n = document[written...].withUnsafeBytes { write(input[1], $0.baseAddress, $0.count) }
                if n > 0 { written += n }
                if n < 0 && errno != EAGAIN && errno != EINTR || written == document.count {
                    close(input[1])
                    writing = false
                }
            }
            if reading.out, fds[1].revents != 0 {
                let n = read(output[0], &buffer, buffer.count)
                if n > 0 { out += buffer[0..<n] } else if n == 0 || errno != EINTR { reading.out = false }
                if out.count > maxOutputBytes { ending = "the renderer sent more than \(maxOutputBytes >> 20) MiB"; break }
            }
            if reading.err, fds[2].revents != 0 {
                let n = read(errors[0], &buffer, buffer.count)
                if n > 0 { said += buffer[0..<n].prefix(4096 - said.count) } else if n == 0 || errno != EINTR { reading.err = false }
            }
        }
        if writing { close(input[1]) }
        close(output[0]); close(errors[0])
        if ending != nil { kill(-pid, SIGKILL) }
        started(nil)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        if let ending { return .failure(PageRenderError(reason: ending)) }
        let told = String(decoding: said, as: UTF8.self).trimmingSuffix()
        let signal = status & 0x7F
        if signal != 0 {
            return .failure(PageRenderError(reason: "the renderer ended on signal \(signal)\(signal == SIGXCPU ? " (its CPU time ran out)" : "")\(told.isEmpty ? "" : ": " + told)"))
        }
        let code = (status >> 8) & 0xFF
        guard code == 0 else { return .failure(PageRenderError(reason: told.isEmpty ? "the renderer ended with status \(code)" : told)) }
        return .success(out)
    }

    /// glibc 2.34's closefrom action, which Swift's Glibc module does not declare.
    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private static let closeFrom: CloseFrom? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        .map { unsafeBitCast($0, to: CloseFrom.self) }

    /// Every descriptor from 3 up closed in the child: at once where glibc can, else each one
    /// open now by name.
    private static func closeTheRest(_ actions: inout posix_spawn_file_actions_t) {
        if let closeFrom, closeFrom(&actions, 3) == 0 { return }
        guard let folder = opendir("/proc/self/fd") else { return }
        defer { closedir(folder) }
        let own = dirfd(folder)
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if let fd = Int32(name), fd >= 3, fd != own { posix_spawn_file_actions_addclose(&actions, fd) }
        }
    }

    /// The page in the renderer's output: "SPR1", width, height, scale, pages, then the rows; the
    /// width the one asked for and the height within the limit, whatever the renderer became.
    static func decoded(_ out: [UInt8], width asked: Int, maxHeight: Int) -> Result<RenderedPage, PageRenderError> {
        let header = 24
        guard out.count >= header, out.starts(with: Array("SPR1".utf8)) else { return .failure(PageRenderError(reason: "the renderer sent no page")) }
        func word(_ at: Int) -> Int { Int(out[at]) | Int(out[at + 1]) << 8 | Int(out[at + 2]) << 16 | Int(out[at + 3]) << 24 }
        let width = word(4), height = word(8)
        let scale = Double(bitPattern: (0..<8).reduce(UInt64(0)) { $0 | UInt64(out[12 + $1]) << UInt64(8 * $1) })
        guard width > 0, height > 0, out.count == header + width * height * 4 else {
            return .failure(PageRenderError(reason: "the renderer sent \(out.count - header) bytes for a \(width)x\(height) page"))
        }
        guard scale.isFinite, scale > 0 else { return .failure(PageRenderError(reason: "the renderer sent a scale of \(scale)")) }
        guard width == asked, height <= maxHeight else {
            return .failure(PageRenderError(reason: "the renderer sent a \(width)x\(height) page, asked for \(asked) wide and at most \(maxHeight) high"))
        }
        let pageCount = word(20)
        var pixels = [UInt32](repeating: 0, count: width * height)
        pixels.withUnsafeMutableBytes { target in out.withUnsafeBytes { target.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[header...])) } }
        return .success(RenderedPage(width: width, height: height, scale: scale, pageCount: pageCount, pixels: pixels))
    }
}

extension String {
    fileprivate func trimmingSuffix() -> String {
        var text = self
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return text
    }
}
