import Foundation
@testable import SignpadDaemon
import SystemPackage
import Testing

/// The loop's descriptors are found by what they are, wherever they sit in a turn.
struct PollSetTests {
    @Test func whatIsReadyIsFoundByNameWhereverItSits() throws {
        var signals: [Int32] = [-1, -1], pen: [Int32] = [-1, -1], touch: [Int32] = [-1, -1]
        #expect(pipe(&signals) == 0 && pipe(&pen) == 0 && pipe(&touch) == 0)
        defer { for fd in signals + pen + touch where fd >= 0 { close(fd) } }
        var set = PollSet()
        var byte: UInt8 = 1
        for turn in 0..<2 {
            set.clear()
            set.add(FileDescriptor(rawValue: signals[0]), as: .signals)
            // The pen is there only in the first turn: the touchscreen moves up a place in the second.
            if turn == 0 { set.add(FileDescriptor(rawValue: pen[0]), as: .input(0)) }
            set.add(FileDescriptor(rawValue: touch[0]), as: .input(1))
            #expect(write(touch[1], &byte, 1) == 1)
            try set.wait(seconds: 1)
            #expect(set.events(of: .input(1)) & Int16(POLLIN) != 0, "turn \(turn)")
            #expect(!set.isReady(.signals) && !set.isReady(.input(0)), "turn \(turn)")
            #expect(read(touch[0], &byte, 1) == 1)
        }
        #expect(set.events(of: .input(7)) == 0 && set.control.isEmpty)
        // A device gone: its end of the pipe hangs up.
        close(pen[1])
        pen[1] = -1
        set.clear()
        set.add(FileDescriptor(rawValue: touch[0]), as: .input(1))
        set.add(FileDescriptor(rawValue: pen[0]), as: .input(0))
        try set.wait(seconds: 1)
        #expect(set.events(of: .input(0)) & Int16(POLLHUP) != 0)
        #expect(!set.isReady(.input(1)))
    }
}
