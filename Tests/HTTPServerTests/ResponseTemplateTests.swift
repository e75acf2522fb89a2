import Foundation
import HTTPTestClient
import Synchronization
import Testing

@testable import HTTPServer

/// `ResponseTemplate`: responses reused across requests, each with its own slot and extra field.
@Suite struct ResponseTemplateTests {
    private static func template() throws -> ResponseTemplate {
        try ResponseTemplate(
            headers: ["Content-Type": "text/plain; charset=utf-8", "X-Fixed": "always"],
            prefix: Array("<".utf8), slotCount: 8, suffix: Array(">\n".utf8))
    }

    /// `GET /t?v=EIGHTCHR` answers `<EIGHTCHR>` from the template; an `X-Want` header's value comes
    /// back as `X-Extra`; a `v` of another size is declined and answered without the template.
    private static func routes(_ template: ResponseTemplate) -> (inout RouterBuilder) -> Void {
        { routes in
            routes.get("/t") { request in
                let value = Array((request.query.first { $0.name == "v" }?.value ?? "").utf8)
                let field = request.headers["X-Want"].map { (name: "X-Extra", value: $0) }
                let response = template.response(adding: field) { slot in
                    guard value.count == slot.count else { return false }
                    value.withUnsafeBytes { slot.copyMemory(from: $0) }
                    return true
                }
                return response ?? .text(.ok, "declined")
            }
        }
    }

    @Test func eachRequestOnAConnectionGetsItsOwnSlotAndField() async throws {
        let template = try Self.template()
        try await withServer(routes: Self.routes(template)) { server in
            let connection = try RawConnection(port: server.port)
            // One connection, one request at a time: every request reuses the response the one before
            // it gave back, so a slot or field left over from it would show here. "fiver" replaces
            // "three" in place (same length); "four" replaces it by a new field.
            let steps: [(value: String, want: String?)] = [
                ("aaaaaaaa", "one"), ("bbbbbbbb", nil), ("cccccccc", "three"), ("dddddddd", "three"),
                ("ffffffff", "fiver"), ("gggggggg", "four"), ("eeeeeeee", nil),
            ]
            for step in steps {
                let want = step.want.map { "X-Want: \($0)\r\n" } ?? ""
                try connection.send("GET /t?v=\(step.value) HTTP/1.1\r\nHost: x\r\n\(want)\r\n")
                let response = try connection.readResponse()
                #expect(response.status == 200)
                #expect(response.text == "<\(step.value)>\n")
                #expect(response.header("X-Fixed") == "always")
                #expect(response.header("Content-Type") == "text/plain; charset=utf-8")
                #expect(response.header("X-Extra") == step.want)
            }
            try connection.send("GET /t?v=short HTTP/1.1\r\nHost: x\r\n\r\n")
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
                        try connection.send("GET /t?v=\(value) HTTP/1.1\r\nHost: x\r\nX-Want: \(value)\r\n\r\n")
                        let response = try connection.readResponse()
                        if response.text != "<\(value)>\n" || response.header("X-Extra") != value { wrong += 1 }
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
        let made = template.response(adding: (name: "Set-Cookie", value: "a=1")) { slot in
            slot.copyBytes(from: Array("12345678".utf8))
            return true
        }
        let response = try #require(made)
        #expect(String(decoding: response.body.bytes, as: UTF8.self) == "<12345678>\n")
        #expect(response.headers["X-Fixed"] == "always")
        #expect(response.headers["Set-Cookie"] == "a=1")
        #expect(response.sentStatusAndCount.status == 200)
        #expect(response.sentStatusAndCount.count == 11)
        var changed = response
        changed.status = .created
        #expect(changed.status == .created)
        #expect(String(decoding: changed.body.bytes, as: UTF8.self) == "<12345678>\n")
        #expect(changed.headers["Set-Cookie"] == "a=1")
    }

    @Test func aDeclinedFillOrAnInjectedFieldGivesNoResponse() throws {
        let template = try Self.template()
        #expect(template.response { _ in false } == nil)
        let injected = template.response(adding: (name: "X-Extra", value: "a\r\nSet-Cookie: evil=1")) { _ in true }
        #expect(injected == nil)
        // The template still answers afterwards, without the refused field.
        let next = try #require(template.response { _ in true })
        #expect(next.headers["X-Extra"] == nil)
    }

    /// A value of the same length as the one before is written over it in place: it must be checked
    /// as libmicrohttpd checks a new field, and a refused one must leave nothing behind.
    @Test func aSameLengthValueIsCheckedBeforeItReplacesTheOldOne() throws {
        let template = try Self.template()
        do {
            let first = try #require(template.response(adding: (name: "X-Extra", value: "abcdefgh")) { _ in true })
            #expect(first.headers["X-Extra"] == "abcdefgh")
        }
        do {
            // The response went back to the pool; this request takes it again and changes the value in place.
            let second = try #require(template.response(adding: (name: "X-Extra", value: "12345678")) { _ in true })
            #expect(second.headers["X-Extra"] == "12345678")
        }
        for bad in ["ab\r\ncdef", "abc\ndefg", "abc\u{0}defg"] {
            #expect(template.response(adding: (name: "X-Extra", value: bad)) { _ in true } == nil)
        }
        let other = try #require(template.response(adding: (name: "X-Extra", value: "zz")) { _ in true })
        #expect(other.headers["X-Extra"] == "zz")
    }

    @Test func aFieldHTTPForbidsIsRefusedWhenTheTemplateIsMade() {
        #expect(throws: (any Error).self) {
            try ResponseTemplate(headers: ["X-Bad": "a\r\nb"], prefix: [], slotCount: 1, suffix: [])
        }
    }
}
