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
}
