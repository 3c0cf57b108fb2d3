#if canImport(Glibc)
import Glibc
#endif

/// Memory mapped for the levels alone. Its pages are the kernel's zero page until ink first
/// writes to them, so the part of the box nobody signs in costs no memory, and the first level
/// is on a page boundary, so every 64-byte segment is one cache line.
final class LevelPages: @unchecked Sendable {
    // Unchecked: the bytes are written only through `LevelStore.withBase`, which first makes
    // this instance its store's alone.
    let base: UnsafeMutableRawPointer
    let byteCount: Int

    init(byteCount: Int) {
        self.byteCount = byteCount
        let mapped = mmap(nil, Self.length(byteCount), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let mapped, mapped != MAP_FAILED else { fatalError("cannot map \(byteCount) bytes for the ink levels: \(String(cString: strerror(errno)))") }
        // A huge page would map 2 MiB for the first tile ink reaches.
        _ = madvise(mapped, Self.length(byteCount), MADV_NOHUGEPAGE)
        base = mapped
    }

    deinit { munmap(base, Self.length(byteCount)) }

    /// Maps every page now, contents unchanged (MADV_POPULATE_WRITE, Linux 5.14): what a
    /// kiosk's levels are once ink has been everywhere in its box. On an older kernel the pages
    /// stay mapped as ink reaches them.
    func makeResident() {
        _ = madvise(base, Self.length(byteCount), MADV_POPULATE_WRITE)
    }

    /// The bytes of its pages mapped now (mincore): what the levels cost the kiosk.
    var residentBytes: Int {
        let (resident, page) = residentPages()
        return resident.reduce(0) { $0 + Int($1 & 1) } * page
    }

    /// One byte per page, bit 0 set where the page is mapped (mincore), and the page size.
    private func residentPages() -> (pages: [UInt8], pageSize: Int) {
        let page = Self.pageSize
        var resident = [UInt8](repeating: 0, count: (Self.length(byteCount) + page - 1) / page)
        _ = mincore(base, Self.length(byteCount), &resident)
        return (resident, page)
    }

    static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// Whether the page holding `address` (inside a mapping) is mapped: one never mapped is all
    /// zero. A mincore that fails says mapped, so the caller reads it. Allocates nothing: Clear
    /// runs inside an input event when a stroke is taken back.
    static func isMapped(_ address: UnsafeMutableRawPointer) -> Bool {
        var state: UInt8 = 0
        let page = UnsafeMutableRawPointer(bitPattern: Int(bitPattern: address) & ~(pageSize - 1))!
        return mincore(page, 1, &state) != 0 || state & 1 != 0
    }

    func copy() -> LevelPages {
        let copy = LevelPages(byteCount: byteCount)
        copy.base.copyMemory(from: base, byteCount: byteCount)
        return copy
    }

    /// mmap takes no empty mapping.
    private static func length(_ byteCount: Int) -> Int { max(byteCount, 1) }
}
