import Dispatch
import Synchronization

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

/// Valid submissions kept in an SQLite database file: durable once `keep` returns.
///
/// The database runs in WAL mode with `synchronous=FULL`, so a committed transaction survives a
/// crash or a power cut. Submissions that arrive together share a transaction (group commit): the
/// writes run one batch at a time on a queue of their own, and each batch takes every submission
/// waiting when it starts, so a burst of posts costs a few flushes of the disk, not one each. A
/// batch that fails (a full disk, a read-only file) fails every submission in it, and none of them is
/// half-written.
public final class SQLiteSubmissionStore: Sendable {
    /// The database file.
    public let path: String
    /// How many submissions may wait for a batch at once; more are refused at once.
    public let backlog: Int
    /// The batches, one at a time.
    private let queue = DispatchQueue(label: "formwright.store.sqlite")
    private let waiting = Mutex<[Write]>([])
    /// The connection, touched only on `queue`.
    private let connection: Connection
    /// How many transactions have committed submissions: for tests, which find group commit with it.
    let batches = Atomic<Int>(0)

    private struct Write: Sendable {
        let submission: StoredSubmission
        let done: CheckedContinuation<Result<Void, StoreError>, Never>
    }

    /// Opens (and makes) the database at `path` and brings its schema to this version (`Migrations`).
    /// Throws, naming the file, when it cannot be opened or written: better a server that does not
    /// start than one that loses submissions it has answered as kept.
    public init(path: String, backlog: Int = 4096) throws(StoreError) {
        self.path = path
        self.backlog = backlog
        let database = try SQLiteDatabase(path: path)
        // WAL must be set outside a transaction; FULL syncs the log at each commit; an erased
        // submission's bytes are overwritten, not left in free pages.
        try database.execute(
            "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON; PRAGMA secure_delete=ON;")
        try Migrations.run(on: database)
        connection = try Connection(database)
    }

    /// Keeps `submission`, returning once its transaction has committed.
    public func keep(_ submission: StoredSubmission) async throws(StoreError) {
        let result = await withCheckedContinuation { (done: CheckedContinuation<Result<Void, StoreError>, Never>) in
            let admitted = waiting.withLock { writes in
                guard writes.count < backlog else { return false }
                writes.append(Write(submission: submission, done: done))
                return true
            }
            guard admitted else {
                done.resume(returning: .failure(StoreError("\(path): \(backlog) submissions already wait to be kept")))
                return
            }
            queue.async { [self] in commitWaiting() }
        }
        try result.get()
    }

    /// The submissions to form `formID`, newest first, at most `limit`.
    public func submissions(formID: String, limit: Int = 100) throws(StoreError) -> [StoredSubmission] {
        try queue.sync { Result { () throws(StoreError) in try connection.submissions(formID: formID, limit: limit) } }
            .get()
    }

    /// Calls `body` with each submission to form `formID`, oldest first, without its files, read one at
    /// a time: an export of any size holds one submission in memory. Other keeps wait meanwhile.
    public func forEach(formID: String, _ body: (StoredSubmission) -> Void) throws(StoreError) {
        try queue.sync { Result { () throws(StoreError) in try connection.forEach(formID: formID, body) } }.get()
    }

    /// Erases submission `id` of form `formID`, its files with it; false when the form has no such one.
    public func delete(formID: String, id: SubmissionID) throws(StoreError) -> Bool {
        try queue.sync { Result { () throws(StoreError) in try connection.delete(formID: formID, id: id) } }.get()
    }

    /// Commits every submission waiting now in one transaction, and answers each.
    private func commitWaiting() {
        let batch = waiting.withLock { writes in
            defer { writes.removeAll(keepingCapacity: true) }
            return writes
        }
        guard !batch.isEmpty else { return }
        let result = Result { () throws(StoreError) in try connection.insert(batch.map(\.submission)) }
        if case .success = result { batches.add(1, ordering: .relaxed) }
        for write in batch { write.done.resume(returning: result) }
    }

    /// The database and its statements. `@unchecked Sendable`: used on the store's queue alone.
    private final class Connection: @unchecked Sendable {
        let database: SQLiteDatabase
        let insert: SQLiteDatabase.Statement
        let insertFile: SQLiteDatabase.Statement
        let select: SQLiteDatabase.Statement
        let selectFiles: SQLiteDatabase.Statement
        let selectAll: SQLiteDatabase.Statement
        let remove: SQLiteDatabase.Statement

        init(_ database: SQLiteDatabase) throws(StoreError) {
            self.database = database
            insert = try database.prepare(
                "INSERT INTO submissions (id, form, received, http_parameters, form_values) VALUES (?, ?, ?, ?, ?)")
            insertFile = try database.prepare(
                "INSERT INTO submission_files (submission, tag, filename, content_type, bytes) VALUES (?, ?, ?, ?, ?)")
            selectFiles = try database.prepare(
                "SELECT tag, filename, content_type, bytes FROM submission_files WHERE submission = ? ORDER BY rowid")
            selectAll = try database.prepare(
                "SELECT id, form, received, http_parameters, form_values FROM submissions WHERE form = ? ORDER BY id")
            remove = try database.prepare("DELETE FROM submissions WHERE form = ? AND id = ?")
            select = try database.prepare(
                """
                SELECT id, form, received, http_parameters, form_values FROM submissions
                WHERE form = ? ORDER BY id DESC LIMIT ?
                """)
        }

        /// Inserts `submissions` in one transaction: all of them, or none.
        func insert(_ submissions: [StoredSubmission]) throws(StoreError) {
            try database.execute("BEGIN IMMEDIATE")
            do throws(StoreError) {
                for submission in submissions {
                    try insert.bind([
                        submission.id.description, submission.formID, submission.received, submission.httpParameters,
                        submission.formValues,
                    ])
                    try insert.run()
                    for file in submission.files {
                        try insertFile.bind([submission.id.description, file.tag, file.filename, file.contentType])
                        try insertFile.bind(file.bytes, at: 5)
                        try insertFile.run()
                    }
                }
                try database.execute("COMMIT")
            } catch {
                try? database.execute("ROLLBACK")
                throw error
            }
        }

        func forEach(formID: String, _ body: (StoredSubmission) -> Void) throws(StoreError) {
            try selectAll.bind([formID])
            try selectAll.forEach { columns in
                guard let id = columns.text(0).flatMap(SubmissionID.init) else { return }
                body(
                    StoredSubmission(
                        id: id, formID: columns.text(1) ?? "", received: columns.text(2) ?? "",
                        httpParameters: columns.text(3) ?? "", formValues: columns.text(4) ?? ""))
            }
        }

        func delete(formID: String, id: SubmissionID) throws(StoreError) -> Bool {
            try remove.bind([formID, id.description])
            try remove.run()
            return database.changes > 0
        }

        func submissions(formID: String, limit: Int) throws(StoreError) -> [StoredSubmission] {
            try select.bind([formID, String(limit)])
            let rows = try select.rows { columns in
                (0..<5).map { columns.text($0) ?? "" }
            }
            var submissions: [StoredSubmission] = []
            for row in rows {
                guard let id = SubmissionID(row[0]) else { continue }
                try selectFiles.bind([row[0]])
                let files = try selectFiles.rows { columns in
                    StoredFile(
                        tag: columns.text(0) ?? "", filename: columns.text(1) ?? "",
                        contentType: columns.text(2) ?? "", bytes: columns.blob(3))
                }
                submissions.append(
                    StoredSubmission(
                        id: id, formID: row[1], received: row[2], httpParameters: row[3], formValues: row[4],
                        files: files))
            }
            return submissions
        }
    }
}

/// The store's schema, in numbered steps. `run` brings a database to the newest inside one
/// transaction that takes the write lock first, so servers starting together on one file migrate it
/// once: the others wait, then find it done.
enum Migrations {
    /// Step `n + 1` is `steps[n]`.
    static let steps = [
        """
        CREATE TABLE submissions (
            id TEXT PRIMARY KEY,
            form TEXT NOT NULL,
            received TEXT NOT NULL,
            http_parameters TEXT NOT NULL,
            form_values TEXT NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX submissions_by_form ON submissions (form, id);
        CREATE TABLE submission_files (
            submission TEXT NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
            tag TEXT NOT NULL,
            filename TEXT NOT NULL,
            content_type TEXT NOT NULL,
            bytes BLOB NOT NULL
        );
        CREATE INDEX submission_files_by_submission ON submission_files (submission);
        """
    ]

    static func run(on database: SQLiteDatabase) throws(StoreError) {
        try database.execute("BEGIN IMMEDIATE")
        do throws(StoreError) {
            try database.execute("CREATE TABLE IF NOT EXISTS formwright_schema (version INTEGER NOT NULL)")
            let rows = try database.prepare("SELECT coalesce(max(version), 0) FROM formwright_schema").rows()
            let current = rows.first?.first.flatMap { $0.flatMap { Int($0) } } ?? 0
            guard current <= steps.count else {
                throw StoreError(
                    "\(database.path) is at schema version \(current), newer than this server's \(steps.count): run a newer Formwright"
                )
            }
            for (index, step) in steps.enumerated() where index >= current {
                try database.execute(step)
                try database.execute("INSERT INTO formwright_schema (version) VALUES (\(index + 1))")
            }
            try database.execute("COMMIT")
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
    }
}
