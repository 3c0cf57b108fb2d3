import Foundation
import SignpadCrypto
import SignpadExport
import SignpadVocabulary

/// A small signature with two strokes and a tap, pressure on some samples.
public func sampleRecord() -> SignatureRecord {
    var strokes: [[Sample]] = []
    strokes.append((0..<40).map { i in Sample(Point(100 + Double(i) * 5.25, 200 + 30 * sin(Double(i) / 4)), time: 10 + Double(i) * 0.01, pressure: Double(i) / 40) })
    strokes.append((0..<25).map { i in Sample(Point(150 + Double(i) * 3, 150 + Double(i) * 4.125), time: 11 + Double(i) * 0.012) })
    strokes.append([Sample(Point(320.5, 140.25), time: 12)])
    return SignatureRecord(id: "20261121T170502Z-test", signature: Signature(strokes: strokes), startedAt: 1_795_000_000.25,
                           endedAt: 1_795_000_002.25, device: "test panel", screenWidth: 800, screenHeight: 480)
}

/// A two-stroke signature with its own id (the exporter and daemon tests).
public func record(_ name: String) -> SignatureRecord {
    let wave: [Sample] = (0..<30).map { i in
        let t = Double(i)
        return Sample(Point(40 + t * 4.5, 60 + 10 * sin(t / 3)), time: 5 + t * 0.011, pressure: 0.5)
    }
    let line: [Sample] = (0..<12).map { i in
        let t = Double(i)
        return Sample(Point(60 + t * 2, 40 + t * 3.25), time: 6 + t * 0.013)
    }
    let strokes = [wave, line]
    return SignatureRecord(id: "20261121T170502Z-\(name)", signature: Signature(strokes: strokes), startedAt: 1_795_000_000,
                           endedAt: 1_795_000_001.2, device: "test panel", screenWidth: 320, screenHeight: 200)
}

/// The names in a folder, sorted; none for a folder that is not there.
public func names(_ dir: String) -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted() }

/// A signing key made once per test run, and exports signed with it, in clear.
public let testSigningKey: SigningKey = {
    do { return try SigningKey.generate() } catch { fatalError("libcrypto cannot make an Ed25519 key: \(error)") }
}()

public var testEvidence: Evidence { Evidence(signingKey: testSigningKey) }
