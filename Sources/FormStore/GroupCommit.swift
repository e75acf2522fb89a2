import Dispatch
import Synchronization

/// Submissions waiting to be kept, committed together (group commit): the writes run one batch at a
/// time on a queue of their own, and each batch takes every submission waiting when it starts, so a
/// burst of posts costs a few flushes of the disk, not one each. A batch that fails fails every
/// submission in it, and the database keeps none of them.
final class GroupCommit: Sendable {
    /// The most submissions one transaction takes: a statement's parameters stay well within what a
    /// database accepts, and one slow batch cannot hold a long queue.
    static let largestBatch = 1_000

    /// The store, for messages.
    let name: String
    /// How many submissions may wait at once; more are refused at once.
    let backlog: Int
    /// How many transactions have committed submissions: for tests, which find group commit with it.
    let batches = Atomic<Int>(0)
    private let queue: DispatchQueue
    private let waiting = Mutex<[Write]>([])
    private let commit: @Sendable ([StoredSubmission]) throws(StoreError) -> Void

    private struct Write: Sendable {
        let submission: StoredSubmission
        let done: CheckedContinuation<Result<Void, StoreError>, Never>
    }

    /// Batches that `commit` writes, all or nothing, one at a time.
    init(
        name: String, backlog: Int, commit: @escaping @Sendable ([StoredSubmission]) throws(StoreError) -> Void
    ) {
        self.name = name
        self.backlog = backlog
        self.commit = commit
        queue = DispatchQueue(label: "formwright.store.commit")
    }

    /// Keeps `submission`, returning once the batch holding it has committed.
    func keep(_ submission: StoredSubmission) async throws(StoreError) {
        let result = await withCheckedContinuation { (done: CheckedContinuation<Result<Void, StoreError>, Never>) in
            let admitted = waiting.withLock { writes in
                guard writes.count < backlog else { return false }
                writes.append(Write(submission: submission, done: done))
                return true
            }
            guard admitted else {
                done.resume(returning: .failure(StoreError("\(name): \(backlog) submissions already wait to be kept")))
                return
            }
            queue.async { [self] in commitWaiting() }
        }
        try result.get()
    }

    /// Commits the submissions waiting now, up to `largestBatch`, in one transaction, and answers each.
    /// Every write queued a call of its own, so any left waiting are taken by a later call.
    private func commitWaiting() {
        let batch = waiting.withLock { writes in
            let taken = Array(writes.prefix(Self.largestBatch))
            writes.removeFirst(taken.count)
            return taken
        }
        guard !batch.isEmpty else { return }
        let result = Result { () throws(StoreError) in try commit(batch.map(\.submission)) }
        if case .success = result { batches.add(1, ordering: .relaxed) }
        for write in batch { write.done.resume(returning: result) }
    }
}
