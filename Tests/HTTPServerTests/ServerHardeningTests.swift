import Foundation
import HTTPTestClient
import Synchronization
import Testing

@testable import HTTPServer

@Suite struct ServerHardeningTests {
    @Test func oversizeContentLengthGets413WithoutSendingTheBody() async throws {
        try await withServer(.testing(maxBody: 1024), routes: standardRoutes) { server in
            let connection = try RawConnection(port: server.port)
            try connection.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 10485760\r\n\r\n")
            let response = try connection.readResponse()
            #expect(response.status == 413)
            #expect(response.text.contains("10485760 bytes is over the limit of 1024"))
            #expect(response.header("Connection") == "close")
        }
    }

    /// A declared length within a very large limit is not reserved up front: a client that declares a
    /// terabyte and sends five bytes must not make the server allocate a terabyte, which fails the
    /// whole process. The server answers the next client as before.
    @Test func aHugeDeclaredLengthIsNotReservedUpFront() async throws {
        let (interim, status) = try await withServer(.testing(maxBody: 1 << 50), routes: standardRoutes) { server in
            let connection = try RawConnection(port: server.port)
            try connection.send(
                "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: \(1 << 40)\r\nExpect: 100-continue\r\n\r\n")
            // `100 Continue` comes once the headers were examined, where the room for the body is made.
            let interim = try connection.readResponse(bodyless: true)
            try connection.send("hello")
            return (interim.status, try request(server.port, "/hello").status)
        }
        #expect(interim == 100)
        #expect(status == 200)
    }

    @Test func oversizeChunkedBodyGets413() async throws {
        try await withServer(.testing(maxBody: 1024), routes: standardRoutes) { server in
            let connection = try RawConnection(port: server.port)
            let chunk = String(repeating: "x", count: 1000)
            var text = "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
            for _ in 0..<4 { text += "3e8\r\n\(chunk)\r\n" }
            text += "0\r\n\r\n"
            try connection.send(text)
            let response = try connection.readResponse()
            #expect(response.status == 413)
            #expect(response.header("Connection") == "close")
        }
    }

    @Test(arguments: [
        ("GET /%zz HTTP/1.1\r\nHost: x\r\n\r\n", "percent-encoding"),
        ("GET /hello HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello", "must not carry a body"),
        ("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n", "both"),
        ("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabc", "one Content-Length"),
        ("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", "chunked"),
        // Framing a proxy in front may read otherwise (request smuggling): each field counts.
        (
            "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: gzip\r\n\r\n",
            "end with 'chunked'"
        ),
        (
            "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding : chunked\r\nContent-Length: 3\r\n\r\nabc",
            "is not a token"
        ),
        ("GET /hello HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n", "one Host field"),
        ("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: \r\nTransfer-Encoding: chunked\r\n\r\n", "empty coding"),
        ("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked,\r\n\r\n", "empty coding"),
        ("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\t\r\n\r\n", "exactly 'chunked'"),
        // Bytes that cannot stand in a target unencoded, and a fragment, never reach routing.
        ("GET /hel\u{7F}lo HTTP/1.1\r\nHost: x\r\n\r\n", "percent-encode"),

        ("GET /hello\u{1B}[0m HTTP/1.1\r\nHost: x\r\n\r\n", "percent-encode"),
        ("GET /hello#top HTTP/1.1\r\nHost: x\r\n\r\n", "percent-encode"),
    ])
    func badRequestsGetA4xxNamingTheProblem(raw: String, message: String) async throws {
        try await withServer(routes: standardRoutes) { server in
            let connection = try RawConnection(port: server.port)
            try connection.send(raw)
            let response = try connection.readResponse()
            #expect((400..<500).contains(response.status))
            #expect(response.text.contains(message))
            // And the server goes on serving everyone else.
            #expect(try request(server.port, "/hello").status == 200)
        }
    }

    @Test(arguments: [
        "GARBAGE\r\n\r\n",
        "GET\r\n\r\n",
        "GET /hello HTTP/9.9\r\nHost: x\r\n\r\n",
        "GET /hello HTTP/1.1\r\n\r\n",  // HTTP/1.1 without Host
        "GET /he llo HTTP/1.1\r\nHost: x\r\n\r\n",
        "\u{1}\u{2}\u{3}\r\n\r\n",
    ])
    func malformedRequestLinesGetA4xxOrAClose(raw: String) async throws {
        try await withServer(routes: standardRoutes) { server in
            let connection = try RawConnection(port: server.port)
            try connection.send(raw)
            if let response = try? connection.readResponse() {
                // 505 is libmicrohttpd's own, RFC 9110 answer to an HTTP version it does not speak.
                let expected = raw.contains("HTTP/9.9") ? 505..<506 : 400..<500
                #expect(expected.contains(response.status), "got \(response.status) for \(raw.debugDescription)")
            }
            #expect(try request(server.port, "/hello").status == 200)
        }
    }

    @Test func unknownMethodGetsA4xx() async throws {
        try await withServer(routes: standardRoutes) { server in
            let known = try request(server.port, "BREW", "/hello")
            let unknown = try request(server.port, "BREW", "/pot")
            #expect(known.status == 405)
            #expect(unknown.status == 404)
        }
    }

    /// A method is a token (RFC 9110 §9.1): one with other bytes is a malformed request, refused as such
    /// (and the connection closed), not a method the path lacks. Lowercase is a token, and another method.
    @Test func aMethodThatIsNotATokenIsABadRequest() async throws {
        try await withServer(routes: standardRoutes) { server in
            let connection = try RawConnection(port: server.port)
            try connection.send("GE(T /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            let malformed = try connection.readResponse()
            #expect(malformed.status == 400)
            #expect(malformed.text.contains("the method is not a token"))
            #expect(malformed.header("Connection") == "close")
            let lowercase = try request(server.port, "get", "/hello")
            #expect(lowercase.status == 405 && lowercase.header("Allow") == "GET, HEAD, OPTIONS")
            #expect(try request(server.port, "/hello").status == 200)
        }
    }

    @Test func hugeHeadersGet431() async throws {
        try await withServer(routes: standardRoutes) { server in
            let connection = try RawConnection(port: server.port)
            try? connection.send(
                "GET /hello HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 100_000))\r\n\r\n")
            #expect(try connection.readResponse().status == 431)
            // libmicrohttpd keeps a parsed copy of a `Cookie` field in the same pool: two thirds of the
            // limit in cookies is refused by libmicrohttpd itself, before any handler call.
            let cookies = try RawConnection(port: server.port)
            let cookie = "big=" + String(repeating: "c", count: ServerConfiguration().maxHeaderSize * 2 / 3)
            try? cookies.send("GET /hello HTTP/1.1\r\nHost: x\r\nCookie: \(cookie)\r\n\r\n")
            #expect(try cookies.readResponse().status == 431)
            #expect(try request(server.port, "/hello").status == 200)
        }
    }

    /// Every header block gets an answer: the route's up to `maxHeaderSize` bytes of request line and
    /// fields, then 431 saying what was wrong, up to where libmicrohttpd refuses while reading. On its
    /// own, libmicrohttpd read a block that left its pool too little room for the answer's header and
    /// then closed the connection without a word; this sweeps that edge with an answer that carries a
    /// page's worth of header fields, and a client that asks for JSON gets the server's JSON refusal.
    @Test func everyHeaderSizeGetsAnAnswerAnd431PastTheLimit() async throws {
        var configuration = ServerConfiguration.testing()
        configuration.maxHeaderSize = 4096
        configuration.errorResponse = { status, message, headers in
            guard headers["accept"] == "application/json" else { return .error(status, message) }
            return .text(status, "{\"status\":\(status.code)}")
        }
        let (limit, memory) = (configuration.maxHeaderSize, configuration.connectionMemory)
        let routes: (inout RouterBuilder) -> Void = { routes in
            routes.get("/page") { _ in
                var response = Response.text(.ok, "page")
                for index in 0..<8 { response.headers["X-Field-\(index)"] = String(repeating: "v", count: 60) }
                return response
            }
        }
        try await withServer(configuration, routes: routes) { server in
            var seen: [Int: Int] = [:]
            for size in stride(from: limit - 200, through: limit + ServerConfiguration.answerHeaderRoom + 400, by: 5) {
                let json = size % 2 == 0
                // Every third a HEAD: its answer, whoever writes it, is a header alone.
                let method = size % 3 == 0 ? "HEAD" : "GET"
                let head =
                    "\(method) /page HTTP/1.1\r\nHost: x\r\n" + (json ? "Accept: application/json\r\n" : "")
                    + "X-Big: "
                let padding = String(repeating: "a", count: size - head.utf8.count - 4)
                let connection = try RawConnection(port: server.port)
                try? connection.send(head + padding + "\r\n\r\n")
                let response: TestResponse
                do { response = try connection.readResponse(bodyless: method == "HEAD") } catch {
                    Issue.record("a head of \(size) bytes got no answer: \(error)")
                    continue
                }
                seen[response.status, default: 0] += 1
                #expect(response.status == (size <= limit ? 200 : 431), "a head of \(size) bytes")
                if method == "HEAD" {
                    if response.status == 431 {
                        #expect(try connection.readToClose().isEmpty, "a HEAD of \(size) bytes")
                    }
                    continue
                }
                guard response.status == 431, size <= memory - 512 else { continue }
                // Ours, not libmicrohttpd's own, which says nothing of the limit; worded for the client
                // while the pool has room for an ordinary answer, in plain text past that.
                if json, size <= memory - Server.plainRefusalRoom {
                    #expect(response.text == "{\"status\":431}", "a head of \(size) bytes")
                } else {
                    #expect(response.text.contains("take \(size) bytes, more than the \(limit) this server reads"))
                }
            }
            #expect(seen[200, default: 0] == 41 && seen[431, default: 0] > 400, "\(seen)")
            #expect(try request(server.port, "/hello").status == 404)
        }
    }

    /// Every count of query arguments, in short and long targets, gets an answer at once: the route's,
    /// or 414 naming the count and the limit before libmicrohttpd would run out of memory storing them
    /// (it then neither answered nor closed until the timeout), or libmicrohttpd's own 431 where the
    /// arguments fit but the rest of the head does not.
    @Test(arguments: [60, 2_000, 12_000, 24_000])
    func everyCountOfQueryArgumentsGetsAnAnswerAtOnce(targetLength: Int) async throws {
        let statuses = try await withServer(routes: standardRoutes) { server in
            var statuses: [Int: Int] = [:]
            for count in stride(from: 1, through: 1_500, by: 23) where count * 2 <= targetLength {
                let argument = "a=" + String(repeating: "b", count: max(0, targetLength / count - 3))
                let target = "/query?" + Array(repeating: argument, count: count).joined(separator: "&")
                let connection = try RawConnection(port: server.port, timeout: 3)
                try? connection.send("GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n")
                let response: TestResponse
                do { response = try connection.readResponse() } catch {
                    Issue.record("\(count) arguments in \(target.utf8.count) bytes got no answer: \(error)")
                    continue
                }
                statuses[response.status, default: 0] += 1
                let limit = server.maximumQueryArguments(targetLength: target.utf8.count)
                if count <= limit {
                    #expect(response.status == 200, "\(count) arguments in \(target.utf8.count) bytes")
                } else {
                    #expect(response.status == 414)
                    #expect(response.text.contains("has \(count) query arguments, more than the \(limit)"))
                    #expect(response.header("X-Content-Type-Options") == "nosniff")
                    #expect(try connection.readToClose().isEmpty)
                }
            }
            #expect(try request(server.port, "/hello").status == 200)
            return statuses
        }
        #expect(statuses[200, default: 0] > 0)
        if targetLength >= 2_000 { #expect(statuses[414, default: 0] > 0) }
    }

    /// A `Cookie` field is in libmicrohttpd's memory twice, as sent and parsed: every size gets the route's
    /// answer or a 431, never silence: a cookie just under half the memory must still leave room for an
    /// answer, not close the connection without a word.
    @Test func everyCookieSizeGetsTheRouteOrA431() async throws {
        var configuration = ServerConfiguration.testing()
        configuration.maxHeaderSize = 4096
        let limit = configuration.maxHeaderSize
        try await withServer(configuration, routes: standardRoutes) { server in
            var seen: [Int: Int] = [:]
            for size in stride(from: 1_000, through: limit + 200, by: 7) {
                let connection = try RawConnection(port: server.port, timeout: 3)
                let cookie = "session=" + String(repeating: "s", count: size)
                try? connection.send("GET /cookie HTTP/1.1\r\nHost: x\r\nCookie: \(cookie)\r\n\r\n")
                let response: TestResponse
                do { response = try connection.readResponse() } catch {
                    Issue.record("a cookie of \(size) bytes got no answer: \(error)")
                    continue
                }
                seen[response.status, default: 0] += 1
                #expect([200, 431].contains(response.status), "a cookie of \(size) bytes")
                if response.status == 200 { #expect(response.text.utf8.count == size) }
            }
            #expect(seen[200, default: 0] > 100 && seen[431, default: 0] > 100, "\(seen)")
            #expect(try request(server.port, "/hello").status == 200)
        }
    }

    /// libmicrohttpd answers some requests itself before any handler call (431 here, its memory run out by
    /// header fields): each gets that answer, and is released and logged all the same (its method unknown),
    /// as is a client that leaves mid-headers. (In strict mode, libmicrohttpd gave such requests no
    /// completion; `completeUnhandled` logged them when the connection went on or closed.)
    @Test func requestsThatNeverReachAHandlerLeaveNothingBehindAndAreLogged() async throws {
        let records = Mutex<[AccessRecord]>([])
        var configuration = ServerConfiguration.testing()
        configuration.accessLog = { record in records.withLock { $0.append(record) } }
        let memory = configuration.connectionMemory
        try await withServer(configuration, routes: standardRoutes) { server in
            let fields = (0..<1_000).map { "X-\($0): v\r\n" }.joined()
            // A target of nearly half the pool is read whole, and the fields' records run the pool out.
            let target = "/" + String(repeating: "a", count: memory * 29 / 64)
            for _ in 0..<20 {
                let connection = try RawConnection(port: server.port)
                try? connection.send("GET \(target) HTTP/1.1\r\nHost: x\r\n\(fields)\r\n")
                #expect(try connection.readResponse().status == 431)
                _ = try? connection.readToClose()
            }
            do {
                let leaving = try RawConnection(port: server.port)
                try leaving.send("GET /hello HTTP/1.1\r\nHost: x\r\nX-Half: ")
                #expect(eventually { server.requestsInFlight == 1 })
            }  // closed here, mid-headers
            #expect(eventually { server.requestsInFlight == 0 }, "\(server.requestsInFlight) requests still held")
            #expect(try request(server.port, "/hello").status == 200)
            let refused = records.withLock { $0.filter { $0.target.hasPrefix("/aaaa") } }
            let summary = refused.map { "\($0.method) \($0.status.map(String.init) ?? "-") \($0.abortReason ?? "")" }
            #expect(refused.count == 20, "\(summary)")
            #expect(refused.allSatisfy { $0.method == "-" && $0.status == nil && $0.abortReason != nil }, "\(summary)")
            // The client that left mid-headers gets libmicrohttpd's own completion, its method unknown.
            let left = records.withLock { $0.filter { $0.target == "/hello" && $0.status == nil } }
            #expect(left.map(\.method) == ["-"])
            #expect(left.first?.abortReason == "client closed the connection")
        }
    }

    /// A client that leaves mid-body, its close arriving with its last bytes, is let go at once. Left to
    /// itself, libmicrohttpd 0.9.75 misses that close (a short read ends its wait for the socket under
    /// edge-triggered epoll) and holds the connection, the request and a per-IP slot until the timeout.
    @Test func aClientLeavingMidBodyIsReleasedBeforeTheTimeout() async throws {
        let log = RecordedAccess()
        var configuration = ServerConfiguration.testing()
        configuration.connectionTimeout = 120  // far past `eventually`'s 5 s
        configuration.accessLog = log.record
        try await withServer(configuration, routes: standardRoutes) { server in
            let left = try log.fiveLeaving(
                "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n{\"ti", target: "/echo", server: server)
            #expect(left.allSatisfy { $0.method == "POST" && $0.status == nil })
            #expect(left.allSatisfy { $0.abortReason == "client closed the connection" }, "\(left.map(\.abortReason))")
            // A body that arrives slowly, in parts, is still read to the end.
            let slow = try RawConnection(port: server.port)
            try slow.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 6\r\n\r\nabc")
            usleep(200_000)
            try slow.send("def")
            let answer = try slow.readResponse()
            #expect(answer.status == 200)
            #expect(answer.text == "abcdef")
        }
    }

    /// A client that leaves while its request waits on an async handler (the connection suspended, so
    /// the library watches no socket of it) costs nothing once the handler is done: the request is
    /// released and logged, and the server goes on answering.
    @Test func aClientLeavingDuringAnAsyncHandlerIsReleasedWhenItEnds() async throws {
        let log = RecordedAccess()
        var configuration = ServerConfiguration.testing(threads: 1)
        configuration.accessLog = log.record
        try await withServer(configuration, routes: standardRoutes) { server in
            let left = try log.fiveLeaving("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n", target: "/slow", server: server)
            #expect(left.allSatisfy { $0.method == "GET" })
            #expect(try request(server.port, "/hello").status == 200)
        }
    }

    /// Raw UTF-8 in a target (curl sends `?q=café` so) is read as the text it is; a byte that is not
    /// UTF-8 is refused, never repaired into something else.
    @Test func rawUTF8InATargetIsReadAndInvalidUTF8Refused() async throws {
        try await withServer(routes: standardRoutes) { server in
            let utf8 = try RawConnection(port: server.port)
            try utf8.send("GET /query?q=café HTTP/1.1\r\nHost: x\r\n\r\n")
            let read = try utf8.readResponse()
            #expect(read.status == 200)
            #expect(read.text == "q=café")
            let invalid = try RawConnection(port: server.port)
            try invalid.send(Array("GET /query?q=caf".utf8) + [0xE9] + Array(" HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            let refused = try invalid.readResponse()
            #expect(refused.status == 400)
            #expect(refused.text.contains("percent-encode"))
        }
    }

    @Test func clientThatDisconnectsMidBodyLeavesNothingBehind() async throws {
        try await withServer(routes: standardRoutes) { server in
            do {
                let connection = try RawConnection(port: server.port)
                try connection.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 500\r\n\r\npartial")
                #expect(eventually { server.requestsInFlight == 1 })
            }  // the connection closes here, mid-body
            #expect(eventually { server.requestsInFlight == 0 })
            #expect(try request(server.port, "/hello").status == 200)
        }
    }

    @Test func slowClientDoesNotHoldTheOnlyWorker() async throws {
        try await withServer(.testing(threads: 1), routes: standardRoutes) { server in
            let dripping = Atomic<Bool>(true)
            let sent = Atomic<Int>(0)
            let slow = try RawConnection(port: server.port)
            let request = Array("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
            let dripper = Thread {
                // One byte a second: it would take over half a minute to finish the request.
                for byte in request {
                    guard (try? slow.send([byte])) != nil, dripping.load(ordering: .relaxed) else { break }
                    sent.add(1, ordering: .relaxed)
                    sleep(1)
                }
            }
            dripper.start()
            defer { dripping.store(false, ordering: .relaxed) }
            try #require(eventually { sent.load(ordering: .relaxed) >= 2 })
            // While the slow request is still arriving, a normal one on the single worker is answered.
            let normal = try HTTPTestClient.request(server.port, "/items/5")
            let stillDripping = dripping.load(ordering: .relaxed)
            #expect(normal.text.contains("item 5"))
            #expect(stillDripping)
        }
    }

    @Test func twoHundredConcurrentRequestsAreAllAnsweredCorrectly() async throws {
        var configuration = ServerConfiguration.testing()
        configuration.connectionLimit = 512
        try await withServer(configuration, routes: standardRoutes) { server in
            // Open every connection first, so all 200 are in the server at once.
            let connections = try (0..<200).map { _ in try RawConnection(port: server.port, timeout: 10) }
            for (index, connection) in connections.enumerated() {
                try connection.send("GET /items/\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
            }
            for (index, connection) in connections.enumerated() {
                let response = try connection.readResponse()
                #expect(response.status == 200)
                #expect(response.text == "item \(index)")
            }
        }
    }

    @Test func perIPLimitClosesConnectionsPastIt() async throws {
        var configuration = ServerConfiguration.testing()
        configuration.perIPConnectionLimit = 4
        configuration.connectionTimeout = 60
        try await withServer(configuration, routes: standardRoutes) { server in
            // Accepted connections stay open and silent, so reading them times out after a second.
            let connections = try (0..<6).map { _ in try RawConnection(port: server.port, timeout: 1) }
            let closed = connections.filter { $0.closesConnection() }
            #expect(closed.count == 2)
        }
    }

    @Test func silentConnectionIsClosedAfterTheTimeout() async throws {
        var configuration = ServerConfiguration.testing()
        configuration.connectionTimeout = 1
        try await withServer(configuration, routes: standardRoutes) { server in
            let connection = try RawConnection(port: server.port, timeout: 5)
            try connection.send("GET /hel")
            #expect(connection.closesConnection())
        }
    }

    @Test func invalidConfigurationIsRefusedWithReasons() {
        var configuration = ServerConfiguration.testing()
        configuration.port = 70_000
        configuration.threads = 0
        let server = Server(configuration: configuration, router: RouterBuilder().freeze())
        #expect {
            try server.start()
        } throws: { error in
            let text = "\(error)"
            return text.contains("port 70000") && text.contains("threads")
        }
    }
}

/// The access records of a server under test, for the requests that leave before their answer.
private final class RecordedAccess: Sendable {
    private let records = Mutex<[AccessRecord]>([])

    /// The server's access log: keeps every record.
    var record: @Sendable (AccessRecord) -> Void { { [self] record in records.withLock { $0.append(record) } } }

    /// Five clients each send `raw` and close at once (a `RawConnection` closes when it goes); returns
    /// the records for `target` once the server has released and logged all five.
    func fiveLeaving(_ raw: String, target: String, server: Server) throws -> [AccessRecord] {
        for _ in 0..<5 { try RawConnection(port: server.port).send(raw) }
        // Within the async answer's bound: a request waiting on an async handler ends once the handler's
        // task, queued on the suite's shared cooperative pool, has run.
        let logged = { self.records.withLock { $0.filter { $0.target == target } } }
        #expect(eventually(within: asyncAnswerTimeout) { logged().count == 5 }, "\(logged().count) logged")
        // Each is logged just after it stops counting as in flight.
        #expect(server.requestsInFlight == 0, "\(server.requestsInFlight) requests still held")
        return logged()
    }
}
