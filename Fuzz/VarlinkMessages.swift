// libFuzzer target for what a point of sale's client sends on the control socket: any bytes,
// arriving in any pieces, are messages, Varlink calls or a VarlinkProtocolError, never a crash; a
// reply built from what a call carried is JSON that reads back the same.
// Built by scripts/fuzz from SignpadVarlink's message sources.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVarlinkMessages(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var framer = VarlinkFramer(limit: 4096)
    // The first byte says where the stream is cut, as a socket's reads cut it.
    let piece = Int(bytes.first ?? 1) % 64 + 1
    var offset = 0
    while offset < bytes.count {
        framer.append(bytes[offset..<min(offset + piece, bytes.count)])
        offset += piece
        while true {
            let message: [UInt8]
            do {
                guard let next = try framer.next() else { break }
                message = next
            } catch {
                return 0  // the connection would be dropped here
            }
            precondition(!message.contains(0) && message.count <= framer.limit)
            guard let call = try? VarlinkCall(message: message) else { continue }
            let reply = VarlinkReply.parameters(call.parameters, continues: call.more)
            precondition(reply.last == 0)
            guard case .object(let fields)? = JSONValue(parsing: reply.dropLast()), case .object(let echoed)? = fields["parameters"] else {
                preconditionFailure("a reply that does not read back: \(String(decoding: reply, as: UTF8.self))")
            }
            precondition(echoed.count == call.parameters.count)
        }
    }
    return 0
}
