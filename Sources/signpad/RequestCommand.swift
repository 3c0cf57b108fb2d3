import FoundationEssentials
import Glibc
import ArgumentParser
import SignpadCrypto
import SignpadExport
import SignpadVarlink
import SignpadVocabulary

struct Request: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Ask the kiosk for a signature, as a point of sale does, and print the progress and the result.",
        discussion: """
            With --cancel, --result or --status instead of --reference: cancel the request under way, print the \
            result of one that ended, or print the kiosk's status.
            Exit status: 0 signed (or done), 1 cancelled or timed out, 2 failed, refused, or signpad not reached, \
            64 a usage error (an option missing or out of range: nothing was asked).
            """)
    @Option(name: .long, help: "The sale or document the signature is for (1 to 64 printable characters); files are named after it.")
    var reference: String?
    @Option(name: .long, help: ArgumentHelp("Cancel the request under way with this id.", valueName: "id")) var cancel: String?
    @Option(name: .long, help: ArgumentHelp("Print the result of the request with this id.", valueName: "id")) var result: String?
    @Flag(name: .long, help: "Print the kiosk's status.") var status = false
    @Option(name: .long, help: "Shown above the box in the prompt's place.") var title: String?
    @Option(name: .customLong("line"), help: "A line of text shown under the title (an amount, consent wording); repeat for more.")
    var lines: [String] = []
    @Option(name: .long, help: "Who signs, for the record.") var signer: String?
    @Option(name: .long, help: "Why, for the record.") var reason: String?
    @Option(name: .customLong("document-sha256"), help: "The SHA-256 of the document signed, for the record.") var documentSha256: String?
    @Option(name: .long, help: "A PDF in the kiosk's documents folder to sign in (its SHA-256 is sent with it).", completion: .file()) var document: String?
    @Option(name: .long, help: "With --document: the signature field to sign (if not given, the first unsigned one).") var field: String?
    @Option(name: .long, help: "With --document and --rect: the page of the new field, from 1.") var page: Int?
    @Option(name: .long, help: ArgumentHelp("With --document: where a new field goes when there is none, in points from the page's bottom left.", valueName: "x0,y0,x1,y1"))
    var rect: String?
    // Unconditional, so that "-1" is read as a value and refused as one, not as an unknown option.
    @Option(name: .long, parsing: .unconditional,
            help: "Seconds the pad may go untouched before the request ends timed out (5 to 3600; default kiosk.idle_timeout held to 5 to 3600, or 300 where that is 0).")
    var timeout: Double?
    @Option(name: .long, help: "Write the signature's PNG here when signed.", completion: .file()) var image: String?
    // Optional, with the default in the help's words: the manual page drops ArgumentParser's "(default: …)".
    static let defaultSocket = "/run/signpad/control.sock"
    @Option(name: .long, help: "The control socket (default \(defaultSocket)).", completion: .file()) var socket: String?
    @Flag(name: .long, help: "Print each reply as one line of JSON instead.") var json = false

    func validate() throws {
        let modes = [reference != nil, cancel != nil, result != nil, status].filter { $0 }.count
        guard modes == 1 else { throw ValidationError("give one of --reference (ask for a signature), --cancel ID, --result ID or --status") }
        // JSON has no NaN or infinity: sent, they would arrive as null and the default would apply.
        if let timeout, !(timeout.isFinite && RequestRules.timeout.contains(timeout)) {
            throw ValidationError("--timeout: expected seconds from \(Int(RequestRules.timeout.lowerBound)) to \(Int(RequestRules.timeout.upperBound)), got \(timeout)")
        }
        if let image { try Self.checkWritable(image) }
        if document == nil, field != nil || page != nil || rect != nil { throw ValidationError("--field, --page and --rect go with --document") }
        if let rect, Self.rectangle(rect) == nil { throw ValidationError("--rect: expected four numbers x0,y0,x1,y1, got \(rect)") }
        if page != nil, rect == nil { throw ValidationError("--page goes with --rect: it is the page of a new field") }
    }

    static func rectangle(_ text: String) -> [Double]? {
        let numbers = text.split(separator: ",").compactMap { Double($0.trimmed) }
        return numbers.count == 4 && numbers.allSatisfy(\.isFinite) ? numbers : nil
    }

    /// Refuses an image path that cannot be written before the customer is asked to sign: once
    /// they have, the result is printed whatever becomes of the image.
    static func checkWritable(_ path: String) throws {
        var isFolder = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder {
            throw ValidationError("--image: expected a file, but \(path) is a folder")
        }
        let parent = PathText.folder(of: path), folder = parent.isEmpty ? "." : parent
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder else {
            throw ValidationError("--image: expected a file in a folder signpad request can write, but \(folder) does not exist")
        }
        guard access(folder, W_OK) == 0 else {
            throw ValidationError("--image: expected a file in a folder signpad request can write, but \(folder) is not writable: \(String(cString: strerror(errno)))")
        }
    }

    func run() throws {
        if let cancel { return try call("CancelRequest", ["id": .string(cancel)]) }
        if let result { return try call("GetResult", ["id": .string(result)]) }
        if status { return try call("GetStatus", [:]) }
        var parameters: [String: JSONValue] = ["reference": .string(reference ?? "")]
        if let title { parameters["title"] = .string(title) }
        if !lines.isEmpty { parameters["lines"] = .array(lines.map { .string($0) }) }
        if let signer { parameters["signer"] = .string(signer) }
        if let reason { parameters["reason"] = .string(reason) }
        if let documentSha256 { parameters["documentSha256"] = .string(documentSha256) }
        if let timeout { parameters["timeoutSeconds"] = .number(timeout) }
        if image != nil { parameters["returnImage"] = true }
        if let document {
            guard let bytes = FileManager.default.contents(atPath: document) else {
                // Read here, to hash it: a bare name is this command's folder's file, not the documents folder's.
                let why = access(document, R_OK) == 0 ? "it could not be read" : String(cString: strerror(errno))
                StandardStream.error.write(Data("signpad request: --document \(document): cannot be read (\(why)); give its path in the documents folder\n".utf8))
                throw ExitCode(64)
            }
            let path = document.hasPrefix("/") ? document : FileManager.default.currentDirectoryPath + "/" + document
            var fields: [String: JSONValue] = ["path": .string(Self.resolved(path)), "sha256": .string(SHA256.hex(Array(bytes)))]
            if let field { fields["field"] = .string(field) }
            if let page { fields["page"] = .number(Double(page)) }
            if let rect, let numbers = Self.rectangle(rect) { fields["rect"] = .array(numbers.map { .number($0) }) }
            parameters["document"] = .object(fields)
        }
        try call("RequestSignature", parameters, more: true)
    }

    /// Calls `method` of org.signpad.Kiosk and prints its replies; exits with the result's status.
    private func call(_ method: String, _ parameters: [String: JSONValue], more: Bool = false) throws {
        do {
            let client = try VarlinkClient(path: socket ?? Self.defaultSocket)
            try client.send("org.signpad.Kiosk." + method, parameters, more: more)
            while true {
                switch try client.next() {
                case .parameters(let reply, let continues):
                    show(reply)
                    if !continues { throw ExitCode(reply["status"].map { Self.exitStatus($0) } ?? 0) }
                case .error(let name, let details):
                    if json {
                        StandardStream.output.write(Data(JSONValue.object(["error": .string(name), "parameters": .object(details)]).encoded + [0x0A]))
                    }
                    let said = details.keys.sorted().map { "\($0)=\(Self.text(details[$0]!))" }.joined(separator: ", ")
                    StandardStream.error.write(Data("signpad request: \(name)\(said.isEmpty ? "" : ": " + said)\n".utf8))
                    throw ExitCode(2)
                }
            }
        } catch let error as VarlinkClientError {
            StandardStream.error.write(Data("signpad request: \(error)\n".utf8))
            throw ExitCode(2)
        }
    }

    private func show(_ reply: [String: JSONValue]) {
        var shown = reply
        var out = ""
        func say(_ line: String) { out += line + "\n" }
        // The signature is saved whatever happens to the image: a problem with it is said beside
        // the result, never in its place.
        var imageProblem: String?
        if let picture = image, reply["status"] == "signed" {
            if case .string(let base64)? = reply["image"] {
                if let bytes = Data(base64Encoded: base64) {
                    if FileManager.default.createFile(atPath: picture, contents: bytes) {
                        shown["image"] = .string(picture)
                    } else {
                        imageProblem = "the image was not written to \(picture): \(String(cString: strerror(errno)))"
                    }
                } else {
                    imageProblem = "the image signpad sent is not base64; nothing written to \(picture)"
                }
            } else {
                imageProblem = "signpad sent no image (it exports no PNG in clear); nothing written to \(picture)"
            }
        }
        defer { if let imageProblem { StandardStream.error.write(Data("signpad request: \(imageProblem)\n".utf8)) } }
        if json {
            say(String(decoding: JSONValue.object(shown).encoded, as: UTF8.self))
        } else if reply["status"] == nil && reply["progress"] == nil {
            // The status, or a cancel's empty answer: each field on a line.
            for key in reply.keys.sorted() { say("\(key): \(Self.text(reply[key]!))") }
        } else if let progress = reply["progress"] {
            say("\(Self.text(progress)): \(Self.text(reply["id"] ?? ""))")
        } else {
            var line = "\(Self.text(reply["status"] ?? "")): \(Self.text(reply["id"] ?? ""))"
            if let stored = reply["stored"] { line += " (\(Self.text(stored)))" }
            if let reason = reply["reason"] { line += ": \(Self.text(reason))" }
            say(line)
            if case .array(let files)? = reply["files"] {
                for file in files { say("  \(Self.text(file["name"] ?? ""))  \(Self.text(file["bytes"] ?? "")) bytes  sha256 \(Self.text(file["sha256"] ?? ""))") }
            }
            if case .object(let signed)? = reply["document"] { say("  document: \(Self.text(signed["path"] ?? ""))  sha256 \(Self.text(signed["sha256"] ?? ""))") }
            if let picture = image, shown["image"] == .string(picture) { say("  image: \(picture)") }
        }
        // Written at once, also into a pipe: a script reads "shown" and the id as they happen.
        StandardStream.output.write(Data(out.utf8))
    }

    /// The document's path as the daemon checks it against its documents folder: every link in
    /// it resolved (the file has just been read, so it is there), else the path made plain.
    static func resolved(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return PathText.normalized(path) }
        defer { free(real) }
        return String(cString: real)
    }

    static func exitStatus(_ status: JSONValue) -> Int32 {
        switch status {
        case "signed": 0
        case "cancelled", "timedOut": 1
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
