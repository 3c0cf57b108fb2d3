// libFuzzer target for the configuration file's parser: any text is a document or a ConfigError
// naming its line, never a crash. Built by scripts/fuzz with TOML.swift.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfigText(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let document = try? TOMLParser.document(text, file: "fuzz.toml") else { return 0 }
    for entry in document.entries.values { _ = entry.value.description }
    return 0
}
