import Foundation
import SignpadTestSupport
import Testing

/// The point-of-sale API through an independent peer: Tests/api/control_api_test.py drives the
/// offscreen daemon (the debug build `swift test` makes) with PyPI's varlink client, through every
/// method, its errors, bad clients, and a restart during a request; Tests/api/model_test.py holds
/// random sequences of calls, kills and folder failures to a model of the API.
@Suite struct ControlAPITests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func theVarlinkClientDrivesTheKiosk() throws {
        try requirePeer(.pythonModule("varlink"))
        let result = try run("env", ["SIGNPAD=" + Self.root.appendingPathComponent(".build/debug/signpad").path,
                                              "python3", Self.root.appendingPathComponent("Tests/api/control_api_test.py").path])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("OK"), "\(result.output)")
    }

    /// A point of sale's PDF signed through the API (Tests/api/document_api_test.py), the signed
    /// file checked by pdfsig, qpdf and pyHanko, and each way a document is refused.
    @Test func aDocumentIsSignedThroughTheAPIAndValidatorsAcceptIt() throws {
        try requirePeer(.pythonModule("varlink"))
        try requirePeer(.pythonModule("pyhanko.sign"))
        for tool in ["pdfsig", "qpdf", "pyhanko", "rsvg-convert"] { try requirePeer(.tool(tool)) }
        let result = try run("env", ["SIGNPAD=" + Self.root.appendingPathComponent(".build/debug/signpad").path,
                                     "python3", Self.root.appendingPathComponent("Tests/api/document_api_test.py").path])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("\nOK"), "\(result.output)")
    }

    /// Issue 54's model-based test, its short profile: hypothesis drives the offscreen daemon with
    /// sequences of requests, cancels, restarts, kill -9 and a failing export folder, and holds each
    /// answer, file and status to a model of what the point of sale may rely on.
    @Test func aModelOfThePointOfSaleHoldsThroughRandomSequences() throws {
        try requirePeer(.pythonModule("varlink"))
        try requirePeer(.pythonModule("hypothesis"))
        let result = try run("env", ["SIGNPAD=" + Self.root.appendingPathComponent(".build/debug/signpad").path, "SIGNPAD_MODEL_PROFILE=short",
                                     "python3", Self.root.appendingPathComponent("Tests/api/model_test.py").path])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("\nOK"), "\(result.output)")
    }
}
