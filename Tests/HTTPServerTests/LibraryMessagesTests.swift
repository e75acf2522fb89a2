import Testing

@testable import HTTPServer

/// libmicrohttpd's messages are rate-limited, so a client cannot fill the log by repeating a refusal.
@Suite struct LibraryMessagesTests {
    static let second: UInt64 = 1_000_000_000

    @Test func aRepeatedMessageIsPassedOncePerIntervalWithTheCountHeldBack() {
        let messages = LibraryMessages(seconds: 10)
        let refused = "Server reached per-IP connection limit."
        #expect(messages.line(for: refused, now: 0) == refused)
        for tenth in 1...99 { #expect(messages.line(for: refused, now: UInt64(tenth) * Self.second / 10) == nil) }
        #expect(
            messages.line(for: refused, now: 10 * Self.second)
                == "\(refused) (and 99 more like it, not logged, since the last)")
        // Quiet since: passed as it is.
        #expect(messages.line(for: refused, now: 30 * Self.second) == refused)
    }

    @Test func differentMessagesAreEachPassed() {
        let messages = LibraryMessages(seconds: 10)
        #expect(messages.line(for: "a", now: 0) == "a")
        #expect(messages.line(for: "b", now: 1) == "b")
        #expect(messages.line(for: "a", now: 2) == nil)
    }

    @Test func messagesWithAVaryingPartDoNotGrowItsMemoryWithoutEnd() {
        let messages = LibraryMessages(seconds: 10)
        for index in 0..<10_000 { #expect(messages.line(for: "refused 10.0.\(index)", now: 5) != nil) }
        // The memory started afresh on the way: an early message is new to it again.
        #expect(messages.line(for: "refused 10.0.0", now: 6) == "refused 10.0.0")
    }

    /// libmicrohttpd quotes a request's path, percent-decoded, in some messages: a client must not put a
    /// line of its own (`%0a`), or an escape sequence (`%1b`), into the log through one.
    @Test func controlBytesInAMessageAreEscaped() {
        let messages = LibraryMessages(seconds: 10)
        let forged =
            "Failed to send the response headers for the request for `/forms/x\n2026-11-23T00:00:00Z critical "
            + "formwright: FORGED\u{1b}[31m\r\u{7f}'. Error: The connection was forcibly closed by remote peer"
        #expect(
            messages.line(for: forged, now: 0)
                == "Failed to send the response headers for the request for `/forms/x\\x0a2026-11-23T00:00:00Z "
                + "critical formwright: FORGED\\x1b[31m\\x0d\\x7f'. Error: The connection was forcibly closed by "
                + "remote peer")
        #expect(LibraryMessages.printable("plain `/é' text") == "plain `/é' text")
    }

    /// Messages that differ only in the path they quote count as one, or a client sending each request
    /// to a new path would pass every one of them on.
    @Test func messagesQuotingDifferentPathsAreCountedAsOne() {
        let messages = LibraryMessages(seconds: 10)
        func failed(_ path: String) -> String {
            "Failed to send the response headers for the request for `\(path)'. Error: Broken pipe"
        }
        #expect(messages.line(for: failed("/a"), now: 0) == failed("/a"))
        for index in 0..<50 { #expect(messages.line(for: failed("/b\(index)"), now: Self.second) == nil) }
        #expect(
            messages.line(for: failed("/c"), now: 10 * Self.second)
                == failed("/c") + " (and 50 more like it, not logged, since the last)")
        // A message without a quoted path is its own key.
        #expect(LibraryMessages.key("Server reached connection limit.") == "Server reached connection limit.")
    }
}
