import Foundation
import HTTPTestClient
import Synchronization
import Testing

@testable import HTTPServer

@Suite struct ServerRoutingTests {
    @Test func routeWithParameterAnswers() async throws {
        try await withServer(routes: standardRoutes) { server in
            let response = try request(server.port, "/items/42")
            #expect(response.status == 200)
            #expect(response.text == "item 42")
            #expect(response.header("Content-Type") == "text/plain; charset=utf-8")
        }
    }

    @Test func unknownPathIs404AndWrongMethodIs405WithAllow() async throws {
        try await withServer(routes: standardRoutes) { server in
            #expect(try request(server.port, "/nowhere").status == 404)
            let response = try request(server.port, "DELETE", "/hello")
            #expect(response.status == 405)
            #expect(response.header("Allow") == "GET, HEAD, OPTIONS")
            #expect(response.text.contains("DELETE is not allowed at /hello: it takes GET, HEAD, OPTIONS"))
            // A HEAD's 405 has its GET's headers, Content-Length included (RFC 9110 §9.3.2).
            let get = try request(server.port, "GET", "/echo")
            let head = try request(server.port, "HEAD", "/echo")
            #expect(get.status == 405 && head.status == 405)
            #expect(head.header("Content-Length") == get.header("Content-Length"))
            #expect(head.header("Allow") == "POST, OPTIONS")
        }
    }

    /// A 405 names the method it refuses, cut after 40 characters: a 3,000-character method (a token, so
    /// no 400) is not echoed back whole.
    @Test func aLongMethodIsCutInTheAnswer() async throws {
        try await withServer(routes: standardRoutes) { server in
            let response = try request(server.port, String(repeating: "A", count: 3000), "/hello")
            #expect(response.status == 405)
            #expect(response.text.contains(String(repeating: "A", count: 40) + "… is not allowed at /hello"))
            #expect(response.body.count < 500, "\(response.body.count) bytes")
        }
    }

    /// OPTIONS on a path answers its methods with no content, and `OPTIONS *` the server's; the
    /// connection stays open for the next request.
    @Test func optionsAnswersWithTheMethodsTaken() async throws {
        try await withServer(routes: standardRoutes) { server in
            let connection = try RawConnection(port: server.port)
            try connection.send("OPTIONS /hello HTTP/1.1\r\nHost: x\r\n\r\nOPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n")
            let path = try connection.readResponse()
            #expect(path.status == 200)
            #expect(path.header("Allow") == "GET, HEAD, OPTIONS")
            #expect(path.header("Content-Length") == "0")
            let whole = try connection.readResponse()
            #expect(whole.status == 200)
            #expect(whole.header("Allow")?.contains("POST") == true)
            try connection.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try connection.readResponse().text == "hello")
            #expect(try request(server.port, "OPTIONS", "/nowhere").status == 404)
        }
    }

    /// A body for a path that is not there, or not for its method, is refused from the headers alone:
    /// before `100 Continue` would ask for it, and whatever its size (a 404 or 405, not a 413).
    @Test func aBodyForNoRouteIsRefusedBeforeItIsSent() async throws {
        try await withServer(routes: standardRoutes) { server in
            for (method, path, status) in [("PUT", "/hello", 405), ("POST", "/nowhere", 404)] {
                let connection = try RawConnection(port: server.port)
                try connection.send(
                    "\(method) \(path) HTTP/1.1\r\nHost: x\r\nContent-Length: 50000000\r\nExpect: 100-continue\r\n\r\n")
                let response = try connection.readResponse()
                #expect(response.status == status, "\(method) \(path)")
                #expect(response.header("Connection") == "close")
            }
            #expect(try request(server.port, "POST", "/echo", body: "still served").text == "still served")
        }
    }

    @Test func headAnswersLikeGetWithoutTheBody() async throws {
        try await withServer(routes: standardRoutes) { server in
            let connection = try RawConnection(port: server.port)
            try connection.send("HEAD /hello HTTP/1.1\r\nHost: x\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            let head = try connection.readResponse(bodyless: true)
            #expect(head.status == 200)
            #expect(head.header("Content-Length") == "5")
            // The next response on the same socket starts right away: the HEAD sent no body bytes.
            let get = try connection.readResponse()
            #expect(get.text == "hello")
        }
    }

    @Test func preparedResponseIsSentAsPreparedAndAChangedOneWithTheChange() async throws {
        let page = try PreparedResponse(Response(status: .ok, contentType: "text/plain; charset=utf-8", body: "page"))
        try await withServer(routes: { routes in
            routes.get("/as-is") { _ in Response(page) }
            routes.get("/changed") { _ in
                var response = Response(page)
                response.headers.add("X-Extra", "1")
                response.status = .created
                return response
            }
            routes.get("/new-body") { _ in
                var response = Response(page)
                response.body = ResponseBody("other")
                return response
            }
        }) { server in
            let asIs = try request(server.port, "/as-is")
            #expect(asIs.status == 200 && asIs.text == "page" && asIs.header("X-Extra") == nil)
            let changed = try request(server.port, "/changed")
            #expect(changed.status == 201 && changed.text == "page" && changed.header("X-Extra") == "1")
            #expect(changed.header("Content-Type") == "text/plain; charset=utf-8")
            let newBody = try request(server.port, "/new-body")
            #expect(newBody.status == 200 && newBody.text == "other")
            // The prepared response itself is untouched by the copies that changed.
            #expect(try request(server.port, "/as-is").text == "page")
        }
    }

    @Test func aLiteralRouteAnswersHoweverItsTargetIsWritten() async throws {
        try await withServer(routes: { routes in
            routes.get("/forms/event") { request in
                .text(.ok, "literal \(request.path) \(request.query.map { "\($0.name)=\($0.value)" })")
            }
            routes.get("/forms/{id}") { request in .text(.ok, "pattern \(request.parameters["id"] ?? "?")") }
            routes.post("/forms/event") { request in .text(.ok, "posted \(request.body.count)") }
        }) { server in
            // Found from the raw target without parsing it, and from every other spelling by routing.
            #expect(try request(server.port, "/forms/event").text == "literal /forms/event []")
            #expect(try request(server.port, "/forms/event?a=1").text == "literal /forms/event [\"a=1\"]")
            #expect(try request(server.port, "/forms/%65vent").text == "literal /forms/event []")
            #expect(try request(server.port, "/forms/event/").text == "literal /forms/event []")
            #expect(try request(server.port, "/forms/other").text == "pattern other")
            #expect(try request(server.port, "POST", "/forms/event", body: "abc").text == "posted 3")
            let head = try request(server.port, "HEAD", "/forms/event")
            #expect(head.status == 200 && head.header("Content-Length") == "\("literal /forms/event []".utf8.count)")
            let delete = try request(server.port, "DELETE", "/forms/event")
            #expect(delete.status == 405)
            #expect(delete.header("Allow") == "GET, POST, HEAD, OPTIONS")
        }
    }

    /// A handler reads the fields it asks for where libmicrohttpd keeps them, and gets what the owned
    /// `Request` gives: the first field of a name, found whatever its case; the first cookie of a
    /// name, unquoted, in whichever `Cookie` field has it. `acceptLanguage`, which the server's scan of
    /// the fields noted, is what a lookup of the field finds. The same holds for the target found from
    /// its raw bytes and for the target written another way (a query), which is parsed and routed.
    @Test func aHandlerReadsTheFieldsAsTheOwnedRequestHasThem() async throws {
        try await withServer(routes: { routes in
            routes.get("/page") { request in
                let owned = request.owned()
                let agrees =
                    request.acceptLanguage == owned.headers["Accept-Language"]
                    && request.header("accept-language") == owned.headers["Accept-Language"]
                    && request.cookie(named: "id") == owned.cookie(named: "id")
                    && request.headers == owned.headers
                let shown = "\(request.acceptLanguage ?? "-") \(request.cookie(named: "id") ?? "-")"
                return .text(.ok, "\(request.method.rawValue) \(shown)\(agrees ? "" : " (owned differs)")")
            }
        }) { server in
            let cases: [([String], String)] = [
                ([], "- -"),
                (["accept-LANGUAGE: fr-CH, fr;q=0.9", "Accept-Language: de"], "fr-CH, fr;q=0.9 -"),
                (["Cookie: a=1; id=\"x y\"; id=second"], "- x y"),
                (["Cookie: a=1", "Cookie: id=2", "Cookie: id=3"], "- 2"),
                (["Cookie: identity=1; ID=2"], "- -"),
            ]
            for (fields, expected) in cases {
                let head = fields.map { $0 + "\r\n" }.joined()
                let connection = try RawConnection(port: server.port)
                try connection.send("GET /page HTTP/1.1\r\nHost: x\r\n\(head)\r\n")
                #expect(try connection.readResponse().text == "GET \(expected)", "\(fields)")
                try connection.send("GET /page?q HTTP/1.1\r\nHost: x\r\n\(head)\r\n")
                #expect(try connection.readResponse().text == "GET \(expected)", "\(fields)")
            }
            // What the scan noted is the request's own: the next request on the connection, without
            // those fields, finds neither.
            let connection = try RawConnection(port: server.port)
            try connection.send("GET /page HTTP/1.1\r\nHost: x\r\nAccept-Language: de\r\nCookie: id=7\r\n\r\n")
            #expect(try connection.readResponse().text == "GET de 7")
            try connection.send("GET /page HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try connection.readResponse().text == "GET - -")
            let head = try request(server.port, "HEAD", "/page")
            #expect(head.status == 200 && head.header("Content-Length") == "\("HEAD - -".utf8.count)")
        }
    }

    /// A request to a route found from its raw target, refused for its header block, gets the refusal
    /// worded for its client, as any other request does: its fields are read for the refusal.
    @Test func aRefusalIsWordedForItsClient() async throws {
        var configuration = ServerConfiguration.testing()
        configuration.errorResponse = { status, message, headers in
            .text(status, "\(headers["Accept"] ?? "no Accept"): \(message)")
        }
        try await withServer(
            configuration,
            routes: { routes in
                routes.get("/page") { _ in .text(.ok, "page") }
            }
        ) { server in
            let connection = try RawConnection(port: server.port)
            try connection.send("GET /page HTTP/1.1\r\nHost: x\r\nHost: y\r\nAccept: application/json\r\n\r\n")
            let refused = try connection.readResponse()
            #expect(refused.status == 400)
            #expect(refused.text == "application/json: a request must carry one Host field (RFC 9112 §3.2)")
            let body = try request(server.port, "GET", "/page", headers: ["Accept": "text/html"], body: "abc")
            #expect(body.status == 400)
            #expect(body.text == "text/html: a GET request must not carry a body")
        }
    }

    /// A route for values finds each key's path from the raw target, with its parameter and value, and
    /// routes any other spelling of it; a key outside the values is no resource: `missing` words the
    /// 404 of its own method, and any other method gets the server's.
    @Test func aRouteForValuesAnswersEachKeyAndNoOther() async throws {
        let forms = ["event": 1, "a.b": 2]
        try await withServer(routes: { routes in
            routes.get(
                "/forms/{id}", values: forms, missing: { .text(.notFound, "no form \($0.parameters["id"] ?? "?")") }
            ) {
                request, value in
                .text(
                    .ok,
                    "form \(request.parameters["id"] ?? "?") \(value) \(request.pathSegments.joined(separator: "/"))")
            }
            routes.post("/forms/{id}", values: forms) { request, _ in .text(.ok, "posted \(request.body.count)") }
        }) { server in
            #expect(try request(server.port, "/forms/event").text == "form event 1 forms/event")
            #expect(try request(server.port, "/forms/event?x=1").text == "form event 1 forms/event")
            #expect(try request(server.port, "/forms/%65vent").text == "form event 1 forms/event")
            #expect(try request(server.port, "/forms/a.b").text == "form a.b 2 forms/a.b")
            #expect(try request(server.port, "POST", "/forms/event", body: "abc").text == "posted 3")
            #expect(try request(server.port, "/forms/other").text == "no form other")
            #expect(try request(server.port, "DELETE", "/forms/other").status == 404)
            let wrongMethod = try request(server.port, "DELETE", "/forms/event")
            #expect(wrongMethod.status == 405 && wrongMethod.header("Allow") == "GET, POST, HEAD, OPTIONS")
        }
        let router = { () -> Router in
            var routes = RouterBuilder()
            routes.get("/forms/{id}", values: forms) { _, _ in .text(.ok, "") }
            return routes.freeze()
        }()
        guard case .route(let event)? = router.exact(for: .get, rawTarget: "/forms/event") else {
            Issue.record("/forms/event is not found from its raw target")
            return
        }
        #expect(event.takeUnretainedValue().parameters == ["id": "event"])
        // `a.b` is routed by its parsed path: a `.` is no plain segment.
        #expect(router.exact(for: .get, rawTarget: "/forms/a.b") == nil)
    }

    @Test func onlyPlainSegmentsMakeLiteralRoutes() {
        #expect(RouterBuilder.isPlainSegment("event-2_b~"))
        for segment in ["", "a.json", "a b", "%41", "{id}", "é"] { #expect(!RouterBuilder.isPlainSegment(segment)) }
    }

    @Test func queryHeadersAndCookiesReachTheHandler() async throws {
        try await withServer(routes: standardRoutes) { server in
            #expect(try request(server.port, "/query?a=1&b=two+words&c=%C3%A9").text.contains("a=1;b=two words;c=é"))
            #expect(try request(server.port, "/header", headers: ["X-TEST": "Mixed"]).text.contains("Mixed"))
            let cookie = try request(server.port, "/cookie", headers: ["Cookie": "theme=dark; session=abc123"])
            #expect(cookie.text.contains("abc123"))
        }
    }

    @Test func keepAliveServesSeveralRequestsOnOneConnection() async throws {
        try await withServer(routes: standardRoutes) { server in
            let connection = try RawConnection(port: server.port)
            for id in 1...3 {
                try connection.send("GET /items/\(id) HTTP/1.1\r\nHost: x\r\n\r\n")
                let response = try connection.readResponse()
                #expect(response.text.contains("item \(id)"))
                #expect(response.header("Connection") == nil)
            }
        }
    }

    /// A connection keeps one context for all its requests: nothing of one request may reach the next.
    @Test func nothingOfOneRequestReachesTheNextOnItsConnection() async throws {
        try await withServer(routes: standardRoutes) { server in
            let connection = try RawConnection(port: server.port)
            let exchanges: [(request: String, answer: String)] = [
                ("GET /header HTTP/1.1\r\nHost: x\r\nX-Test: first\r\n\r\n", "first"),
                ("GET /header HTTP/1.1\r\nHost: x\r\n\r\n", "none"),
                ("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc", "abc"),
                ("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n", ""),
                ("GET /query?a=1 HTTP/1.1\r\nHost: x\r\n\r\n", "a=1"),
                ("GET /query HTTP/1.1\r\nHost: x\r\n\r\n", ""),
                ("GET /items/7 HTTP/1.1\r\nHost: x\r\n\r\n", "item 7"),
                ("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n", "hello"),
                ("GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n", "no resource at /nowhere"),
                ("GET /cookie HTTP/1.1\r\nHost: x\r\nCookie: session=s1\r\n\r\n", "s1"),
                ("GET /cookie HTTP/1.1\r\nHost: x\r\n\r\n", "none"),
            ]
            for (request, answer) in exchanges {
                try connection.send(request)
                let response = try connection.readResponse()
                #expect(answer.hasPrefix("no resource") ? response.text.contains(answer) : response.text == answer)
            }
        }
    }

    @Test func pipelinedRequestsAreAllAnsweredInOrder() async throws {
        try await withServer(routes: standardRoutes) { server in
            let connection = try RawConnection(port: server.port, timeout: asyncAnswerTimeout)
            let body = "abc"
            try connection.send(
                "GET /items/1 HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\n\(body)"
                    + "GET /slow HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /items/2 HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try connection.readResponse().text.contains("item 1"))
            #expect(try connection.readResponse().text == body)
            #expect(try connection.readResponse().text.contains("slow done"))
            #expect(try connection.readResponse().text.contains("item 2"))
        }
    }

    @Test func postBodyArrivesWhole() async throws {
        try await withServer(.testing(maxBody: 100_000), routes: standardRoutes) { server in
            let payload = String(repeating: "0123456789", count: 5_000)
            let response = try request(server.port, "POST", "/echo", body: payload)
            #expect(response.status == 200)
            #expect(response.text == payload)
        }
    }

    @Test func chunkedBodyWithinTheLimitArrivesWhole() async throws {
        try await withServer(routes: standardRoutes) { server in
            let connection = try RawConnection(port: server.port)
            try connection.send(
                "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n"
            )
            #expect(try connection.readResponse().text == "hello world")
        }
    }

    @Test func asyncHandlerAnswersFromATask() async throws {
        try await withServer(.testing(threads: 1), routes: standardRoutes) { server in
            // With one worker, a suspended request must not hold the thread: /hello is answered meanwhile.
            let slow = try RawConnection(port: server.port, timeout: asyncAnswerTimeout)
            try slow.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try request(server.port, "/hello").status == 200)
            #expect(try slow.readResponse().text.contains("slow done"))
        }
    }

    @Test func aLaterResponseIsComputedByATaskWithoutHoldingTheThread() async throws {
        let released = Mutex(false)
        try await withServer(
            .testing(threads: 1),
            routes: { routes in
                routes.get("/hello") { _ in .text(.ok, "hello") }
                routes.get("/later") { request in
                    let name = request.query.first { $0.name == "name" }?.value ?? "?"
                    return .later {
                        // Waits until the test has been answered on another connection: with one worker,
                        // that can only happen if this wait holds no server thread.
                        for _ in 0..<3000 where !released.withLock({ $0 }) {
                            try? await Task.sleep(for: .milliseconds(10))
                        }
                        return .text(.created, "later \(name) \(released.withLock { $0 })")
                    }
                }
            }
        ) { server in
            let slow = try RawConnection(port: server.port, timeout: asyncAnswerTimeout)
            try slow.send("GET /later?name=x HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try request(server.port, "/hello").text == "hello")
            released.withLock { $0 = true }
            let answer = try slow.readResponse()
            #expect(answer.status == 201)
            #expect(answer.text == "later x true")
        }
    }

    @Test func responseHeaderWithLineBreakIsNeverSent() async throws {
        try await withServer(routes: { routes in
            routes.get("/inject") { _ in
                Response(status: .ok, headers: ["X-Bad": "a\r\nSet-Cookie: evil=1"], body: ResponseBody("x"))
            }
        }) { server in
            let response = try request(server.port, "/inject")
            #expect(response.status == 500)
            #expect(response.header("Set-Cookie") == nil)
        }
    }

    @Test func accessRecordDescribesEachRequest() async throws {
        let records = RecordBox()
        var configuration = ServerConfiguration.testing()
        configuration.accessLog = { records.append($0) }
        try await withServer(configuration, routes: standardRoutes) { server in
            _ = try request(server.port, "/items/9?x=1")
            #expect(eventually { records.count == 1 })
            let record = try #require(records.first)
            #expect(record.method == "GET")
            #expect(record.target == "/items/9?x=1")
            #expect(record.status == 200)
            #expect(record.bytes == 6)
            #expect(record.remoteAddress?.ip == "127.0.0.1")
        }
    }
}

/// Collects access records from server threads.
final class RecordBox: @unchecked Sendable {
    private let lock = NSLock()
    private var records: [AccessRecord] = []
    func append(_ record: AccessRecord) { lock.withLock { records.append(record) } }
    var count: Int { lock.withLock { records.count } }
    var first: AccessRecord? { lock.withLock { records.first } }
}
