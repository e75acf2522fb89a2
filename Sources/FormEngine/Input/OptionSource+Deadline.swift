import FormModel
import Foundation

extension OptionSource {
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

    /// Runs `call` on a thread of its own and waits for it until the deadline, so that a closure that
    /// hangs holds its caller no longer than that. The call itself cannot be stopped: past the deadline
    /// it finishes on its own thread, and its answer is dropped.
    private func withDeadline<T: Sendable>(
        _ what: String, _ call: @escaping @Sendable () throws -> T
    ) throws(Unavailable) -> T {
        let answer = Answer<T>()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            answer.set(Result { try call() })
            done.signal()
        }
        // At most a minute: a longer wait is no deadline, and the nanoseconds must fit an Int.
        let milliseconds = Swift.min(
            Swift.max(deadline.components.seconds * 1000 + deadline.components.attoseconds / 1_000_000_000_000_000, 0),
            60_000)
        guard done.wait(timeout: .now() + .milliseconds(Int(milliseconds))) == .success, let result = answer.get()
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
