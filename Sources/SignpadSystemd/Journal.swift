import CSystemd
import Glibc

/// systemd's journal, written through its native protocol (sd_journal_sendv): an entry is its
/// fields, the message one of them and each detail another, which `journalctl -o verbose`
/// shows and `journalctl FIELD=value` selects by.
public enum Journal {
    /// Sends one entry; false when the journal did not take it (no journal socket).
    public static func send(_ fields: [(name: String, value: String)]) -> Bool {
        guard !fields.isEmpty else { return false }
        // One buffer for every field, so that each iovec points into memory alive for the call.
        var bytes: [UInt8] = []
        var spans: [(start: Int, count: Int)] = []
        for field in fields {
            let start = bytes.count
            bytes += field.name.utf8
            bytes.append(UInt8(ascii: "="))
            bytes += field.value.utf8
            spans.append((start, bytes.count - start))
        }
        return bytes.withUnsafeMutableBytes { raw in
            let vectors = spans.map { iovec(iov_base: raw.baseAddress! + $0.start, iov_len: $0.count) }
            return vectors.withUnsafeBufferPointer { sd_journal_sendv($0.baseAddress, Int32($0.count)) } == 0
        }
    }

    /// A journal field's name for `key`: upper case, digits and underscores, after `prefix`
    /// (which starts with a letter), at most the 64 characters a name may have.
    public static func fieldName(_ key: String, prefix: String) -> String {
        let name = prefix + String(key.uppercased().unicodeScalars.map { scalar -> Character in
            ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) ? Character(scalar) : "_"
        })
        return String(name.prefix(64))
    }
}
