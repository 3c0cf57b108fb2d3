import Foundation
import SignpadSystemCheck
import Testing

@Suite struct HostNameTests {
    @Test func theHostNameIsTheKernels() throws {
        let kernel = try String(contentsOfFile: "/proc/sys/kernel/hostname", encoding: .utf8).trimmingCharacters(in: .newlines)
        #expect(!kernel.isEmpty)
        #expect(HostName.ofThisMachine() == kernel)
    }
}
