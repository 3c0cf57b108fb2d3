import Glibc

/// A lock with a condition to wait on, as the exporter's threads share their queue: POSIX's
/// mutex and condition variable, the waits timed on the monotonic clock. Foundation's
/// `NSCondition` would link Foundation, CoreFoundation and ICU into the binary for it.
/// `@unchecked Sendable`: the pthread objects are what makes it safe to share, and they sit at
/// fixed addresses of their own for the object's life.
final class Condition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let cond = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(cond, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(cond)
        pthread_mutex_destroy(mutex)
        cond.deallocate()
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
    /// Wakes every thread waiting; called with the lock held.
    func broadcast() { pthread_cond_broadcast(cond) }

    /// Waits, with the lock held, for a broadcast (or a spurious wake-up: callers look again).
    func wait() { pthread_cond_wait(cond, mutex) }

    /// Waits as `wait()` does, for at most `seconds`; false once they have passed.
    func wait(seconds: Double) -> Bool {
        // Beyond a day (or not a number) the callers mean "until woken": the sum stays in range.
        let seconds = seconds.isFinite ? min(max(seconds, 0), 86_400) : 86_400
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let whole = seconds.rounded(.down)
        var deadline = timespec(tv_sec: now.tv_sec + Int(whole), tv_nsec: now.tv_nsec + Int((seconds - whole) * 1e9))
        if deadline.tv_nsec >= 1_000_000_000 {
            deadline.tv_sec += 1
            deadline.tv_nsec -= 1_000_000_000
        }
        return pthread_cond_timedwait(cond, mutex, &deadline) != ETIMEDOUT
    }
}
