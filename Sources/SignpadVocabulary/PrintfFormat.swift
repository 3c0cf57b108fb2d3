import Glibc

extension String {
    /// `format` filled in as C's printf fills it in: numbers only (`%.2f`, `%ld`, `%g`, `%04x`).
    /// Foundation's `String(format:)` would link Foundation, CoreFoundation and ICU into the
    /// binary for this, and fault megabytes of their code in at run time.
    public init(printf format: String, _ arguments: CVarArg...) {
        self.init(printf: format, arguments: arguments)
    }

    public init(printf format: String, arguments: [CVarArg]) {
        var buffer = [CChar](repeating: 0, count: 256)
        let needed = withVaList(arguments) { Int(vsnprintf(&buffer, buffer.count, format, $0)) }
        if needed >= buffer.count {
            buffer = [CChar](repeating: 0, count: needed + 1)
            _ = withVaList(arguments) { vsnprintf(&buffer, buffer.count, format, $0) }
        }
        self = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension String {
    /// The text cut or padded with spaces to `width` characters, for a table's column.
    public func padded(to width: Int) -> String {
        count >= width ? String(prefix(width)) : self + String(repeating: " ", count: width - count)
    }
}
