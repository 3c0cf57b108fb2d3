import Glibc

/// A thread of the outbox's own, named for `top -H` and a core's readers. Foundation's `Thread`
/// would link Foundation, CoreFoundation and ICU into the binary for it.
enum WorkerThread {
    /// Starts `body` on a new detached thread named `name` (at most 15 bytes, the kernel's limit).
    static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        precondition(name.utf8.count <= 15, "a thread's name is at most 15 bytes: \(name)")
        let start = Unmanaged.passRetained(ThreadStart(name: name, body: body)).toOpaque()
        var thread = pthread_t()
        let made = pthread_create(&thread, nil, runThreadStart, start)
        precondition(made == 0, "cannot start the \(name) thread: error \(made)")
        pthread_detach(thread)
    }
}

/// What a new thread runs, handed to it through `pthread_create`'s one pointer.
private final class ThreadStart: Sendable {
    let name: String
    let body: @Sendable () -> Void

    init(name: String, body: @escaping @Sendable () -> Void) {
        self.name = name
        self.body = body
    }

    /// Names the calling thread through procfs: the C library declares `pthread_setname_np`
    /// only for GNU sources.
    func nameThread() {
        let file = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard file >= 0 else { return }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
        close(file)
    }
}

private func runThreadStart(_ argument: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    let start = Unmanaged<ThreadStart>.fromOpaque(argument!).takeRetainedValue()
    start.nameThread()
    start.body()
    return nil
}
