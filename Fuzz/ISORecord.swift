// libFuzzer target for `signpad iso inspect`: any bytes are a record it decodes (bare, or in a
// CBEFF XML record) and prints as text and JSON, or an error naming the byte, never a crash.
// Built by scripts/fuzz with the sources of the modules it needs in one module.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzISORecord(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    do {
        let report = try ISORecordReport(Array(UnsafeBufferPointer(start: data, count: size)))
        _ = report.text
        _ = report.json
    } catch {
        _ = error.description
    }
    return 0
}
