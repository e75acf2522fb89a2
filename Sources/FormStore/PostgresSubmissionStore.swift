import Dispatch
import Synchronization

/// Valid submissions kept in a PostgreSQL database, which any number of servers share: durable once
/// `keep` returns.
///
/// Commits are synchronous (the server flushed the transaction before answering it), and submissions
/// that arrive together share a transaction (`GroupCommit`). Writes and reads have a connection each,
/// so a long export does not hold up posts. A connection that broke is made again by the next call: a
/// database that went away and came back is used again without a restart, and meanwhile every keep
/// fails, at once, with what libpq said.
public final class PostgresSubmissionStore: SubmissionDatabase {
    public let name: String
    private let commits: GroupCommit
    private let reader: PostgresConnection
    private let readQueue = DispatchQueue(label: "formwright.store.postgres.read")
    /// How many transactions have committed submissions: for tests.
    var batches: Int { commits.batches.load(ordering: .relaxed) }

    /// Connects to the database at `url` and brings its schema to this version (`PostgresMigrations`).
    /// `name` is the URL as messages show it (its password hidden). Throws, naming it, when the
    /// database cannot be reached or migrated: better a server that does not start than one that loses
    /// submissions. At most `backlog` submissions wait to be kept at once.
    public init(url: String, name: String, backlog: Int = 4096) throws(StoreError) {
        self.name = name
        let writer = try PostgresConnection(url: url, name: name)
        try PostgresMigrations.run(on: writer)
        reader = try PostgresConnection(url: url, name: name)
        commits = GroupCommit(name: name, backlog: backlog) { (batch) throws(StoreError) in
            try Self.insert(batch, on: writer)
        }
    }

    public func keep(_ submission: StoredSubmission) async throws(StoreError) {
        try await commits.keep(submission)
    }

    public func submissions(formID: String, limit: Int = 100) throws(StoreError) -> [StoredSubmission] {
        try reading { () throws(StoreError) in
            let rows = try reader.run(
                """
                SELECT id, form, received, http_parameters, form_values FROM submissions
                WHERE form = $1 ORDER BY id DESC LIMIT $2
                """, [.text(formID), .text(String(limit))])
            var submissions: [StoredSubmission] = []
            for row in rows {
                guard let submission = Self.submission(row) else { continue }
                let files = try reader.run(
                    """
                    SELECT tag, filename, content_type, bytes FROM submission_files
                    WHERE submission = $1 ORDER BY seq
                    """, [.text(submission.id.description)]
                ).map { file in
                    StoredFile(
                        tag: Self.text(file[0]), filename: Self.text(file[1]), contentType: Self.text(file[2]),
                        bytes: file[3] ?? [])
                }
                submissions.append(submission.with(files: files))
            }
            return submissions
        }
    }

    /// The rows arrive one at a time (libpq's single-row mode) on the reading connection.
    public func forEach(formID: String, _ body: (StoredSubmission) -> Void) throws(StoreError) {
        try reading { () throws(StoreError) in
            try reader.forEach(
                "SELECT id, form, received, http_parameters, form_values FROM submissions WHERE form = $1 ORDER BY id",
                [.text(formID)]
            ) { row in
                if let submission = Self.submission(row) { body(submission) }
            }
        }
    }

    public func delete(formID: String, id: SubmissionID) throws(StoreError) -> Bool {
        try reading { () throws(StoreError) in
            try !reader.run(
                "DELETE FROM submissions WHERE form = $1 AND id = $2 RETURNING id",
                [.text(formID), .text(id.description)]
            ).isEmpty
        }
    }

    public func ping() throws(StoreError) {
        try reading { () throws(StoreError) in try reader.run("SELECT 1") }
    }

    /// `work` on the reading connection's queue, its error rethrown here.
    private func reading<T>(_ work: () throws(StoreError) -> T) throws(StoreError) -> T {
        try readQueue.sync { Result { () throws(StoreError) in try work() } }.get()
    }

    /// A submission of the columns id, form, received, http_parameters, form_values; nil for an id
    /// that is none.
    private static func submission(_ row: [[UInt8]?]) -> StoredSubmission? {
        guard let id = SubmissionID(text(row[0])) else { return nil }
        return StoredSubmission(
            id: id, formID: text(row[1]), received: text(row[2]), httpParameters: text(row[3]),
            formValues: text(row[4]))
    }

    private static func text(_ bytes: [UInt8]?) -> String { String(decoding: bytes ?? [], as: UTF8.self) }

    /// Inserts `batch` in one transaction, each table in one statement: all of it, or none.
    static func insert(_ batch: [StoredSubmission], on connection: PostgresConnection) throws(StoreError) {
        let files = batch.flatMap { submission in submission.files.map { (submission.id, $0) } }
        let submissions = insertion(
            "submissions (id, form, received, http_parameters, form_values)", columns: 5, rows: batch.count)
        let parameters: [PostgresConnection.Parameter] = batch.flatMap {
            [
                .text($0.id.description), .text($0.formID), .text($0.received), .text($0.httpParameters),
                .text($0.formValues),
            ]
        }
        // One statement is a transaction of its own.
        guard !files.isEmpty else {
            try connection.run(submissions, parameters)
            return
        }
        try connection.execute("BEGIN")
        do throws(StoreError) {
            try connection.run(submissions, parameters)
            try connection.run(
                insertion(
                    "submission_files (submission, tag, filename, content_type, bytes)", columns: 5,
                    rows: files.count),
                files.flatMap { id, file in
                    [
                        .text(id.description), .text(file.tag), .text(file.filename), .text(file.contentType),
                        .bytes(file.bytes),
                    ]
                })
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// `INSERT INTO table VALUES ($1, …), (…)` for `rows` rows of `columns` parameters.
    static func insertion(_ table: String, columns: Int, rows: Int) -> String {
        let values = (0..<rows).map { row in
            "(" + (1...columns).map { "$\(row * columns + $0)" }.joined(separator: ", ") + ")"
        }
        return "INSERT INTO \(table) VALUES " + values.joined(separator: ", ")
    }
}

/// The PostgreSQL store's schema, in numbered steps, as `Migrations` is SQLite's. `run` takes a
/// transaction-scoped advisory lock first, so servers starting together on one database migrate it
/// once: the others wait for the lock, then find it done.
enum PostgresMigrations {
    /// Step `n + 1` is `steps[n]`.
    static let steps = [
        """
        CREATE TABLE submissions (
            id text PRIMARY KEY,
            form text NOT NULL,
            received text NOT NULL,
            http_parameters text NOT NULL,
            form_values text NOT NULL
        );
        CREATE INDEX submissions_by_form ON submissions (form, id);
        CREATE TABLE submission_files (
            seq bigserial PRIMARY KEY,
            submission text NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
            tag text NOT NULL,
            filename text NOT NULL,
            content_type text NOT NULL,
            bytes bytea NOT NULL
        );
        CREATE INDEX submission_files_by_submission ON submission_files (submission);
        """
    ]

    /// The advisory lock's key: any number, the same in every Formwright ("fw" in ASCII).
    static let lock = 0x6677

    static func run(on connection: PostgresConnection) throws(StoreError) {
        try connection.execute("BEGIN")
        do throws(StoreError) {
            try connection.execute(
                """
                SELECT pg_advisory_xact_lock(\(lock));
                CREATE TABLE IF NOT EXISTS formwright_schema (version integer NOT NULL);
                """)
            let rows = try connection.run("SELECT coalesce(max(version), 0)::text FROM formwright_schema")
            let current = rows.first?.first.flatMap { $0 }.flatMap { Int(String(decoding: $0, as: UTF8.self)) } ?? 0
            guard current <= steps.count else {
                throw StoreError(
                    "\(connection.name) is at schema version \(current), newer than this server's \(steps.count): run a newer Formwright"
                )
            }
            for (index, step) in steps.enumerated() where index >= current {
                try connection.execute(step)
                try connection.execute("INSERT INTO formwright_schema (version) VALUES (\(index + 1))")
            }
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }
}
