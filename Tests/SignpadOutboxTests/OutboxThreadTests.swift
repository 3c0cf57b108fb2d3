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
        WorkerThread.start(name: "signpad-test-th") {
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
        let start = DispatchTime.now().uptimeNanoseconds
        while !ready.withLock({ $0 }) { woken = condition.wait(seconds: 30) }
        let waited = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        condition.unlock()
        #expect(woken)
        #expect(waited < 20, "the broadcast, not the time, ended the wait: \(waited) s")
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
        do {
            _ = try JSONEncoder().encode([Double.nan])
            Issue.record("NaN encoded")
        } catch {
            #expect(FileErrorText.reason(error) == "Unable to encode Double.nan directly in JSON.", "\(FileErrorText.reason(error))")
        }
    }
}
