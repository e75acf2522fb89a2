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
            try connection.send("GET /t?v=short HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try connection.readResponse().text == "declined")
            try connection.send("GET /t?v=aaaaaaaa HTTP/1.1\r\nHost: x\r\nX-Want: short\r\n\r\n")
            #expect(try connection.readResponse().text == "declined")
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

    /// A field's slot is written where libmicrohttpd keeps the value: what is written there must be
    /// checked as libmicrohttpd checks a new field, and a response that took refused bytes must not
    /// go back to the pool.
    @Test func aLineBreakOrNULInTheFieldSlotIsRefused() throws {
        let template = try Self.template()
        #expect(template.idleCounts == (0, 1))  // the first response, built with the field
        do {
            let first = try #require(template.response(fillingField: Self.write("abcdefgh")) { _ in true })
            #expect(first.headers["X-Extra"] == "v=abcdefgh; end")
            #expect(template.idleCounts == (0, 0))
        }
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
        do {
            // Without the field, from the one response there is, which has it: the field is removed.
            let without = try #require(template.response(fill: Self.write("aaaaaaaa")))
            #expect(without.headers["X-Extra"] == nil)
            // Another one, with the field, while the first is held: built anew.
            let with = try #require(
                template.response(fillingField: Self.write("11111111"), fill: Self.write("bbbbbbbb")))
            #expect(with.headers["X-Extra"] == "v=11111111; end")
        }
        #expect(template.idleCounts == (1, 1))
        // Each shape now finds its own: neither list is taken from the other.
        do {
            let without = try #require(template.response(fill: Self.write("cccccccc")))
            #expect(template.idleCounts == (0, 1))
            #expect(without.headers["X-Extra"] == nil)
        }
        do {
            let with = try #require(
                template.response(fillingField: Self.write("22222222"), fill: Self.write("dddddddd")))
            #expect(template.idleCounts == (1, 0))
            #expect(with.headers["X-Extra"] == "v=22222222; end")
        }
        #expect(template.idleCounts == (1, 1))
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
