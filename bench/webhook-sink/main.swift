// A webhook receiver for bench/deliveries.sh, on libmicrohttpd through HTTPServer: it answers every
// delivery 200 at once and notes when each came, so the figures measure the sender, not the receiver.
//
//   webhook-sink PORT
//
// POST /hooks: a delivery (its `webhook-id` noted). GET /stats: {"count", "repeats", "first", "last"},
// the distinct ids received, the deliveries of an id already received, and the first and last arrival
// in milliseconds since 1970. GET /arrivals: {id: time, …}.
import Foundation
import HTTPServer
import Synchronization

/// Every delivery's arrival time by its id, and the count with repeats.
let arrivals = Mutex<(count: Int, times: [String: UInt64])>((0, [:]))

func milliseconds() -> UInt64 { UInt64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }

var routes = RouterBuilder()
routes.post("/hooks") { request in
    let id = request.owned().headers["webhook-id"] ?? ""
    let now = milliseconds()
    arrivals.withLock {
        $0.count += 1
        if $0.times[id] == nil { $0.times[id] = now }
    }
    return .text(.ok, "ok")
}
routes.get("/stats") { _ in
    let (count, repeats, first, last) = arrivals.withLock {
        ($0.times.count, $0.count - $0.times.count, $0.times.values.min() ?? 0, $0.times.values.max() ?? 0)
    }
    return .text(.ok, #"{"count":\#(count),"repeats":\#(repeats),"first":\#(first),"last":\#(last)}"#)
}
routes.get("/arrivals") { _ in
    let pairs = arrivals.withLock { $0.times.map { #""\#($0.key)":\#($0.value)"# } }
    return .text(.ok, "{" + pairs.joined(separator: ",") + "}")
}

var configuration = ServerConfiguration()
configuration.host = "127.0.0.1"
configuration.port = Int(CommandLine.arguments.dropFirst().first ?? "0") ?? 0
configuration.threads = 1
configuration.perIPConnectionLimit = 0
let server = Server(configuration: configuration, router: routes.freeze())
try server.start()
print("listening on \(server.port)")
while true { sleep(3600) }
