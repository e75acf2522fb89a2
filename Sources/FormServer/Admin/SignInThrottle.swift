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

    /// The milliseconds until `address` may try again at `now`; nil when it may now.
    func wait(_ address: String, now: UInt64) -> UInt64? {
        failures.withLock { failures in
            guard let entry = failures[address], now < entry.since + window else { return nil }
            return entry.count >= limit ? entry.since + window - now : nil
        }
    }

    /// Counts a wrong key from `address` at `now`; returns how many it sent in its window.
    @discardableResult
    func fail(_ address: String, now: UInt64) -> Int {
        total.add(1, ordering: .relaxed)
        return failures.withLock { failures in
            if failures.count >= Self.remembered { failures = failures.filter { now < $0.value.since + window } }
            var entry = failures[address].flatMap { now < $0.since + window ? $0 : nil } ?? (count: 0, since: now)
            entry.count += 1
            failures[address] = entry
            return entry.count
        }
    }

    /// Forgets `address`'s wrong keys: it has signed in.
    func succeed(_ address: String) {
        _ = failures.withLock { $0.removeValue(forKey: address) }
    }
}
