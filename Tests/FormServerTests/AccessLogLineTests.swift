import HTTPServer
import Testing

@testable import FormServer

/// A submission's id, as an edit link starts.
private let id = "01M8GZ47TZDW2H1X8B2PGQE0G3"

@Suite struct AccessLogLineTests {
    @Test func lineNamesMethodTargetStatusBytesDurationAndPeer() {
        let record = AccessRecord(
            method: "GET", target: "/forms/event?x=1", status: 200, bytes: 6144, duration: .microseconds(420),
            remoteAddress: nil, abortReason: nil)
        #expect(AccessLogLine(record).description == "GET /forms/event?x=1 200 6144B 0.42ms")
    }

    /// An edit link's signature would let anyone who reads the log see and change a submission: it is
    /// cut, wherever the parameter stands in the query and however it is percent-encoded (as the server
    /// decodes it); the submission's id stays, to trace a request by.
    @Test(arguments: [
        ("/forms/r?edit=\(id).s3cr3t", "/forms/r?edit=\(id)…"),
        ("/forms/r/thanks?ref=\(id)&edit=\(id).s3cr3t&x=1", "/forms/r/thanks?ref=\(id)&edit=\(id)…&x=1"),
        ("/forms/r?edit=\(id)%2Es3cr3t", "/forms/r?edit=\(id)…"),
        ("/forms/r?%65dit=\(id).s3cr3t", "/forms/r?%65dit=\(id)…"),
        ("/forms/r?edit=\(id).s3cr3t&edit=\(id).s3cr3t", "/forms/r?edit=\(id)…&edit=\(id)…"),
        ("/forms/r?edit=short", "/forms/r?edit=short"),
        ("/forms/r?credit=\(id).5", "/forms/r?credit=\(id).5"),
        ("/forms/r", "/forms/r"),
    ])
    func editLinkSignaturesAreCut(target: String, logged: String) {
        let record = AccessRecord(
            method: "GET", target: target, status: 200, bytes: 1, duration: .microseconds(420), remoteAddress: nil,
            abortReason: nil)
        #expect(AccessLogLine(record).description == "GET \(logged) 200 1B 0.42ms")
        #expect(!AccessLogLine(record).description.contains("s3cr3t"))
    }

    @Test func abortedRequestSaysWhy() {
        let record = AccessRecord(
            method: "POST", target: "/forms/event", status: nil, bytes: 0, duration: .milliseconds(1500),
            remoteAddress: nil, abortReason: "client closed the connection")
        #expect(AccessLogLine(record).description == "POST /forms/event - 0B 1500.00ms (client closed the connection)")
    }

    /// The bytes the access log writes straight to its sink are the description's, escapes and cut included.
    @Test func bytesAreTheDescriptions() {
        let target = "/x\nGET " + String(repeating: "a", count: 600)
        let record = AccessRecord(
            method: "POST", target: target, status: 422, bytes: 31, duration: .microseconds(1234),
            remoteAddress: nil, abortReason: "timed out")
        let line = AccessLogLine(record)
        #expect(line.withBytes { String(decoding: $0, as: UTF8.self) } == line.description)
        #expect(line.description.hasSuffix("… 422 31B 1.23ms (timed out)"))
    }

    @Test func controlCharactersCannotForgeLogLines() {
        #expect(AccessLogLine.printable("/x\nGET /admin 200") == "/x\\x0aGET /admin 200")
        #expect(AccessLogLine.printable("/a\u{1b}[31m") == "/a\\x1b[31m")
    }

    /// A method that is no token is refused with a 400 and logged all the same: escaped and cut like a
    /// target, so it reaches no terminal as an escape sequence and makes no line huge.
    @Test func methodsAreEscapedAndCut() {
        let escaped = AccessRecord(
            method: "G\u{1b}[31mE\u{7f}T", target: "/hello", status: 400, bytes: 101, duration: .microseconds(120),
            remoteAddress: nil, abortReason: nil)
        #expect(AccessLogLine(escaped).description == "G\\x1b[31mE\\x7fT /hello 400 101B 0.12ms")
        let long = AccessRecord(
            method: String(repeating: "A", count: 3000), target: "/forms/event", status: 405, bytes: 120,
            duration: .microseconds(50), remoteAddress: nil, abortReason: nil)
        let line = AccessLogLine(long)
        #expect(line.description == String(repeating: "A", count: 40) + "… /forms/event 405 120B 0.05ms")
        #expect(line.withBytes { String(decoding: $0, as: UTF8.self) } == line.description)
    }

    @Test(arguments: [
        (Duration.nanoseconds(0), "0.00ms"), (.microseconds(5), "0.00ms"), (.microseconds(12_345), "12.34ms"),
    ])
    func millisecondsHaveTwoDecimals(duration: Duration, text: String) {
        #expect(AccessLogLine.milliseconds(duration) == text)
    }
}

@Suite struct AccessLogLineLimitTests {
    /// A long target is cut after 512 bytes, never inside a UTF-8 sequence, and marked with `…`.
    @Test func longTargetsAreCutOnACharacterBoundary() {
        let target = "/" + String(repeating: "a", count: 510) + "é" + String(repeating: "b", count: 100)
        let line = AccessLogLine.printable(target)
        #expect(line == "/" + String(repeating: "a", count: 510) + "é…")
        #expect(AccessLogLine.printable("/short") == "/short")
    }

    @Test func statusAndSizesAreWrittenInFull() {
        let record = AccessRecord(
            method: "GET", target: "/", status: 404, bytes: 1_234_567, duration: .seconds(12),
            remoteAddress: nil, abortReason: nil)
        #expect(AccessLogLine(record).description == "GET / 404 1234567B 12000.00ms")
    }
}
