import Foundation
import HTTPTestClient
import Synchronization
import Testing

@testable import HTTPServer

/// `ResponseTemplate`: responses reused across requests, each with its own slot and field slot.
@Suite struct ResponseTemplateTests {
    private static func template() throws -> ResponseTemplate {
        try ResponseTemplate(
            headers: ["Content-Type": "text/plain; charset=utf-8", "X-Fixed": "always"],
            prefix: Array("<".utf8), slotCount: 8, suffix: Array(">\n".utf8),
            field: FieldTemplate(name: "X-Extra", prefix: "v=", slotCount: 8, suffix: "; end"))
    }

    /// What the server does with a response once its request has completed: a template's goes back to
    /// its pool, if nothing else holds it.
    private static func complete(_ response: consuming Response) {
        var held: ReusableResponse?
        if case .reusable(let instance) = response.source { held = instance }
        _ = consume response
        if let instance = held.take() { ReusableResponse.recycle(instance) }
    }

    /// Writes `value` into `slot` when it fits exactly; declines otherwise.
    private static func write(_ value: String) -> (UnsafeMutableRawBufferPointer) -> Bool {
        { slot in
            let bytes = Array(value.utf8)
            guard bytes.count == slot.count else { return false }
            bytes.withUnsafeBytes { slot.copyMemory(from: $0) }
            return true
        }
    }

    /// `GET /t?v=EIGHTCHR` answers `<EIGHTCHR>` from the template; an `X-Want` header's value comes
    /// back in the `X-Extra` field's slot; a `v` or `X-Want` of another size is declined and answered
    /// without the template.
    private static func routes(_ template: ResponseTemplate) -> (inout RouterBuilder) -> Void {
        { routes in
            routes.get("/t") { request in
                let value = request.query.first { $0.name == "v" }?.value ?? ""
                let answer =
                    if let want = request.headers["X-Want"] {
                        template.response(fillingField: Self.write(want), fill: Self.write(value))
                    } else {
                        template.response(fill: Self.write(value))
                    }
                return answer ?? .text(.ok, "declined")
            }
        }
    }

    @Test func eachRequestOnAConnectionGetsItsOwnSlotAndField() async throws {
        let template = try Self.template()
        try await withServer(routes: Self.routes(template)) { server in
            let connection = try RawConnection(port: server.port)
            // One connection, one request at a time: every request reuses the response the one before
            // it gave back, so a slot or field left over from it would show here: the field is taken
            // away, given back, rewritten in place.
            let steps: [(value: String, want: String?)] = [
                ("aaaaaaaa", "11111111"), ("bbbbbbbb", nil), ("cccccccc", "33333333"), ("dddddddd", "33333333"),
                ("ffffffff", "55555555"), ("gggggggg", "66666666"), ("eeeeeeee", nil), ("hhhhhhhh", "88888888"),
            ]
            for step in steps {
                let want = step.want.map { "X-Want: \($0)\r\n" } ?? ""
                try connection.send("GET /t?v=\(step.value) HTTP/1.1\r\nHost: x\r\n\(want)\r\n")
                let response = try connection.readResponse()
                #expect(response.status == 200)
                #expect(response.text == "<\(step.value)>\n")
                #expect(response.header("X-Fixed") == "always")
                #expect(response.header("Content-Type") == "text/plain; charset=utf-8")
                #expect(response.header("X-Extra") == step.want.map { "v=\($0); end" })
            }
            // The server gave each response back once its request had completed, and the next request
            // took it again: at most one was built besides the template's first (which waits in the
            // pool of the thread that made the template), and every one built waits in a pool again.
            #expect(template.builtCount <= 2)
            #expect(eventually { template.idleCounts.withField == template.builtCount })
            #expect(template.idleCounts.plain == 0)
            try connection.send("GET /t?v=short HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try connection.readResponse().text == "declined")
            try connection.send("GET /t?v=aaaaaaaa HTTP/1.1\r\nHost: x\r\nX-Want: short\r\n\r\n")
            #expect(try connection.readResponse().text == "declined")
        }
    }

    /// A template's response carries one `Date` field, its own, which libmicrohttpd sends instead of
    /// making one: rewritten in place, it shows the second its request was answered in, on the same
    /// response request after request (one connection gives back and takes again the same one) across
    /// the seconds this test spans.
    @Test func aReusedResponseCarriesOneDateOfTheSecondItIsSentIn() async throws {
        let template = try Self.template()
        try await withServer(routes: Self.routes(template)) { server in
            let connection = try RawConnection(port: server.port)
            let format = DateFormatter()
            format.locale = Locale(identifier: "en_US_POSIX")
            format.timeZone = TimeZone(identifier: "GMT")
            format.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
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
                let sent = try #require(format.date(from: dates[0]), "\(dates[0])").timeIntervalSince1970
                #expect(before <= sent && sent <= after, "\(dates[0])")
                shown.insert(dates[0])
                Thread.sleep(forTimeInterval: 0.02)
            }
            #expect(shown.count >= 2)
            #expect(template.builtCount <= 2)
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
                        // Every third request goes without the field: responses change shape across threads.
                        let wants = (client + round) % 3 != 0
                        let want = wants ? "X-Want: \(value)\r\n" : ""
                        try connection.send("GET /t?v=\(value) HTTP/1.1\r\nHost: x\r\n\(want)\r\n")
                        let response = try connection.readResponse()
                        let field = wants ? "v=\(value); end" : nil
                        if response.text != "<\(value)>\n" || response.header("X-Extra") != field { wrong += 1 }
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
        let response = try #require(
            template.response(fillingField: Self.write("abcdefgh"), fill: Self.write("12345678")))
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

    @Test func aDeclinedFillGivesNoResponse() throws {
        let template = try Self.template()
        #expect(template.response { _ in false } == nil)
        #expect(template.response(fillingField: { _ in false }) { _ in true } == nil)
        // The template still answers afterwards, without the declined field.
        let next = try #require(template.response { _ in true })
        #expect(next.headers["X-Extra"] == nil)
    }

    /// `take(withField:)` hands out the slots to write in place; what is written is what is sent, and a
    /// response taken but never made into one is dropped, not pooled. (A taken response cannot be
    /// copied, so it is unwrapped with `guard`, not `#require`.)
    @Test func aTakenResponseIsSentAsWrittenOrDropped() throws {
        let template = try Self.template()
        guard let filling = template.take(withField: true), let field = filling.fieldSlot else {
            Issue.record("a template with a field gave no response with it")
            return
        }
        #expect(filling.slot.count == 8 && field.count == 8)
        _ = Self.write("nonce-12")(field)
        _ = Self.write("token-34")(filling.slot)
        // Bound by `guard`, not `#require`: a second holder would keep the response from its pool.
        guard let sent = filling.response() else {
            Issue.record("a response with a written slot and field was refused")
            return
        }
        #expect(String(decoding: sent.body.bytes, as: UTF8.self) == "<token-34>\n")
        #expect(sent.headers["X-Extra"] == "v=nonce-12; end")
        Self.complete(consume sent)
        #expect(template.idleCounts == (0, 1))
        // Taken, then let go without a response: its slots may be half-written, so it does not go back.
        guard let abandoned = template.take(withField: false) else {
            Issue.record("the template gave no response without its field")
            return
        }
        #expect(abandoned.fieldSlot == nil)
        _ = consume abandoned
        #expect(template.idleCounts == (0, 0))
        let built = template.builtCount
        let taken = template.take(withField: true)?.response()
        let next = try #require(taken)
        #expect(template.builtCount == built + 1)
        #expect(next.headers["X-Extra"] == "v=        ; end")
        // A field slot holding a line break is refused when the response is made.
        guard let broken = template.take(withField: true), let slot = broken.fieldSlot else {
            Issue.record("the template gave no response with its field")
            return
        }
        _ = Self.write("ab\r\ncdef")(slot)
        let refused = broken.response()
        #expect(refused == nil)
    }

    /// A template without a field has none to give.
    @Test func aTemplateWithoutAFieldTakesNoneWithIt() throws {
        let template = try ResponseTemplate(
            headers: ["Content-Type": "text/plain"], prefix: [], slotCount: 4, suffix: [])
        let withField = template.take(withField: true)?.response()
        #expect(withField == nil)
        let without = template.take(withField: false)?.response()
        let plain = try #require(without)
        #expect(plain.headers["Content-Type"] == "text/plain")
    }

    /// A field's slot is written where libmicrohttpd keeps the value: what is written there must be
    /// checked as libmicrohttpd checks a new field, and a response that took refused bytes must not
    /// go back to the pool.
    @Test func aLineBreakOrNULInTheFieldSlotIsRefused() throws {
        let template = try Self.template()
        #expect(template.idleCounts == (0, 1))  // the first response, built with the field
        let first = try #require(template.response(fillingField: Self.write("abcdefgh")) { _ in true })
        #expect(first.headers["X-Extra"] == "v=abcdefgh; end")
        #expect(template.idleCounts == (0, 0))
        Self.complete(consume first)
        #expect(template.idleCounts == (0, 1))
        for bad in ["ab\r\ncdef", "abc\ndefg", "abc\u{0}defg", "abcdefg\r"] {
            #expect(template.response(fillingField: Self.write(bad)) { _ in true } == nil)
        }
        // Each refused response was dropped: the pool is empty, and the next one is built anew.
        #expect(template.idleCounts == (0, 0))
        let next = try #require(template.response(fillingField: Self.write("12345678")) { _ in true })
        #expect(next.headers["X-Extra"] == "v=12345678; end")
    }

    /// Responses with the field and without it wait apart; a request takes one of its own shape, and
    /// changes one of the other shape only when none of its own waits.
    @Test func responsesWithAndWithoutTheFieldArePooledApart() throws {
        let template = try Self.template()
        // Without the field, from the one response there is, which has it: the field is removed.
        let without = try #require(template.response(fill: Self.write("aaaaaaaa")))
        #expect(without.headers["X-Extra"] == nil)
        // Another one, with the field, while the first is held: built anew.
        let with = try #require(
            template.response(fillingField: Self.write("11111111"), fill: Self.write("bbbbbbbb")))
        #expect(with.headers["X-Extra"] == "v=11111111; end")
        Self.complete(consume without)
        Self.complete(consume with)
        #expect(template.idleCounts == (1, 1))
        // Each shape now finds its own: neither list is taken from the other.
        let second = try #require(template.response(fill: Self.write("cccccccc")))
        #expect(template.idleCounts == (0, 1))
        #expect(second.headers["X-Extra"] == nil)
        Self.complete(consume second)
        let third = try #require(
            template.response(fillingField: Self.write("22222222"), fill: Self.write("dddddddd")))
        #expect(template.idleCounts == (1, 0))
        #expect(third.headers["X-Extra"] == "v=22222222; end")
        Self.complete(consume third)
        #expect(template.idleCounts == (1, 1))
    }

    /// A response that something still holds when its request completes is not given back: another
    /// request would rewrite its slot under the holder. It is freed when the holder lets go.
    @Test func aResponseStillHeldIsNotGivenBack() throws {
        let template = try Self.template()
        let sent = try #require(template.response(fill: Self.write("aaaaaaaa")))
        let kept = sent
        Self.complete(consume sent)
        #expect(template.idleCounts == (0, 0))
        // The next request builds its own, and the kept one still reads as it was written.
        let next = try #require(template.response(fill: Self.write("bbbbbbbb")))
        #expect(String(decoding: kept.body.bytes, as: UTF8.self) == "<aaaaaaaa>\n")
        #expect(String(decoding: next.body.bytes, as: UTF8.self) == "<bbbbbbbb>\n")
    }

    /// Responses hold their template's pools to go back to them: a template that is let go (a reloaded
    /// form's) must still be freed, with its pools and responses, whether a response was waiting in
    /// a pool or still in flight when it went.
    @Test func aTemplateLetGoIsFreedWithItsPoolsAndResponses() throws {
        weak var pools: Shards<ResponseTemplate.Idle>?
        weak var waiting: ReusableResponse?
        var inFlight: Response?
        do {
            let template = try Self.template()
            pools = template.idle
            let done = try #require(template.response(fill: Self.write("aaaaaaaa")))
            let second: Response = try #require(template.response(fill: Self.write("bbbbbbbb")))
            inFlight = second
            if case .reusable(let instance) = done.source { waiting = instance }
            Self.complete(consume done)
            #expect(template.idleCounts == (1, 0))
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
        for field in [
            FieldTemplate(name: "X-Extra", prefix: "a\r\nb=", slotCount: 1, suffix: ""),
            FieldTemplate(name: "X-Extra", prefix: "", slotCount: 1, suffix: "\n"),
            FieldTemplate(name: "X Extra", prefix: "", slotCount: 1, suffix: ""),
            // A fixed field of the same name would be the one libmicrohttpd finds.
            FieldTemplate(name: "X-Fixed", prefix: "", slotCount: 1, suffix: ""),
        ] {
            #expect(throws: (any Error).self) {
                try ResponseTemplate(headers: ["X-Fixed": "always"], prefix: [], slotCount: 1, suffix: [], field: field)
            }
        }
    }
}
