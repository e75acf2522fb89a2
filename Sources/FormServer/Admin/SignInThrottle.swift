import Synchronization

/// Wrong keys at the operator's sign-in, counted per client address: past `limit` in `window`, an
/// address is refused until its window ends, whatever it sends. With every wrong key answered a
/// second late besides, guessing a 256-bit key is hopeless twice over; the count is what an operator
/// watching the log sees. Kept in this process's memory: each server counts its own.
final class SignInThrottle: Sendable {
    /// Wrong keys an address may send in a window.
    let limit: Int
    /// The window, in milliseconds: it starts at an address's first wrong key.
    let window: UInt64
    /// Wrong keys since start, from every address.
    let total = Atomic<Int>(0)
    private let failures = Mutex<[String: (count: Int, since: UInt64)]>([:])
    /// The most addresses remembered: past it, the windows that ended are forgotten first.
    private static let remembered = 10_000

    init(limit: Int = 10, window: UInt64 = 15 * 60 * 1000) {
        self.limit = limit
        self.window = window
    }

    /// Counts an attempt from `address` at `now` before its key is looked up, so that attempts sent
    /// together cannot all pass: nil when it may try, with the attempts of its window so far; else the
    /// milliseconds until its window ends, counting nothing.
    func reserve(_ address: String, now: UInt64) -> (wait: UInt64?, attempts: Int) {
        failures.withLock { failures in
            var entry = failures[address].flatMap { now < $0.since + window ? $0 : nil } ?? (count: 0, since: now)
            guard entry.count < limit else { return (entry.since + window - now, entry.count) }
            if failures[address] == nil, failures.count >= Self.remembered {
                failures = failures.filter { now < $0.value.since + window }
                // Still full: the oldest windows go, so the table stays bounded whatever comes.
                if failures.count >= Self.remembered {
                    let oldest = failures.sorted { $0.value.since < $1.value.since }.prefix(Self.remembered / 2)
                    for (old, _) in oldest { failures.removeValue(forKey: old) }
                }
            }
            entry.count += 1
            failures[address] = entry
            return (nil, entry.count)
        }
    }

    /// Notes that the attempt counted was a wrong key, for the log's total.
    func failed() { total.add(1, ordering: .relaxed) }

    /// Forgets `address`'s attempts: it has signed in.
    func succeed(_ address: String) {
        _ = failures.withLock { $0.removeValue(forKey: address) }
    }
}
