import Dispatch
import Synchronization

/// Where valid submissions are kept: an SQLite file (`SQLiteSubmissionStore`) or a PostgreSQL
/// database (`PostgresSubmissionStore`). Both pass the same tests; the server speaks only this.
public protocol SubmissionDatabase: Sendable {
    /// The store for messages: a file's path, or a URL with its password hidden.
    var name: String { get }

    /// Keeps `submission`, returning once its transaction has committed: answered as kept means durable.
    func keep(_ submission: StoredSubmission) async throws(StoreError)

    /// The submissions to form `formID` whose ids are in `range`, newest first, at most `limit`, without
    /// their files: a page of a listing.
    func submissions(formID: String, in range: SubmissionRange, limit: Int) throws(StoreError) -> [StoredSubmission]

    /// Submission `id` of form `formID`, with its files; nil when the form has no such one.
    func submission(formID: String, id: SubmissionID) throws(StoreError) -> StoredSubmission?

    /// The submissions to form `formID`, oldest first, without their files, read one at a time on a
    /// connection of the cursor's own: an export of any size holds one submission in memory, and holds
    /// up no post meanwhile.
    func cursor(formID: String) throws(StoreError) -> any SubmissionCursor

    /// Erases submission `id` of form `formID`, its files with it; false when the form has no such one.
    func delete(formID: String, id: SubmissionID) throws(StoreError) -> Bool

    /// Throws unless the store answers now: for a readiness check.
    func ping() throws(StoreError)

    /// Adds `key`; false when a key of its name exists (the store keeps the first).
    func add(_ key: StoredKey) throws(StoreError) -> Bool

    /// Every key, by name.
    func keys() throws(StoreError) -> [StoredKey]

    /// The key whose hash is `hash`, if there is one.
    func key(hash: String) throws(StoreError) -> StoredKey?

    /// Removes the key named `name`; false when there is none.
    func revokeKey(named name: String) throws(StoreError) -> Bool
}

extension SubmissionDatabase {
    /// The newest `limit` submissions to form `formID`, without their files.
    public func submissions(formID: String, limit: Int) throws(StoreError) -> [StoredSubmission] {
        try submissions(formID: formID, in: SubmissionRange(), limit: limit)
    }

    /// Calls `body` with each submission to form `formID`, oldest first, without its files (`cursor`).
    public func forEach(formID: String, _ body: (StoredSubmission) -> Void) throws(StoreError) {
        let cursor = try cursor(formID: formID)
        while let submission = try cursor.next() { body(submission) }
    }
}

/// Which ids a listing takes: from `from` (itself included) to before `before`, either open. Ids sort
/// by time, so a time range is an id range (`SubmissionID.first(atMillisecond:)`), and a page's last id
/// is where the next page starts before.
public struct SubmissionRange: Sendable, Equatable {
    public var from: SubmissionID?
    public var before: SubmissionID?

    public init(from: SubmissionID? = nil, before: SubmissionID? = nil) {
        self.from = from
        self.before = before
    }

    /// The bounds as text for a query: below every id, and above every id, when open.
    var bounds: (from: String, before: String) {
        (from?.description ?? "0", before?.description ?? String(repeating: "Z", count: 27))
    }
}

/// Submissions read one at a time. Used by one thread at a time; it closes its connection when dropped.
public protocol SubmissionCursor: AnyObject, Sendable {
    /// The next submission, or nil after the last.
    func next() throws(StoreError) -> StoredSubmission?
}

/// An API key as a store keeps it: its name, the SHA-256 of the key (never the key), what it may do
/// (`read`, `export`, `delete`, `submit`), the forms it may do it to (empty for every form), and when it
/// was made.
public struct StoredKey: Sendable, Equatable {
    public let name: String
    public let hash: String
    public let scopes: [String]
    public let forms: [String]
    public let created: String

    public init(name: String, hash: String, scopes: [String], forms: [String], created: String) {
        self.name = name
        self.hash = hash
        self.scopes = scopes
        self.forms = forms
        self.created = created
    }

    /// The key of the columns name, hash, scopes, forms, created: lists kept space-separated.
    init(columns: [String]) {
        let list = { (text: String) in text.split(separator: " ").map(String.init) }
        self.init(
            name: columns[0], hash: columns[1], scopes: list(columns[2]), forms: list(columns[3]), created: columns[4])
    }

    /// The values for the columns name, hash, scopes, forms, created.
    var columns: [String] {
        [name, hash, scopes.joined(separator: " "), forms.joined(separator: " "), created]
    }
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
