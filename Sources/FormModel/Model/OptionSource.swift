import Foundation

/// Options too many or too far away to write into a page (XLForm's custom selectors and data-loader
/// selectors): searched as the reader types, and each submitted value confirmed on its own. A row names
/// a source with `optionsFrom`; an application registers it in Swift.
///
/// ```swift
/// let cities = OptionSource("cities",
///     search: { query, limit in try database.cities(matching: query, limit: limit) },
///     lookup: { value in try database.city(id: value) })
/// ```
///
/// Both closures run with a deadline (`deadline`, 2 seconds unless given): one that throws or is late
/// makes the submission `503` (try again) rather than accept a value nobody confirmed, and a search
/// answers `503` too. A closure past its deadline is left to finish on its own thread; its answer is dropped.
public struct OptionSource: Sendable {
    /// The name descriptors give in `optionsFrom`.
    public let name: String
    /// The options whose titles match `query`, at most `limit` of them, best first.
    public let search: @Sendable (_ query: String, _ limit: Int) throws -> [Option]
    /// The option whose value is `value`, or nil when there is none: what makes a submitted value valid.
    public let lookup: @Sendable (_ value: String) throws -> Option?
    /// How long a call may take before it counts as failed.
    public var deadline: Duration

    /// A source called `name`.
    public init(
        _ name: String, deadline: Duration = .seconds(2),
        search: @escaping @Sendable (_ query: String, _ limit: Int) throws -> [Option],
        lookup: @escaping @Sendable (_ value: String) throws -> Option?
    ) {
        self.name = name
        self.search = search
        self.lookup = lookup
        self.deadline = deadline
    }

    /// Why a call gave no answer: it threw, or it was late.
    public struct Unavailable: Error, Sendable, CustomStringConvertible {
        /// What happened, naming the source.
        public let description: String
    }

    /// `search` within the deadline.
    public func matches(_ query: String, limit: Int) throws(Unavailable) -> [Option] {
        try withDeadline("search") { try search(query, limit) }
    }

    /// `lookup` within the deadline.
    public func option(_ value: String) throws(Unavailable) -> Option? {
        try withDeadline("lookup") { try lookup(value) }
    }

    /// Runs `call` on a thread of its own and waits for it until the deadline: a closure that hangs must
    /// not hold the request (nor the server thread) with it.
    private func withDeadline<T: Sendable>(
        _ what: String, _ call: @escaping @Sendable () throws -> T
    ) throws(Unavailable) -> T {
        let answer = Answer<T>()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            answer.set(Result { try call() })
            done.signal()
        }
        let nanoseconds = deadline.components.seconds * 1_000_000_000 + deadline.components.attoseconds / 1_000_000_000
        guard done.wait(timeout: .now() + .nanoseconds(Int(nanoseconds))) == .success, let result = answer.get()
        else { throw Unavailable(description: "the option source '\(name)' did not answer its \(what) in time") }
        switch result {
        case .success(let value): return value
        case .failure(let error):
            throw Unavailable(description: "the option source '\(name)' failed its \(what): \(error)")
        }
    }
}

/// One call's answer, handed from the thread that ran it to the one waiting.
private final class Answer<T: Sendable>: @unchecked Sendable {
    // Guarded by `lock`: written once by the caller's thread, read by the waiting one.
    private let lock = NSLock()
    private var result: Result<T, any Error>?

    func set(_ result: Result<T, any Error>) { lock.withLock { self.result = result } }
    func get() -> Result<T, any Error>? { lock.withLock { result } }
}
