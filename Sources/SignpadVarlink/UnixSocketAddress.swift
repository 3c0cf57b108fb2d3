import Glibc

/// The address of a Unix socket at a path, for bind and connect.
struct UnixSocketAddress {
    private var address = sockaddr_un()

    /// nil when the path is longer than a socket's address holds (107 bytes).
    init?(_ path: String) {
        address.sun_family = sa_family_t(AF_UNIX)
        guard path.utf8.count < Self.capacity else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.enumerated() { raw[i] = byte }
        }
    }

    static var capacity: Int { MemoryLayout.size(ofValue: sockaddr_un().sun_path) }

    /// `body` with the address as the socket calls take it.
    func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        withUnsafePointer(to: address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }
}
