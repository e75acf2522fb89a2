import Synchronization

/// libmicrohttpd's own messages, each passed on at most once per `interval`; the repeats in between
/// are counted and reported with the next one passed on.
///
/// A client can make the library say the same thing once per connection (the per-IP limit refusing a
/// flood of them, a malformed request line): a line each would let it fill the log and the disk.
final class LibraryMessages: Sendable {
    private struct Seen {
        var lastPassed: UInt64
        var suppressed: Int
    }

    private let seen = Mutex<[String: Seen]>([:])
    private let interval: UInt64
    /// Distinct messages remembered at most; past it the memory starts afresh (a message with a
    /// varying part, such as an address, must not grow it without end).
    private static let remembered = 256

    /// Passing each message at most once per `seconds`.
    init(seconds: UInt64 = 10) { interval = seconds * 1_000_000_000 }

    /// The line to log for `message` at `now` (monotonic nanoseconds), or nil to stay silent: the
    /// message, its control bytes escaped (`printable`), with how many times one like it was held back
    /// since the last was passed on. Messages that differ only in what they quote of a request count
    /// as one (`key`).
    func line(for message: String, now: UInt64) -> String? {
        let key = Self.key(message)
        return seen.withLock { seen in
            if var entry = seen[key] {
                guard now &- entry.lastPassed >= interval else {
                    entry.suppressed += 1
                    seen[key] = entry
                    return nil
                }
                seen[key] = Seen(lastPassed: now, suppressed: 0)
                guard entry.suppressed > 0 else { return Self.printable(message) }
                return "\(Self.printable(message)) (and \(entry.suppressed) more like it, not logged, since the last)"
            }
            if seen.count >= Self.remembered { seen.removeAll(keepingCapacity: true) }
            seen[key] = Seen(lastPassed: now, suppressed: 0)
            return Self.printable(message)
        }
    }

    /// `message` with its control bytes (C0 and DEL) written as `\xNN`. Some of libmicrohttpd's
    /// messages quote a request's path, percent-decoded (``Failed to send the response headers for the
    /// request for `/x'``): a `%0a` in a target would otherwise start a line of the client's own in the
    /// log, and an ESC reach a terminal reading it.
    static func printable(_ message: String) -> String { LogText.printable(message) }

    /// What repeats of `message` are counted under: the message without what it quotes from a request
    /// (libmicrohttpd writes a path between a backquote and an apostrophe, `` `/x' ``), so that requests
    /// with a different path each cannot pass the limit by being different messages.
    static func key(_ message: String) -> String {
        guard let open = message.firstIndex(of: "`"),
            let close = message[message.index(after: open)...].lastIndex(of: "'")
        else { return message }
        return String(message[...open]) + "…" + String(message[close...])
    }
}
