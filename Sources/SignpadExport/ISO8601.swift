#if canImport(Glibc)
import Glibc
#endif

/// UTC times as RFC 3339 text, by the C library's `gmtime_r` and `timegm`: Foundation's
/// `ISO8601DateFormatter` goes through ICU, whose calendar and zone data it maps in (about
/// 5 MB of a kiosk's memory, at every export) for a format that needs none of it.
public enum ISO8601 {
    /// 2026-11-18T11:06:40.250Z: to the nearest millisecond.
    public static func string(_ seconds: Double) -> String {
        // Beyond the year 9999 gmtime_r has no four-digit year, and Int64 no NaN.
        guard abs(seconds) < Self.limit else { return "invalid time \(seconds)" }
        let milliseconds = Int64((seconds * 1000).rounded())
        let (whole, fraction) = floorDivision(milliseconds, 1000)
        guard let t = utc(whole) else { return "invalid time \(seconds)" }
        return "\(digits(t.year, 4))-\(digits(t.month, 2))-\(digits(t.day, 2))T\(digits(t.hour, 2)):\(digits(t.minute, 2)):\(digits(t.second, 2)).\(digits(Int(fraction), 3))Z"
    }

    /// 20261118T110640Z (whole seconds): sortable and safe in a file name.
    static func basic(_ seconds: Double) -> String {
        guard abs(seconds) < Self.limit, let t = utc(Int64(seconds.rounded(.down))) else { return "invalid" }
        return "\(digits(t.year, 4))\(digits(t.month, 2))\(digits(t.day, 2))T\(digits(t.hour, 2))\(digits(t.minute, 2))\(digits(t.second, 2))Z"
    }

    /// 2026-11-18 11:06 UTC: what a person reads under a signature.
    static func dayAndMinute(_ seconds: Double) -> String {
        guard abs(seconds) < Self.limit, let t = utc(Int64(seconds.rounded(.down))) else { return "invalid" }
        return "\(digits(t.year, 4))-\(digits(t.month, 2))-\(digits(t.day, 2)) \(digits(t.hour, 2)):\(digits(t.minute, 2)) UTC"
    }

    /// D:20261118110640Z: a PDF date (ISO 32000-1 §7.9.4), whole seconds, UTC.
    static func pdfDate(_ seconds: Double) -> String { "D:" + basic(seconds).filter { $0 != "T" } }

    /// Seconds since 1970 of an RFC 3339 time such as `string` writes: a fraction of any length
    /// or none, `Z` or an offset `±HH:MM`. Nil for anything else.
    public static func seconds(_ text: String) -> Double? {
        let b = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= b.count else { return nil }
            var value = 0
            for i in range {
                guard b[i] >= 48 && b[i] <= 57 else { return nil }
                value = value * 10 + Int(b[i] - 48)
            }
            return value
        }
        func byte(_ i: Int, _ c: Character) -> Bool { i < b.count && b[i] == c.asciiValue! }
        guard let year = number(0..<4), byte(4, "-"), let month = number(5..<7), byte(7, "-"), let day = number(8..<10),
              byte(10, "T") || byte(10, "t"), let hour = number(11..<13), byte(13, ":"), let minute = number(14..<16), byte(16, ":"),
              let second = number(17..<19), (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60 else { return nil }
        var i = 19, fraction = 0.0
        if byte(i, ".") {
            var scale = 0.1
            i += 1
            let first = i
            while i < b.count, b[i] >= 48 && b[i] <= 57 {
                fraction += Double(b[i] - 48) * scale
                scale /= 10
                i += 1
            }
            guard i > first else { return nil }
        }
        var offset = 0
        if byte(i, "Z") || byte(i, "z") {
            i += 1
        } else if byte(i, "+") || byte(i, "-") {
            guard let h = number(i + 1..<i + 3), byte(i + 3, ":"), let m = number(i + 4..<i + 6), h < 24, m < 60 else { return nil }
            offset = (h * 60 + m) * 60 * (byte(i, "-") ? -1 : 1)
            i += 6
        } else {
            return nil
        }
        guard i == b.count else { return nil }
        var t = tm()
        t.tm_year = Int32(year - 1900)
        t.tm_mon = Int32(month - 1)
        t.tm_mday = Int32(day)
        t.tm_hour = Int32(hour)
        t.tm_min = Int32(minute)
        t.tm_sec = Int32(second)
        let whole = timegm(&t)
        // timegm normalises 31 February into March; such a date is not a time.
        guard t.tm_mday == Int32(day) && t.tm_mon == Int32(month - 1) else { return nil }
        return Double(Int64(whole) - Int64(offset)) + fraction
    }

    /// 10000-01-01T00:00:00Z.
    static let limit = 253_402_300_800.0

    private static func utc(_ seconds: Int64) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int)? {
        var time = time_t(seconds), t = tm()
        guard gmtime_r(&time, &t) != nil else { return nil }
        return (Int(t.tm_year) + 1900, Int(t.tm_mon) + 1, Int(t.tm_mday), Int(t.tm_hour), Int(t.tm_min), Int(t.tm_sec))
    }

    private static func digits(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }

    private static func floorDivision(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        let q = a / b, r = a % b
        return r < 0 ? (q - 1, r + b) : (q, r)
    }
}
