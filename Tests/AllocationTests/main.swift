import CAllocationCounter
import FormServer
import Foundation
import HTTPServer

#if canImport(Glibc)
    import Glibc
#endif

// The heap allocations each kind of request costs the server, held to a ceiling: a change that adds
// allocations to a request path fails here, whatever the machine's speed (as swift-nio's allocation
// thresholds do). Speed itself is bench/'s business.
//
// One process: the server on loopback, and a client that writes prepared requests and reads answers
// into buffers made once, so that what the counter sees during the measured requests is the server's.
// Run from the repository root as a release build (`make allocation-test`): a debug build allocates
// several times as much. Prints a line per request kind and `N passed, M failed`.

/// A request kind, the bytes that ask for it, the status it must get, and its ceiling.
struct Kind {
    let name: String
    let request: [UInt8]
    let status: Int
    /// The most allocations one request may cost in a release build. The counts repeat from run to run
    /// but for the page's `Date` field, which a pooled response replaces once a second (three
    /// allocations, spread over that second's requests): the paths every reader takes are held to what
    /// they cost and one more, submissions with room for four.
    let ceiling: Double
}

let eventJSON =
    #"{"title":"Team lunch","starts":"2026-11-23T12:00","ends":"2026-11-23T13:00","alert":"15m","second-alert":"5m","guests":8}"#
let invalidJSON = #"{"title":"","guests":"eight"}"#

func get(_ target: String) -> [UInt8] { Array("GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n".utf8) }

func post(_ json: String) -> [UInt8] {
    Array(
        ("POST /forms/event HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAccept: application/json\r\n"
            + "Content-Length: \(json.utf8.count)\r\n\r\n\(json)").utf8)
}

let kinds = [
    Kind(name: "static file", request: get("/static/forms.css"), status: 200, ceiling: 1),
    Kind(name: "event page", request: get("/forms/event"), status: 200, ceiling: 10),
    Kind(name: "valid submission", request: post(eventJSON), status: 200, ceiling: 55),
    Kind(name: "invalid submission", request: post(invalidJSON), status: 422, ceiling: 86),
]

/// A keep-alive client over one socket, reading into a buffer made once.
final class Client {
    let socket: Int32
    var buffer = [UInt8](repeating: 0, count: 1 << 20)

    init(port: Int) {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        precondition(connected == 0, "cannot connect to the server")
    }

    /// Sends `request` and reads its answer whole; returns its status.
    func exchange(_ request: [UInt8]) -> Int {
        request.withUnsafeBytes { bytes in
            var sent = 0
            while sent < bytes.count {
                let count = send(socket, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
                precondition(count > 0, "send failed")
                sent += count
            }
        }
        var read = 0
        var headEnd = -1
        var total = Int.max
        while read < total {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress! + read, $0.count - read, 0) }
            precondition(count > 0, "the server closed the connection")
            read += count
            if headEnd < 0, let end = Self.headEnd(buffer, read) {
                headEnd = end
                total = end + Self.contentLength(buffer, end)
            }
        }
        // "HTTP/1.1 200": the status is the three digits after the first space.
        return buffer[9...11].reduce(0) { $0 * 10 + Int($1 - 48) }
    }

    /// The index after the blank line that ends the head, if it has arrived.
    static func headEnd(_ bytes: [UInt8], _ count: Int) -> Int? {
        guard count >= 4 else { return nil }
        for index in 3..<count
        where bytes[index - 3] == 13 && bytes[index - 2] == 10 && bytes[index - 1] == 13
            && bytes[index] == 10
        {
            return index + 1
        }
        return nil
    }

    /// The value of the head's `Content-Length` field (case-insensitive), 0 without one.
    static func contentLength(_ bytes: [UInt8], _ headEnd: Int) -> Int {
        let name = Array("\ncontent-length:".utf8)
        var index = 0
        while index + name.count < headEnd {
            var matches = true
            for offset in 0..<name.count {
                let byte = bytes[index + offset]
                let lower = (65...90).contains(byte) ? byte + 32 : byte
                if lower != name[offset] {
                    matches = false
                    break
                }
            }
            if matches {
                var value = 0
                var position = index + name.count
                while bytes[position] == 32 { position += 1 }
                while (48...57).contains(bytes[position]) {
                    value = value * 10 + Int(bytes[position] - 48)
                    position += 1
                }
                return value
            }
            index += 1
        }
        return 0
    }
}

var configuration = FormServerConfiguration()
configuration.server.host = "127.0.0.1"
configuration.server.port = 0
configuration.server.threads = 1
configuration.accessLog = false
configuration.secret = "allocation test"
let app = try FormServerApp(configuration: configuration, hooks: FormHooks())
try app.start()
let client = Client(port: app.server.port)

let requests = 2_000
var failed = 0
for kind in kinds {
    // Warm: pools fill, lazily made state is made, buffers reach their size.
    for _ in 0..<500 { precondition(client.exchange(kind.request) == kind.status, "\(kind.name): unexpected status") }
    let before = allocation_counter_count()
    for _ in 0..<requests { _ = client.exchange(kind.request) }
    let perRequest = Double(allocation_counter_count() - before) / Double(requests)
    let passed = perRequest <= kind.ceiling
    if !passed { failed += 1 }
    print(
        String(
            format: "%@ %@: %.1f allocations a request (ceiling %.0f)", passed ? "ok  " : "FAIL", kind.name, perRequest,
            kind.ceiling))
}
close(client.socket)
app.shutdown(gracePeriod: .seconds(2))
print("\(kinds.count - failed) passed, \(failed) failed")
exit(failed == 0 ? 0 : 1)
