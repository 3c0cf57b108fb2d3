// swift-tools-version:6.0
import PackageDescription

// The package graph is the architecture (DEVELOPERS.md). Data flows one way: input pipeline →
// kiosk → smoother → renderer → display, in a Session, with the outbox on the side. The core
// has no device API; each C library sits behind exactly one Swift adapter module.
let package = Package(
    name: "signpad",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "signpad", targets: ["signpad"]),
        .executable(name: "signpad-render", targets: ["signpad-render"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
    ],
    targets: [
        // The core: no device API.
        // The words every module speaks: points, samples, stroke events, signatures, the canvas, the display.
        .target(name: "SignpadVocabulary"),
        // The ink engine: smoother, widths, rasteriser, renderer.
        .target(name: "SignpadInk", dependencies: ["SignpadVocabulary"]),
        .target(name: "SignpadInput", dependencies: ["SignpadVocabulary"]),
        .target(name: "SignpadKiosk", dependencies: ["SignpadVocabulary"]),
        .target(name: "SignpadExport", dependencies: ["SignpadVocabulary", "SignpadInk", "SignpadCrypto", "SignpadZlib", "SignpadPDF"]),
        // Confirmed signatures on their way out: the export queue and its threads, the spool, the atomic folder writer.
        .target(name: "SignpadOutbox", dependencies: ["SignpadVocabulary", "SignpadInk", "SignpadExport", "SignpadCrypto", "SignpadTimestamp"]),
        // One kiosk on one display, fed input events: Session and replay, tested without cairo.
        .target(name: "SignpadSession", dependencies: [
            "SignpadVocabulary", "SignpadInk", "SignpadInput", "SignpadKiosk", "SignpadExport", "SignpadOutbox", "SignpadConfig", "SignpadCrypto",
        ]),
        // signpad bench: ways of drawing ink compared, and the live path's allocations counted.
        .target(name: "SignpadBench", dependencies: [
            "SignpadVocabulary", "SignpadInk", "SignpadInput", "SignpadConfig", "SignpadOutbox", "SignpadSession", "SignpadExport", "SignpadCrypto", "SignpadText", "SignpadKiosk",
            .product(name: "SystemPackage", package: "swift-system"),
        ]),
        // The configuration: its file, its checks and its edits; no device adapter and no look at the system, so the fuzz target covers it whole.
        .target(name: "SignpadConfig", dependencies: ["SignpadVocabulary", "SignpadInk", "SignpadInput", "SignpadKiosk", "SignpadExport", "SignpadOutbox", "SignpadCrypto"]),

        // C libraries, one system library each, with a shim for what Swift cannot import.
        .systemLibrary(name: "CEvdev", pkgConfig: "libevdev", providers: [.apt(["libevdev-dev"])]),
        .systemLibrary(name: "CDRM", pkgConfig: "libdrm", providers: [.apt(["libdrm-dev"])]),
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        // Pango on cairo: shaping (HarfBuzz), bidirectional text, font fallback and wrapping.
        .systemLibrary(name: "CPango", pkgConfig: "pangocairo", providers: [.apt(["libpango1.0-dev"])]),
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // Its headers only: libcurl is loaded when a time-stamp authority is first asked (shim.h).
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // The TPM 2.0 software stack, to make a key in the TPM (signing goes through OpenSSL's tpm2 provider).
        .systemLibrary(name: "CPoppler", pkgConfig: "poppler-glib", providers: [.apt(["libpoppler-glib-dev"])]),
        .systemLibrary(name: "CTPM", providers: [.apt(["libtss2-dev"])]),

        // Linux adapters, one per C library.
        .target(name: "SignpadEvdev", dependencies: ["CEvdev", "SignpadInput", "SignpadSystemd", .product(name: "SystemPackage", package: "swift-system")]),
        .target(name: "SignpadDRM", dependencies: ["CDRM", "SignpadVocabulary", .product(name: "SystemPackage", package: "swift-system")]),
        // The kiosk's screen with cairo and Pango; the configuration's painter and font check.
        .target(name: "SignpadText", dependencies: ["CCairo", "CPango", "SignpadVocabulary", "SignpadInk", "SignpadKiosk", "SignpadConfig", "SignpadSession"]),
        .target(name: "SignpadSystemd", dependencies: ["CSystemd"]),
        .target(name: "SignpadCrypto", dependencies: ["CCrypto"]),
        .target(name: "SignpadZlib", dependencies: ["CZlib"]),
        .target(name: "SignpadPDF", dependencies: ["SignpadZlib"]),
        .target(name: "SignpadPageRender", dependencies: ["SignpadVocabulary", "SignpadCrypto"]),
        // Trusted time stamps (RFC 3161) from an authority over HTTP, by libcurl.
        .target(name: "SignpadTimestamp", dependencies: ["CCurl", "SignpadCrypto"]),
        .target(name: "SignpadTPM", dependencies: ["CTPM"]),

        // The point of sale's way in: Varlink on a Unix socket, framed and served without blocking.
        .target(name: "SignpadVarlink", dependencies: [.product(name: "SystemPackage", package: "swift-system")]),

        // The point of sale's API: org.signpad.Kiosk on the control socket, and the results it keeps.
        .target(name: "SignpadControl", dependencies: [
            "SignpadPDF", "SignpadCrypto",
            "SignpadVarlink", "SignpadSession", "SignpadKiosk", "SignpadExport", "SignpadOutbox", "SignpadVocabulary",
            .product(name: "Logging", package: "swift-log"), .product(name: "SystemPackage", package: "swift-system"),
        ]),

        // What a configuration needs of this machine, checked alike by check-config, the start and a reload.
        .target(name: "SignpadSystemCheck", dependencies: ["SignpadConfig", "SignpadExport", "SignpadOutbox", "SignpadText", "SignpadPageRender", "SignpadTimestamp"]),

        // The daemon: its loop, its devices, reload and status.
        .target(name: "SignpadDaemon", dependencies: [
            "SignpadConfig", "SignpadSystemCheck", "SignpadOutbox", "SignpadSession", "SignpadVocabulary", "SignpadInput", "SignpadKiosk", "SignpadExport",
            "SignpadEvdev", "SignpadDRM", "SignpadText", "SignpadSystemd", "SignpadControl", "SignpadVarlink", "SignpadTimestamp",
            "SignpadPageRender", .product(name: "Logging", package: "swift-log"), .product(name: "SystemPackage", package: "swift-system"),
        ]),
        // The command line, one file per command.
        // Poppler in a process of its own: a hostile document ends it, not the kiosk, and the
        // kiosk maps none of poppler's libraries.
        .executableTarget(name: "signpad-render", dependencies: ["CPoppler", "CCairo"]),
        .executableTarget(name: "signpad", dependencies: [
            "SignpadBench", "SignpadConfig", "SignpadSystemCheck", "SignpadOutbox", "SignpadSession", "SignpadDaemon", "SignpadDRM", "SignpadEvdev",
            "SignpadVocabulary", "SignpadInput", "SignpadKiosk", "SignpadVarlink", "SignpadText", "SignpadExport", "SignpadCrypto", "SignpadTPM",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ], linkerSettings: [
            // Bind every shared-library symbol at start (full RELRO, as Debian hardens daemons),
            // so the first touch does not pay for lazy binding of each runtime call it makes.
            .unsafeFlags(["-Xlinker", "-z", "-Xlinker", "now", "-Xlinker", "-z", "-Xlinker", "relro"]),
        ]),

        .target(name: "SignpadTestSupport", dependencies: [
            "SignpadVocabulary", "SignpadInput", "SignpadExport", "SignpadCrypto", "SignpadConfig", "SignpadOutbox", .product(name: "Logging", package: "swift-log"),
        ], path: "Tests/SignpadTestSupport"),
        .testTarget(name: "SignpadInkTests", dependencies: ["SignpadVocabulary", "SignpadInk", "SignpadInput", "SignpadTestSupport"]),
        .testTarget(name: "SignpadInputTests", dependencies: ["SignpadVocabulary", "SignpadInput", "SignpadTestSupport"]),
        .testTarget(name: "SignpadKioskTests", dependencies: ["SignpadVocabulary", "SignpadKiosk"]),
        .testTarget(name: "SignpadExportTests", dependencies: [
            "SignpadVocabulary", "SignpadInk", "SignpadExport", "SignpadOutbox", "SignpadCrypto", "SignpadTestSupport",
        ]),
        .testTarget(name: "SignpadTimestampTests", dependencies: ["SignpadTimestamp", "SignpadCrypto", "SignpadTestSupport"]),
        .testTarget(name: "SignpadOutboxTests", dependencies: [
            "SignpadOutbox", "SignpadExport", "SignpadCrypto", "SignpadVocabulary", "SignpadInk", "SignpadTestSupport", .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "SignpadBenchTests", dependencies: ["SignpadBench", "SignpadVocabulary", "SignpadInk", "SignpadInput", "SignpadText", "SignpadConfig", "SignpadKiosk", "SignpadTestSupport"]),
        .testTarget(name: "SignpadSessionTests", dependencies: [
            "SignpadSession", "SignpadConfig", "SignpadExport", "SignpadOutbox", "SignpadVocabulary", "SignpadInput", "SignpadKiosk", "SignpadCrypto", "SignpadPDF",
            // A real painter for the replays drawn as the panel draws them; the module itself has no text library.
            "SignpadText", "SignpadTestSupport",
        ]),
        .testTarget(name: "SignpadControlTests", dependencies: ["SignpadControl", "SignpadExport", "SignpadVarlink", "SignpadVocabulary", "SignpadTestSupport",
                                                             "SignpadPDF", "SignpadCrypto"]),
        .testTarget(name: "SignpadConfigTests", dependencies: ["SignpadConfig", "SignpadExport", "SignpadVocabulary", "SignpadTestSupport"]),
        .testTarget(name: "SignpadSystemCheckTests", dependencies: ["SignpadSystemCheck", "SignpadConfig", "SignpadOutbox", "SignpadTestSupport"]),
        .testTarget(name: "SignpadDaemonTests", dependencies: [
            "SignpadConfig", "SignpadSystemCheck", "SignpadDaemon", "SignpadDRM", "SignpadExport", "SignpadKiosk", "SignpadOutbox", "SignpadText",
            "SignpadVarlink", "SignpadVocabulary", "SignpadTestSupport",
            .product(name: "Logging", package: "swift-log"), .product(name: "SystemPackage", package: "swift-system"),
        ]),
        .testTarget(name: "SignpadTextTests", dependencies: ["SignpadText", "SignpadConfig", "SignpadExport", "SignpadKiosk", "SignpadVocabulary", "SignpadTestSupport"]),
        .testTarget(name: "SignpadDRMTests", dependencies: ["SignpadDRM", "SignpadVocabulary"]),
        .testTarget(name: "SignpadEvdevTests", dependencies: ["SignpadEvdev"]),
        .testTarget(name: "SignpadSystemdTests", dependencies: ["SignpadSystemd"]),
        .testTarget(name: "SignpadVarlinkTests", dependencies: ["SignpadVarlink", "SignpadTestSupport"]),
        .testTarget(name: "SignpadVocabularyTests", dependencies: ["SignpadVocabulary", "SignpadInput"]),
        // The signpad command itself, run as a user runs it (the built binary, the API through PyPI's varlink).
        .testTarget(name: "SignpadPDFTests", dependencies: [
            "SignpadPDF", "SignpadPageRender", "SignpadExport", "SignpadOutbox", "SignpadTimestamp", "SignpadCrypto", "SignpadTestSupport", "SignpadVocabulary", "CCairo",
        ]),
        .testTarget(name: "SignpadCommandLineTests", dependencies: ["SignpadKiosk", "SignpadVocabulary", "SignpadTestSupport"]),
    ]
)
