import Foundation
import ArgumentParser
import SignpadVarlink

struct Request: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Ask the kiosk for a signature, as a point of sale does, and print the progress and the result.",
        discussion: "Exit status: 0 signed, 1 cancelled or timed out, 2 failed, refused, or signpad not reached.")
    @Option(name: .long, help: "The sale or document the signature is for (1 to 64 printable characters); files are named after it.")
    var reference: String
    @Option(name: .long, help: "Shown above the box in the prompt's place.") var title: String?
    @Option(name: .customLong("line"), help: "A line of text shown under the title (an amount, consent wording); repeat for more.")
    var lines: [String] = []
    @Option(name: .long, help: "Who signs, for the record.") var signer: String?
    @Option(name: .long, help: "Why, for the record.") var reason: String?
    @Option(name: .customLong("document-sha256"), help: "The SHA-256 of the document signed, for the record.") var documentSha256: String?
    @Option(name: .long, help: "Seconds the pad may go untouched before the request ends timed out.") var timeout: Double?
    @Option(name: .long, help: "Write the signature's PNG here when signed.", completion: .file()) var image: String?
    @Option(name: .long, help: "The control socket.", completion: .file()) var socket = "/run/signpad/control.sock"
    @Flag(name: .long, help: "Print each reply as one line of JSON instead.") var json = false

    func run() throws {
        var parameters: [String: JSONValue] = ["reference": .string(reference)]
        if let title { parameters["title"] = .string(title) }
        if !lines.isEmpty { parameters["lines"] = .array(lines.map { .string($0) }) }
        if let signer { parameters["signer"] = .string(signer) }
        if let reason { parameters["reason"] = .string(reason) }
        if let documentSha256 { parameters["documentSha256"] = .string(documentSha256) }
        if let timeout { parameters["timeoutSeconds"] = .number(timeout) }
        if image != nil { parameters["returnImage"] = true }
        do {
            let client = try VarlinkClient(path: socket)
            try client.send("org.signpad.Kiosk.RequestSignature", parameters, more: true)
            while true {
                switch try client.next() {
                case .parameters(let reply, let continues):
                    try show(reply)
                    if !continues { throw ExitCode(Self.exitStatus(reply["status"])) }
                case .error(let name, let details):
                    if json {
                        print(String(decoding: JSONValue.object(["error": .string(name), "parameters": .object(details)]).encoded, as: UTF8.self))
                    }
                    let said = details.keys.sorted().map { "\($0)=\(Self.text(details[$0]!))" }.joined(separator: ", ")
                    FileHandle.standardError.write(Data("signpad request: \(name)\(said.isEmpty ? "" : ": " + said)\n".utf8))
                    throw ExitCode(2)
                }
            }
        } catch let error as VarlinkClientError {
            FileHandle.standardError.write(Data("signpad request: \(error)\n".utf8))
            throw ExitCode(2)
        }
    }

    private func show(_ reply: [String: JSONValue]) throws {
        var shown = reply
        if let picture = image, case .string(let base64)? = reply["image"] {
            guard let bytes = Data(base64Encoded: base64) else { throw ValidationError("the image signpad sent is not base64") }
            try bytes.write(to: URL(fileURLWithPath: picture))
            shown["image"] = .string(picture)
        }
        if json {
            print(String(decoding: JSONValue.object(shown).encoded, as: UTF8.self))
        } else if let progress = reply["progress"] {
            print("\(Self.text(progress)): \(Self.text(reply["id"] ?? ""))")
        } else {
            var line = "\(Self.text(reply["status"] ?? "")): \(Self.text(reply["id"] ?? ""))"
            if let stored = reply["stored"] { line += " (\(Self.text(stored)))" }
            if let reason = reply["reason"] { line += ": \(Self.text(reason))" }
            print(line)
            if case .array(let files)? = reply["files"] {
                for file in files { print("  \(Self.text(file["name"] ?? ""))  \(Self.text(file["bytes"] ?? "")) bytes  sha256 \(Self.text(file["sha256"] ?? ""))") }
            }
            if let picture = image, reply["image"] != nil { print("  image: \(picture)") }
        }
    }

    static func exitStatus(_ status: JSONValue?) -> Int32 {
        switch status {
        case "signed"?: 0
        case "cancelled"?, "timedOut"?: 1
        default: 2
        }
    }

    static func text(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): s
        case .number(let n): n == n.rounded() ? String(Int(n)) : String(n)
        default: String(decoding: value.encoded, as: UTF8.self)
        }
    }
}
