import Foundation
@testable import SignpadOutbox
import Synchronization
import Testing

/// The outbox's threads and their condition, and the system's words for a file error: what
/// Foundation's Thread, NSCondition and NSError gave before the modules left Foundation.
@Suite struct OutboxThreadTests {
    @Test func aWorkerThreadRunsItsBodyUnderItsName() throws {
        let seen = Mutex<String?>(nil)
        let condition = Condition()
        WorkerThread.start(name: "signpad-test-thread-name-longer") {
            let name = try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)
            condition.lock()
            seen.withLock { $0 = name ?? "" }
            condition.broadcast()
            condition.unlock()
        }
        condition.lock()
        let deadline = Date().addingTimeInterval(10)
        while seen.withLock({ $0 }) == nil && Date() < deadline { _ = condition.wait(seconds: 0.1) }
        condition.unlock()
        // The kernel keeps 15 bytes of a thread's name.
        #expect(seen.withLock { $0 } == "signpad-test-th\n")
    }

    @Test func aTimedWaitEndsFalseOnceItsTimeHasPassed() {
        let condition = Condition()
        condition.lock()
        let start = DispatchTime.now().uptimeNanoseconds
        let woken = condition.wait(seconds: 0.2)
        let waited = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        condition.unlock()
        #expect(!woken)
        #expect(waited >= 0.19, "\(waited) s")
    }

    @Test func aBroadcastEndsATimedWaitTrue() {
        let condition = Condition()
        let ready = Mutex(false)
        condition.lock()
        WorkerThread.start(name: "signpad-waker") {
            condition.lock()
            ready.withLock { $0 = true }
            condition.broadcast()
            condition.unlock()
        }
        var woken = false
        while !ready.withLock({ $0 }) { woken = condition.wait(seconds: 30) }
        condition.unlock()
        #expect(woken)
    }

    @Test func aFileErrorIsTheSystemsReason() {
        #expect(throws: (any Error).self) { _ = try Data(contentsOf: URL(fileURLWithPath: "/nonexistent/signpad/file")) }
        do {
            _ = try Data(contentsOf: URL(fileURLWithPath: "/nonexistent/signpad/file"))
        } catch {
            #expect(FileErrorText.reason(error) == String(cString: strerror(ENOENT)))
        }
        do {
            try FileManager.default.createDirectory(atPath: "/proc/signpad-cannot", withIntermediateDirectories: false)
            Issue.record("/proc took a folder")
        } catch {
            #expect(FileErrorText.reason(error) == String(cString: strerror(ENOENT)) || FileErrorText.reason(error) == String(cString: strerror(EACCES)),
                    "\(FileErrorText.reason(error))")
        }
        #expect(FileErrorText.reason(POSIXError(.ENOSPC)) == String(cString: strerror(ENOSPC)))
    }
}
