import Foundation
import ArgumentParser
import SignpadExport

struct ISO: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "iso",
        abstract: "Read ISO/IEC 19794-7 signature records.",
        subcommands: [Inspect.self])

    struct Inspect: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Decode and validate an ISO/IEC 19794-7:2007 full-format record, bare (.sig.bin) or in a CBEFF XML record (.cbeff.xml).",
            discussion: "Exit status 0 for a valid record, 1 for a broken one (the byte and the rule it breaks), 2 when the file cannot be read or is sealed (.p7m: decrypt it first). Prints the channels, their scales and ranges, the counts and every point.")
        @Flag(name: .long, help: "Print JSON instead of text.") var json = false
        @Argument(help: "The record: <id>.sig.bin or <id>.cbeff.xml, decrypted if it was sealed.", completion: .file()) var file: String

        func run() throws {
            let bytes: [UInt8]
            do {
                bytes = try BoundedFile.read(file, limit: BoundedFile.exportedFileBytes)
            } catch {
                FileHandle.standardError.write(Data("Error: \(file): \(error)\n".utf8))
                throw ExitCode(2)
            }
            do {
                let report = try ISORecordReport(bytes)
                if json { FileHandle.standardOutput.write(Data(report.json)) } else { print(report.text, terminator: "") }
            } catch {
                FileHandle.standardError.write(Data("Error: \(file): \(error)\n".utf8))
                // A sealed file is no record until it is opened: not a broken one.
                throw ExitCode(error == .sealed ? 2 : 1)
            }
        }
    }
}
