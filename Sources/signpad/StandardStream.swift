import FoundationEssentials
import Glibc

/// Standard output or error, written whole. Foundation's `FileHandle` would link Foundation,
/// CoreFoundation and ICU into the binary for two file descriptors.
struct StandardStream {
    static let output = StandardStream(descriptor: STDOUT_FILENO)
    static let error = StandardStream(descriptor: STDERR_FILENO)
    let descriptor: Int32

    /// Writes all of `data`; what a full disk refuses is dropped, as a command's last words have
    /// nowhere else to go (a closed pipe ends the process with SIGPIPE, as it did with FileHandle).
    func write(_ data: Data) {
        data.withUnsafeBytes { bytes in
            var done = 0
            while done < bytes.count {
                let written = Glibc.write(descriptor, bytes.baseAddress! + done, bytes.count - done)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                done += written
            }
        }
    }
}
