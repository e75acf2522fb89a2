import Dispatch
import Synchronization

/// Where valid submissions are kept: an SQLite file (`SQLiteSubmissionStore`) or a PostgreSQL
/// database (`PostgresSubmissionStore`). Both pass the same tests; the server speaks only this.
public protocol SubmissionDatabase: Sendable {
    /// The store for messages: a file's path, or a URL with its password hidden.
    var name: String { get }

    /// Keeps `submission`, returning once its transaction has committed: answered as kept means durable.
    func keep(_ submission: StoredSubmission) async throws(StoreError)

    /// The submissions to form `formID`, newest first, at most `limit`, with their files.
    func submissions(formID: String, limit: Int) throws(StoreError) -> [StoredSubmission]

    /// Calls `body` with each submission to form `formID`, oldest first, without its files, read one at
    /// a time: an export of any size holds one submission in memory.
    func forEach(formID: String, _ body: (StoredSubmission) -> Void) throws(StoreError)

    /// Erases submission `id` of form `formID`, its files with it; false when the form has no such one.
    func delete(formID: String, id: SubmissionID) throws(StoreError) -> Bool

    /// Throws unless the store answers now: for a readiness check.
    func ping() throws(StoreError)
}

/// A submission to keep: its id, its form, when it came (ISO 8601, UTC), its two payloads as JSON
/// text, and the files it carried.
public struct StoredSubmission: Sendable, Equatable {
    public let id: SubmissionID
    public let formID: String
    public let received: String
    public let httpParameters: String
    public let formValues: String
    public let files: [StoredFile]

    public init(
        id: SubmissionID, formID: String, received: String, httpParameters: String, formValues: String,
        files: [StoredFile] = []
    ) {
        self.id = id
        self.formID = formID
        self.received = received
        self.httpParameters = httpParameters
        self.formValues = formValues
        self.files = files
    }
}

/// A file kept with its submission: the tag it came under (`cv`, or `docs[0]` for an item of a
/// multivalued section), the name and media type the browser gave, and its bytes.
public struct StoredFile: Sendable, Equatable {
    public let tag: String
    public let filename: String
    public let contentType: String
    public let bytes: [UInt8]

    public init(tag: String, filename: String, contentType: String, bytes: [UInt8]) {
        self.tag = tag
        self.filename = filename
        self.contentType = contentType
        self.bytes = bytes
    }
}

/// Why a store could not open, or keep or read a submission: what the database said, with its name.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

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

extension StoredSubmission {
    /// The same submission with `files`.
    func with(files: [StoredFile]) -> StoredSubmission {
        StoredSubmission(
            id: id, formID: formID, received: received, httpParameters: httpParameters, formValues: formValues,
            files: files)
    }
}
