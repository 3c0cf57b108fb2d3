// libFuzzer target for `signpad iso inspect`: any bytes are a record it decodes (bare, or in a
// CBEFF XML record) and prints as text and JSON, or an error naming the byte, never a crash.
// An input whose first byte is 0xC0 is a compact record, its channels the next two bytes'
// bitmap (as a full record's), so both readers are fuzzed.
// Built by scripts/fuzz with the sources of the modules it needs in one module.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzISORecord(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var compact: [ISOSignatureRecord.Channel]?
    var record = bytes
    if bytes.count >= 3 && bytes[0] == 0xC0 {
        let bitmap = Int(bytes[1]) << 8 | Int(bytes[2])
        compact = ISOSignatureRecord.Channel.allCases.filter { bitmap & (0x8000 >> $0.rawValue) != 0 } + [.x, .y]
        record = Array(bytes[3...])
    }
    do {
        let report = try ISORecordReport(record, compact: compact)
        _ = report.text
        _ = report.json
    } catch {
        _ = error.description
    }
    return 0
}
