import Foundation
import HTTPTestClient
import Synchronization
import Testing

@testable import HTTPServer

/// `ResponseTemplate`: responses reused across requests, each request writing its own slot into a
/// body the server owns, and adding its own field through libmicrohttpd's API.
@Suite struct ResponseTemplateTests {
    private static func template() throws -> ResponseTemplate {
        try ResponseTemplate(
            headers: ["Content-Type": "text/plain; charset=utf-8", "X-Fixed": "always"],
            prefix: Array("<".utf8), slotCount: 8, suffix: Array(">\n".utf8))
    }

    /// What the server does with a response once its request has completed: a template's goes back to
    /// its pool, if nothing else holds it.
    private static func complete(_ response: consuming Response) {
        var held: PooledResponse?
        if case .pooled(let instance) = response.source { held = instance }
        _ = consume response
        if let instance = held.take() { PooledResponse.recycle(instance) }
    }

    /// `GET /t?v=EIGHTCHR` answers `<EIGHTCHR>` from the template; an `X-Want` header's value comes
    /// back in an `X-Extra` field; a `v` of another size, or an `X-Want` libmicrohttpd refuses, is
    /// declined and answered without the template.
    private static func routes(_ template: ResponseTemplate) -> (inout RouterBuilder) -> Void {
        { routes in
            routes.get("/t") { request in
                let value = request.query.first { $0.name == "v" }?.value ?? ""
                let field = request.header("X-Want").map { (name: "X-Extra", value: "v=\($0); end") }
                return template.response(filling: value, adding: field) ?? .text(.ok, "declined")
            }
        }
    }

    @Test func eachRequestOnAConnectionGetsItsOwnSlotAndField() async throws {
        let template = try Self.template()
        try await withServer(routes: Self.routes(template)) { server in
            let connection = try RawConnection(port: server.port)
            // One connection, one request at a time: every request reuses the response the one before
            // it gave back, so a slot or field left over from it would show here.
            let steps: [(value: String, want: String?)] = [
                ("aaaaaaaa", "11111111"), ("bbbbbbbb", nil), ("cccccccc", "33333333"), ("dddddddd", "33333333"),
                ("eeeeeeee", nil), ("ffffffff", "a longer value than the last"),
            ]
            for step in steps {
                let want = step.want.map { "X-Want: \($0)\r\n" } ?? ""
                try connection.send("GET /t?v=\(step.value) HTTP/1.1\r\nHost: x\r\n\(want)\r\n")
                let response = try connection.readResponse()
                #expect(response.status == 200)
                #expect(response.text == "<\(step.value)>\n")
                #expect(response.header("X-Fixed") == "always")
                #expect(response.header("Content-Type") == "text/plain; charset=utf-8")
                #expect(
                    response.headers.filter { $0.name == "X-Extra" }.map(\.value)
                        == (step.want.map { ["v=\($0); end"] } ?? []))
            }
            // The server gave each response back once its request had completed, and the next request
            // took it again: at most one was built besides the template's first (which waits in the
            // pool of the thread that made the template), and every one built waits in a pool again.
            #expect(template.builtCount <= 2)
            #expect(eventually { template.idleCount == template.builtCount })
            try connection.send("GET /t?v=short HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try connection.readResponse().text == "declined")
        }
    }

    /// A template's response carries one `Date` field, replaced through libmicrohttpd's API when the
    /// second changes: it shows the second its request was answered in, on the same response request
    /// after request, across the seconds this test spans.
    @Test func aReusedResponseCarriesOneDateOfTheSecondItIsSentIn() async throws {
        let template = try Self.template()
        try await withServer(routes: Self.routes(template)) { server in
            let connection = try RawConnection(port: server.port)
            var shown = Set<String>()
            let end = Date().addingTimeInterval(2.5)
            while Date() < end {
                // The server's clock: `time`, which reads the kernel's coarse clock, a tick behind
                // `Date()` at times, so that a second turned by one may not have turned by the other.
                let before = Double(time(nil))
                try connection.send("GET /t?v=12345678 HTTP/1.1\r\nHost: x\r\n\r\n")
                let response = try connection.readResponse()
                let after = Double(time(nil))
                let dates = response.headers.filter { $0.name.lowercased() == "date" }.map(\.value)
                try #require(dates.count == 1, "\(response.headers)")
                let sent = try #require(Self.dateFormat.date(from: dates[0]), "\(dates[0])").timeIntervalSince1970
                #expect(before <= sent && sent <= after, "\(dates[0])")
                shown.insert(dates[0])
                Thread.sleep(forTimeInterval: 0.02)
            }
            #expect(shown.count >= 2)
            #expect(template.builtCount <= 2)
        }
    }

    /// How a `Date` field reads (RFC 9110 §5.6.7).
    static var dateFormat: DateFormatter {
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "GMT")
        format.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return format
    }

    /// A response built for one request carries one `Date` field from the per-second cache, of the
    /// second it was answered in; a handler's own `Date` is sent instead, not beside it.
    @Test func aBuiltResponseCarriesOneDateOfTheSecondItIsSentIn() async throws {
        try await withServer(routes: { routes in
            routes.get("/built") { _ in .text(.ok, "built") }
            routes.get("/dated") { _ in
                var response = Response.text(.ok, "dated")
                response.headers["Date"] = "Sun, 06 Nov 1994 08:49:37 GMT"
                return response
            }
        }) { server in
            let before = Double(time(nil))
            let built = try request(server.port, "/built")
            let after = Double(time(nil))
            let dates = built.headers.filter { $0.name.lowercased() == "date" }.map(\.value)
            try #require(dates.count == 1, "\(built.headers)")
            let sent = try #require(Self.dateFormat.date(from: dates[0]), "\(dates[0])").timeIntervalSince1970
            #expect(before <= sent && sent <= after, "\(dates[0])")
            let dated = try request(server.port, "/dated")
            #expect(
                dated.headers.filter { $0.name.lowercased() == "date" }.map(\.value) == [
                    "Sun, 06 Nov 1994 08:49:37 GMT"
                ])
        }
    }

    @Test func concurrentRequestsNeverSeeEachOthersSlot() async throws {
        let template = try Self.template()
        let mismatches = try await withServer(routes: Self.routes(template)) { server in
            let failures = Mutex(0)
            // More connections than the pool keeps idle, all at once, each checking its own answers.
            DispatchQueue.concurrentPerform(iterations: 80) { client in
                var wrong = 0
                do {
                    let connection = try RawConnection(port: server.port)
                    for round in 0..<25 {
                        let value = String(format: "%04d%04d", client, round)
                        // Every third request goes without the field: a response taken back has none.
                        let wants = (client + round) % 3 != 0
                        let want = wants ? "X-Want: \(value)\r\n" : ""
                        try connection.send("GET /t?v=\(value) HTTP/1.1\r\nHost: x\r\n\(want)\r\n")
                        let response = try connection.readResponse()
                        let fields = response.headers.filter { $0.name == "X-Extra" }.map(\.value)
                        if response.text != "<\(value)>\n" || fields != (wants ? ["v=\(value); end"] : []) {
                            wrong += 1
                        }
                    }
                } catch {
                    wrong += 1
                }
                failures.withLock { $0 += wrong }
            }
            return failures.withLock { $0 }
        }
        #expect(mismatches == 0)
    }

    @Test func headAnswersWithTheLengthAndNoBody() async throws {
        let template = try Self.template()
        try await withServer(routes: Self.routes(template)) { server in
            let connection = try RawConnection(port: server.port)
            try connection.send(
                "HEAD /t?v=12345678 HTTP/1.1\r\nHost: x\r\n\r\nGET /t?v=87654321 HTTP/1.1\r\nHost: x\r\n\r\n")
            let head = try connection.readResponse(bodyless: true)
            #expect(head.status == 200)
            #expect(head.header("Content-Length") == "11")
            #expect(try connection.readResponse().text == "<87654321>\n")
        }
    }

    @Test func aTemplateResponseReadsAndChangesLikeAnyOther() throws {
        let template = try Self.template()
        let response = try #require(template.response(filling: "12345678", adding: ("X-Extra", "v=abcdefgh; end")))
        #expect(String(decoding: response.body.bytes, as: UTF8.self) == "<12345678>\n")
        #expect(response.headers["X-Fixed"] == "always")
        #expect(response.headers["X-Extra"] == "v=abcdefgh; end")
        #expect(response.sentStatusAndCount.status == 200)
        #expect(response.sentStatusAndCount.count == 11)
        var changed = response
        changed.status = .created
        #expect(changed.status == .created)
        #expect(String(decoding: changed.body.bytes, as: UTF8.self) == "<12345678>\n")
        #expect(changed.headers["X-Extra"] == "v=abcdefgh; end")
    }

    /// A slot of the wrong size, or a field libmicrohttpd refuses (header injection), gives no
    /// response; a response that took a refused field is not pooled again.
    @Test func aWrongSlotOrARefusedFieldGivesNoResponse() throws {
        let template = try Self.template()
        #expect(template.response(filling: "1234567") == nil)
        #expect(template.response(filling: "123456789") == nil)
        #expect(template.idleCount == 1)
        for bad in ["ab\r\ncd", "abc\ndefg", "a\rb"] {
            #expect(template.response(filling: "12345678", adding: ("X-Extra", bad)) == nil)
        }
        #expect(template.response(filling: "12345678", adding: ("X Extra", "v")) == nil)
        // Each refused response was dropped: the pool is empty, and the next one is built anew.
        #expect(template.idleCount == 0)
        let next = try #require(template.response(filling: "12345678", adding: ("X-Extra", "fine")))
        #expect(next.headers["X-Extra"] == "fine")
    }

    /// A response comes back without the field its request added: the next request's response has
    /// only its own.
    @Test func aPooledResponseComesBackWithoutItsField() throws {
        let template = try Self.template()
        let first = try #require(template.response(filling: "aaaaaaaa", adding: ("X-Extra", "one")))
        Self.complete(consume first)
        #expect(template.idleCount == 1)
        let second = try #require(template.response(filling: "bbbbbbbb"))
        #expect(template.builtCount == 1)
        #expect(second.headers["X-Extra"] == nil)
        Self.complete(consume second)
        let third = try #require(template.response(filling: "cccccccc", adding: ("X-Extra", "three")))
        #expect(third.headers.values(for: "X-Extra") == ["three"])
    }

    /// A response that something still holds when its request completes is not given back: another
    /// request would rewrite its slot under the holder. It is freed when the holder lets go.
    @Test func aResponseStillHeldIsNotGivenBack() throws {
        let template = try Self.template()
        let sent = try #require(template.response(filling: "aaaaaaaa"))
        let kept = sent
        Self.complete(consume sent)
        #expect(template.idleCount == 0)
        // The next request builds its own, and the kept one still reads as it was written.
        let next = try #require(template.response(filling: "bbbbbbbb"))
        #expect(String(decoding: kept.body.bytes, as: UTF8.self) == "<aaaaaaaa>\n")
        #expect(String(decoding: next.body.bytes, as: UTF8.self) == "<bbbbbbbb>\n")
    }

    /// Responses hold their template's pools to go back to them: a template that is let go (a reloaded
    /// form's) must still be freed, with its pools and responses, whether a response was waiting in
    /// a pool or still in flight when it went.
    @Test func aTemplateLetGoIsFreedWithItsPoolsAndResponses() throws {
        weak var pools: Shards<ResponseTemplate.Idle>?
        weak var waiting: PooledResponse?
        var inFlight: Response?
        do {
            let template = try Self.template()
            pools = template.idle
            let done = try #require(template.response(filling: "aaaaaaaa"))
            let second: Response = try #require(template.response(filling: "bbbbbbbb"))
            inFlight = second
            if case .pooled(let instance) = done.source { waiting = instance }
            Self.complete(consume done)
            #expect(template.idleCount == 1)
        }
        #expect(waiting == nil)
        #expect(pools != nil)  // the response in flight still holds them
        // Its request completes after the template is gone: it is let go, not pooled, and the pools go.
        let last = try #require(inFlight)
        inFlight = nil
        Self.complete(consume last)
        #expect(pools == nil)
    }

    @Test func aFieldHTTPForbidsIsRefusedWhenTheTemplateIsMade() {
        #expect(throws: (any Error).self) {
            try ResponseTemplate(headers: ["X-Bad": "a\r\nb"], prefix: [], slotCount: 1, suffix: [])
        }
    }
}
