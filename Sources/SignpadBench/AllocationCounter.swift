import FoundationEssentials
import Glibc
import Synchronization

/// Heap allocations counted by ordo-one's malloc-interposer when it is preloaded
/// (`LD_PRELOAD=…/libMallocInterposerSwift.so`); signpad never links it, so a kiosk's
/// allocator is glibc's own. Its functions are looked up in the process, where a preloaded
/// library's symbols are. Only the calling thread's allocations are counted: the exporter's
/// threads may write a signature meanwhile, which is not the input path's doing.
public struct AllocationCounter {
    public static let libraryName = "libMallocInterposerSwift.so"

    private typealias Toggle = @convention(c) () -> Void
    private typealias Hook = @convention(c) (Int) -> Void
    private typealias SetHook = @convention(c) (Hook?) -> Void
    private let enable: Toggle
    private let disable: Toggle
    private let setHook: SetHook

    /// The counter of the preloaded interposer; nil when none is loaded.
    public static func loaded() -> AllocationCounter? {
        let process = dlopen(nil, RTLD_NOW)
        func find<T>(_ name: String, as type: T.Type) -> T? { dlsym(process, name).map { unsafeBitCast($0, to: type) } }
        guard let enable = find("malloc_interposer_enable", as: Toggle.self), let disable = find("malloc_interposer_disable", as: Toggle.self),
              let setHook = find("malloc_interposer_set_allocation_hook", as: SetHook.self) else { return nil }
        return AllocationCounter(enable: enable, disable: disable, setHook: setHook)
    }

    /// Where a build or an install keeps the interposer: beside the binary (`scripts/build-interposer`
    /// puts it there) or in /usr/lib/signpad; nil when it is in neither.
    public static func library(besides executable: String) -> String? {
        let here = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
        return [here.appendingPathComponent(libraryName).path, "/usr/lib/signpad/" + libraryName]
            .first { FileManager.default.fileExists(atPath: $0) }
    }

    /// The interposer calls its hook from inside malloc with nothing but the size, so what the
    /// hook needs is here, set before the hook is installed: a C function cannot capture it.
    private enum Tally {
        static let thread = Atomic<UInt>(0)
        static let allocations = Atomic<Int>(0)
    }

    /// Whether the counter sees an allocation made to check it. A 0 per event means something
    /// only if it does: an interposer that loads but hooks nothing would count 0 everywhere.
    public func seesAnAllocation() -> Bool {
        var address = 0
        let seen = count { address = Self.address(of: [Int](repeating: address, count: 32)) }
        return seen > 0 && address != 0
    }

    /// Keeps an array the optimiser could otherwise leave unmade.
    @inline(never)
    private static func address(of array: [Int]) -> Int { array.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) } }

    /// Allocations the calling thread made while `body` ran.
    public func count(_ body: () -> Void) -> Int {
        Tally.allocations.store(0, ordering: .relaxed)
        Tally.thread.store(UInt(pthread_self()), ordering: .relaxed)
        setHook { _ in
            if UInt(pthread_self()) == Tally.thread.load(ordering: .relaxed) { Tally.allocations.add(1, ordering: .relaxed) }
        }
        enable()
        body()
        disable()
        setHook(nil)
        return Tally.allocations.load(ordering: .relaxed)
    }
}

/// The process's threads, as Linux lists them. None may end while allocations are counted: the
/// interposer bills the frees of a thread's teardown into the tally block it has just freed (its
/// thread-local pointer outlives the block), which corrupts the heap, seen as "corrupted
/// double-linked list" in about one run in twenty of `bench --allocations`. Pango sorts fonts on
/// threads of its own that end soon after a paint, and a stopped exporter's threads end after
/// its `stop` returns: the bench waits for both before it goes on.
enum ProcessThreads {
    static var ids: [String] { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? [] }

    /// Waits until at most `limit` threads are left.
    static func wait(untilAtMost limit: Int, timeout: Double = 10) {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while ids.count > limit && Date() < deadline { usleep(1000) }
    }
}
