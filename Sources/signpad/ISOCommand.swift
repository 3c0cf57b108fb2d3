import FoundationEssentials
import Glibc
import ArgumentParser
import SignpadExport

struct ISO: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "iso",
        abstract: "Read ISO/IEC 19794-7 signature records.",
        subcommands: [Inspect.self])

    struct Inspect: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Decode and validate an ISO/IEC 19794-7:2007 record, full or compact format, bare (.sig.bin) or in a CBEFF XML record (.cbeff.xml).",
            discussion: "Exit status 0 for a valid record, 1 for a broken one (the byte and the rule it breaks), 2 when the file cannot be read or is sealed (.p7m: decrypt it first). Prints the channels, their scales and ranges, the counts and every point.")
        @Flag(name: .long, help: "Print JSON instead of text.") var json = false
        @Option(name: .long, help: ArgumentHelp("The record is in the compact format, which does not name its channels: give them, comma-separated, in any order (X and Y among them).",
                                                valueName: "X,Y,DT,F,S")) var compact: String?

        /// The channels `--compact` names.
        func compactChannels() throws -> [ISOSignatureRecord.Channel]? {
            guard let compact else { return nil }
            var channels: [ISOSignatureRecord.Channel] = []
            for name in compact.split(separator: ",", omittingEmptySubsequences: false).map(\.trimmed) {
                guard let channel = ISOSignatureRecord.Channel(name: name) else {
                    throw ValidationError("--compact: \"\(name)\" is no channel; expected some of \(ISOSignatureRecord.Channel.allCases.map(\.name).joined(separator: ", "))")
                }
                guard !channels.contains(channel) else { throw ValidationError("--compact: \(channel.name) is named twice") }
                channels.append(channel)
            }
            guard channels.contains(.x), channels.contains(.y) else { throw ValidationError("--compact: a compact record's channels include X and Y") }
            return channels
        }

        func validate() throws { _ = try compactChannels() }
        @Argument(help: "The record: <id>.sig.bin or <id>.cbeff.xml, decrypted if it was sealed.", completion: .file()) var file: String

        func run() throws {
            let channels = try compactChannels()
            let bytes: [UInt8]
            do {
                bytes = try BoundedFile.read(file, limit: BoundedFile.exportedFileBytes)
            } catch {
                StandardStream.error.write(Data("Error: \(file): \(error)\n".utf8))
                throw ExitCode(2)
            }
            do {
                let report = try ISORecordReport(bytes, compact: channels)
                if json { StandardStream.output.write(Data(report.json)) } else { print(report.text, terminator: "") }
            } catch {
                // A file that is no full-format record from its first byte may be a compact one.
                var hint = ""
                if channels == nil, case .record(let broken, _) = error, broken.offset == 0 {
                    hint = "; a compact record has no header: name its channels with --compact X,Y,…"
                }
                StandardStream.error.write(Data("Error: \(file): \(error)\(hint)\n".utf8))
                // A sealed file is no record until it is opened: not a broken one.
                throw ExitCode(error == .sealed ? 2 : 1)
            }
        }
    }
}
