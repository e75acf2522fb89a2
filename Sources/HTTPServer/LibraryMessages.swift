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
    /// message, with how many times it was held back since it was last passed on.
    func line(for message: String, now: UInt64) -> String? {
        seen.withLock { seen in
            if var entry = seen[message] {
                guard now &- entry.lastPassed >= interval else {
                    entry.suppressed += 1
                    seen[message] = entry
                    return nil
                }
                seen[message] = Seen(lastPassed: now, suppressed: 0)
                guard entry.suppressed > 0 else { return message }
                return "\(message) (and \(entry.suppressed) more like it, not logged, since the last)"
            }
            if seen.count >= Self.remembered { seen.removeAll(keepingCapacity: true) }
            seen[message] = Seen(lastPassed: now, suppressed: 0)
            return message
        }
    }
}
