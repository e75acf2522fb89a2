import Dispatch
import Synchronization

/// Valid submissions kept in an SQLite database file: durable once `keep` returns.
///
/// The database runs in WAL mode with `synchronous=FULL`, so a committed transaction survives a
/// crash or a power cut; submissions that arrive together share a transaction (`GroupCommit`).
/// Reads and erasures run on the writes' queue, on the one connection.
public final class SQLiteSubmissionStore: SubmissionDatabase {
    /// The database file.
    public let path: String
    public var name: String { path }
    private let commits: GroupCommit
    /// The connection, touched only on `queue`.
    private let connection: Connection
    private let queue = DispatchQueue(label: "formwright.store.sqlite")
    /// How many transactions have committed submissions: for tests.
    var batches: Int { commits.batches.load(ordering: .relaxed) }

    /// Opens (and makes) the database at `path` and brings its schema to this version (`Migrations`).
    /// Throws, naming the file, when it cannot be opened or written: better a server that does not
    /// start than one that loses submissions it has answered as kept. At most `backlog` submissions
    /// wait to be kept at once.
    public init(path: String, backlog: Int = 4096) throws(StoreError) {
        self.path = path
        let database = try SQLiteDatabase(path: path)
        // WAL must be set outside a transaction; FULL syncs the log at each commit; an erased
        // submission's bytes are overwritten, not left in free pages.
        try database.execute(
            "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON; PRAGMA secure_delete=ON;")
        try Migrations.run(on: database)
        let connection = try Connection(database)
        let queue = queue
        self.connection = connection
        commits = GroupCommit(name: path, backlog: backlog) { (batch) throws(StoreError) in
            try queue.sync { Result { () throws(StoreError) in try connection.insert(batch) } }.get()
        }
    }

    public func keep(_ submission: StoredSubmission) async throws(StoreError) {
        try await commits.keep(submission)
    }

    public func submissions(formID: String, limit: Int = 100) throws(StoreError) -> [StoredSubmission] {
        try onQueue { () throws(StoreError) in try connection.submissions(formID: formID, limit: limit) }
    }

    /// Other keeps wait while an export reads.
    public func forEach(formID: String, _ body: (StoredSubmission) -> Void) throws(StoreError) {
        try onQueue { () throws(StoreError) in try connection.forEach(formID: formID, body) }
    }

    public func delete(formID: String, id: SubmissionID) throws(StoreError) -> Bool {
        try onQueue { () throws(StoreError) in try connection.delete(formID: formID, id: id) }
    }

    public func ping() throws(StoreError) {
        try onQueue { () throws(StoreError) in
            _ = try connection.database.prepare("SELECT version FROM formwright_schema LIMIT 1").rows()
        }
    }

    /// `work` on the connection's queue, its error rethrown here.
    private func onQueue<T>(_ work: () throws(StoreError) -> T) throws(StoreError) -> T {
        try queue.sync { Result { () throws(StoreError) in try work() } }.get()
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
