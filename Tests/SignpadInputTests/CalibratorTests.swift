import SignpadInput
import SignpadVocabulary
import Testing

@Suite struct CalibratorTests {
    /// A panel whose touches land off: scaled, shifted and a little sheared.
    let truth = CalibrationMatrix(values: [1.08, 0.03, -0.06, -0.02, 0.94, 0.035])!

    /// Where an uncalibrated decoder would put a touch on `target` (fractions of the screen), in
    /// pixels, for a panel that `truth` and then `placement` would map right.
    func touch(on target: Point, placement: ScreenPlacement, width: Int, height: Int) -> Point {
        let (x, y) = truth.then(placement.matrix).inverse!.apply(target.x, target.y)
        return Point(x * Double(width), y * Double(height))
    }

    func tap(_ calibrator: inout Calibrator, at p: Point, wobble: Double = 0.7) {
        calibrator.handle(.down(Sample(p, time: 0)))
        calibrator.handle(.move(Sample(Point(p.x + wobble, p.y - wobble), time: 0.01)))
        calibrator.handle(.move(Sample(Point(p.x - wobble, p.y + wobble), time: 0.02)))
        calibrator.handle(.up)
    }

    @Test(arguments: [ScreenPlacement(), ScreenPlacement(rotation: .quarter), ScreenPlacement(rotation: .half, flipX: true),
                      ScreenPlacement(rotation: .threeQuarter, flipY: true)])
    func findsTheMatrixThatPutsEveryTouchOnItsTarget(placement: ScreenPlacement) throws {
        let width = placement.rotation.swapsAxes ? 800 : 1280, height = placement.rotation.swapsAxes ? 1280 : 800
        var calibrator = Calibrator(screenWidth: width, screenHeight: height, placement: placement)
        for (index, target) in Calibrator.targets.enumerated() {
            #expect(calibrator.step == .target(index: index, retry: false))
            #expect(calibrator.currentTarget == Point(target.x * Double(width), target.y * Double(height)))
            tap(&calibrator, at: touch(on: target, placement: placement, width: width, height: height))
        }
        guard case .finished(let matrix, let worst) = calibrator.step else {
            Issue.record("not finished: \(calibrator.step)")
            return
        }
        for (found, expected) in zip(matrix.values, truth.values) { #expect(abs(found - expected) < 1e-9) }
        #expect(worst < 1e-6)

        // The matrix in the real mapping, from raw device units: every target is hit within a pixel.
        let axis = AbsInfo(minimum: 0, maximum: 4095)
        let mapping = ScreenMapping(xAxis: axis, yAxis: axis, screenWidth: width, screenHeight: height, calibration: matrix,
                                    rotation: placement.rotation, flipX: placement.flipX, flipY: placement.flipY)
        for target in Calibrator.targets {
            let p = touch(on: target, placement: placement, width: width, height: height)
            let raw = (Int32((p.x / Double(width) * 4096).rounded()), Int32((p.y / Double(height) * 4096).rounded()))
            let mapped = mapping.point(x: raw.0, y: raw.1)
            #expect(mapped.distance(to: Point(target.x * Double(width), target.y * Double(height))) < 1, "\(target) → \(mapped)")
        }
    }

    @Test func aTouchThatWandersIsAskedAgain() {
        var calibrator = Calibrator(screenWidth: 1280, screenHeight: 800)
        tap(&calibrator, at: Point(128, 80))
        #expect(calibrator.step == .target(index: 1, retry: false))
        calibrator.handle(.down(Sample(Point(1150, 80), time: 1)))
        calibrator.handle(.move(Sample(Point(1150, 80 + calibrator.stillness + 1), time: 1.1)))
        calibrator.handle(.up)
        #expect(calibrator.step == .target(index: 1, retry: true))
        calibrator.handle(.down(Sample(Point(1150, 80), time: 2)))
        calibrator.handle(.cancel)
        calibrator.handle(.up)
        #expect(calibrator.step == .target(index: 1, retry: true), "a cancelled touch counts for nothing")
        tap(&calibrator, at: Point(1150, 80))
        #expect(calibrator.step == .target(index: 2, retry: false))
    }

    @Test func touchesOnOneSpotGiveAClearFailure() {
        var calibrator = Calibrator(screenWidth: 1280, screenHeight: 800)
        for _ in Calibrator.targets { tap(&calibrator, at: Point(640, 400), wobble: 0) }
        guard case .failed(let error) = calibrator.step else {
            Issue.record("expected a failure, got \(calibrator.step)")
            return
        }
        #expect(error.description.contains("one line or one point"))
    }

    @Test func inverseUndoesAMatrix() {
        let inverse = truth.inverse!
        for (x, y) in [(0.0, 0.0), (0.3, 0.8), (1.0, 0.5)] {
            let (a, b) = truth.apply(x, y)
            let (u, v) = inverse.apply(a, b)
            #expect(abs(u - x) < 1e-12 && abs(v - y) < 1e-12)
        }
        #expect(CalibrationMatrix(values: [1, 2, 0, 2, 4, 0])!.inverse == nil)
    }
}

@Suite struct UdevCalibrationRuleTests {
    @Test func theRuleNamesTheDeviceAndCarriesTheMatrixUdevGives() throws {
        let matrix = try #require(CalibrationMatrix(values: [1.0801042, 0.0300719, -0.0601891, -0.0000001, 0.939976, 0.034975]))
        let rule = matrix.udevRule(deviceName: "ELAN9008:00 04F3:2ED7 Stylus")
        #expect(rule.hasPrefix("SUBSYSTEM==\"input\", KERNEL==\"event*\", ATTRS{name}==\"ELAN9008:00 04F3:2ED7 Stylus\", "))
        // What udev stores is what signpad reads back from its database.
        let property = try #require(rule.split(separator: "ENV{LIBINPUT_CALIBRATION_MATRIX}=").last).dropFirst().dropLast()
        #expect(!property.contains("-0.0 "), "no negative zero")
        #expect(CalibrationMatrix(udevProperty: String(property)) == matrix.rounded)
        #expect(matrix.rounded.values == [1.080104, 0.030072, -0.060189, 0, 0.939976, 0.034975])
    }

    @Test func characterUdevWouldReadAsAGlobOrAQuoteMatchesAnyOne() {
        let rule = CalibrationMatrix.identity.udevRule(deviceName: "Pen \"A\" [2]*")
        #expect(rule.contains("ATTRS{name}==\"Pen ?A? ?2??\""))
    }
}
