// libFuzzer target for the configuration: any text is a configuration, or a ConfigError naming
// its line, never a crash; the parser and every key's validation alike. Built by scripts/fuzz
// with the SignpadConfig module and the modules it checks values against.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfigText(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let document = try? TOMLParser.document(text, file: "fuzz.toml") else { return 0 }
    for entry in document.entries.values { _ = entry.value.description }
    guard let config = try? Config.load(text: text, file: "fuzz.toml") else { return 0 }
    _ = config.effectiveTOML
    return 0
}
