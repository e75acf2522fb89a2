import Dispatch
import Synchronization

/// Valid submissions kept in a PostgreSQL database, which any number of servers share: durable once
/// `keep` returns.
///
/// Commits are synchronous (the server flushed the transaction before answering it), and submissions
/// that arrive together share a transaction (`GroupCommit`). Posts have a connection of their own;
/// reads, erasures and keys another; each export a third, so none holds up posts. A connection that broke is made again by the next call: a
/// database that went away and came back is used again without a restart, and meanwhile every keep
/// fails, at once, with what libpq said.
public final class PostgresSubmissionStore: SubmissionDatabase {
    /// The URL as messages show it, its password hidden.
    public let name: String
    /// The URL, for the connections cursors open.
    private let url: String
    private let commits: GroupCommit
    let reader: PostgresConnection
    private let readQueue = DispatchQueue(label: "formwright.store.postgres.read")
    public let outbox: any DeliveryOutbox
    /// How many transactions have committed submissions: for tests.
    var batches: Int { commits.batches.load(ordering: .relaxed) }

    /// Connects to the database at `url` and brings its schema to this version (`PostgresMigrations`).
    /// `name` is the URL as messages show it (its password hidden). Throws, naming it, when the
    /// database cannot be reached or migrated: better a server that does not start than one that loses
    /// submissions. At most `backlog` submissions wait to be kept at once.
    public init(url: String, name: String, backlog: Int = 4096) throws(StoreError) {
        self.name = name
        self.url = url
        let writer = try PostgresConnection(url: url, name: name)
        try PostgresMigrations.run(on: writer)
        reader = try PostgresConnection(url: url, name: name)
        outbox = try PostgresOutbox(url: url, name: name)
        commits = GroupCommit(name: name, backlog: backlog) { (batch) throws(StoreError) in
            try Self.insert(batch, on: writer)
        }
    }

    public func keep(_ submission: StoredSubmission) async throws(StoreError) {
        try await commits.keep(submission)
    }

    public func submissions(
        formID: String, in range: SubmissionRange, containing: String?, limit: Int
    ) throws(StoreError)
        -> [StoredSubmission]
    {
        let bounds = range.bounds
        return try onReader { () throws(StoreError) in
            try reader.run(
                """
                SELECT \(Self.columns) FROM submissions
                WHERE form = $1 AND id >= $2 AND id < $3 \(containing == nil ? "" : Self.containing("$5"))
                ORDER BY id DESC LIMIT $4
                """,
                [.text(formID), .text(bounds.from), .text(bounds.before), .text(String(limit))]
                    + (containing.map { [.text(SearchText.folded($0))] } ?? [])
            ).compactMap(Self.submission)
        }
    }

    /// The condition that a submission's `http_parameters` hold parameter `parameter` in any case.
    /// `lower()` folds more than A to Z (`SearchText`), so this finds a few more than SQLite would; the
    /// server keeps those whose answers hold the text as `SearchText` folds it, so both stores show the
    /// same. (`translate()` of A to Z alone read a million rows some thirty times slower.)
    static func containing(_ parameter: String) -> String {
        "AND strpos(lower(http_parameters), lower(\(parameter))) > 0"
    }

    public func submission(formID: String, id: SubmissionID) throws(StoreError) -> StoredSubmission? {
        try onReader { () throws(StoreError) in
            guard let submission = try current(formID: formID, id: id, on: reader) else { return nil }
            return submission.with(files: try files(of: id, version: submission.version, on: reader).map(\.file))
        }
    }

    public func revise(_ edit: StoredSubmission, from version: Int) throws(StoreError) -> Revision {
        try onReader { () throws(StoreError) in
            // Reads, keys and held files share this connection: an edit waits at most 5 s for another
            // server's lock on the row rather than holding them up.
            try reader.execute("BEGIN; SET LOCAL lock_timeout = '5s'")
            do throws(StoreError) {
                // The row stays locked to the end: an edit on another server waits, then finds the new version.
                guard let current = try current(formID: edit.formID, id: edit.id, on: reader, locking: true) else {
                    try reader.execute("ROLLBACK")
                    return .missing
                }
                guard current.version == version else {
                    try reader.execute("ROLLBACK")
                    return .changed(current: current.version)
                }
                let id = PostgresConnection.Parameter.text(edit.id.description)
                // What the version replaced was counted under is taken back; the new one's is counted.
                try reader.run(
                    """
                    UPDATE submission_counts SET count = count - 1
                    WHERE form = $2 AND hour = $3::bigint AND answer IN (
                        SELECT unnest(string_to_array(answers, E'\\n')) FROM submissions WHERE id = $1 AND answers <> '')
                    """, [id, .text(edit.formID), .text(String(edit.id.hour))])
                var counts = CountIncrements()
                counts.add(answersOf: edit)
                try Self.count(counts, on: reader)
                try reader.run(
                    """
                    INSERT INTO submission_versions (submission, version, saved, http_parameters, form_values)
                    SELECT id, version, coalesce(edited, received), http_parameters, form_values
                    FROM submissions WHERE id = $1
                    """, [id])
                try reader.run(
                    """
                    UPDATE submissions SET http_parameters = $2, form_values = $3, edited = $4, version = $5::integer,
                    answers = $6
                    WHERE id = $1
                    """,
                    [
                        id, .text(edit.httpParameters), .text(edit.formValues), .text(edit.received),
                        .text(String(version + 1)), .text(CountIncrements.column(edit.answers)),
                    ])
                for file in edit.files {
                    try reader.run(
                        """
                        INSERT INTO submission_files (submission, tag, filename, content_type, bytes, version)
                        VALUES ($1, $2, $3, $4, $5, $6::integer)
                        """,
                        [
                            id, .text(file.tag), .text(file.filename), .text(file.contentType), .bytes(file.bytes),
                            .text(String(version + 1)),
                        ])
                }
                try Self.insertDeliveries(edit.deliveries, on: reader)
                try reader.execute("COMMIT")
                return .saved(version: version + 1)
            } catch {
                try? reader.execute("ROLLBACK")
                throw error
            }
        }
    }

    public func versions(formID: String, id: SubmissionID) throws(StoreError) -> [StoredVersion]? {
        try onReader { () throws(StoreError) in
            // One snapshot: an edit on another server between the reads cannot show a version twice.
            try reader.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            defer { try? reader.execute("COMMIT") }
            guard let current = try current(formID: formID, id: id, on: reader) else { return nil }
            let files = try files(of: id, version: nil, on: reader)
            let older = try reader.run(
                """
                SELECT version::text, saved, http_parameters, form_values FROM submission_versions
                WHERE submission = $1 ORDER BY version
                """, [.text(id.description)])
            return older.map { row in
                let version = Int(row[0].text) ?? 0
                return StoredVersion(
                    version: version, saved: row[1].text, httpParameters: row[2].text,
                    formValues: row[3].text, files: files.filter { $0.version == version }.map(\.file))
            } + [current.with(files: files.filter { $0.version == current.version }.map(\.file)).asVersion]
        }
    }

    /// Submission `id` of form `formID` as it is now, without its files; `locking` its row for the
    /// transaction under way.
    private func current(
        formID: String, id: SubmissionID, on connection: PostgresConnection, locking: Bool = false
    ) throws(StoreError) -> StoredSubmission? {
        try connection.run(
            "SELECT \(Self.columns) FROM submissions WHERE form = $1 AND id = $2" + (locking ? " FOR UPDATE" : ""),
            [.text(formID), .text(id.description)]
        ).first.flatMap(Self.submission)
    }

    /// The files of submission `id`: of `version`, or of every version when nil; in the order they were kept.
    private func files(
        of id: SubmissionID, version: Int?, on connection: PostgresConnection
    ) throws(StoreError) -> [(file: StoredFile, version: Int)] {
        let all = "SELECT tag, filename, content_type, bytes, version::text FROM submission_files WHERE submission = $1"
        return try connection.run(
            version == nil ? all + " ORDER BY seq" : all + " AND version = $2::integer ORDER BY seq",
            [.text(id.description)] + (version.map { [.text(String($0))] } ?? [])
        ).map { row in
            (
                StoredFile(
                    tag: row[0].text, filename: row[1].text, contentType: row[2].text,
                    bytes: row[3] ?? []),
                Int(row[4].text) ?? 1
            )
        }
    }

    public func cursor(
        formID: String, formValues: Bool, range: SubmissionRange, containing: String?
    ) throws(StoreError) -> any SubmissionCursor {
        let connection = try PostgresConnection(url: url, name: name)
        let columns = formValues ? Self.columns : Self.columnsWithoutFormValues
        let bounds = range.bounds
        try connection.startRows(
            """
            SELECT \(columns) FROM submissions WHERE form = $1 AND id >= $2 AND id < $3
            \(containing == nil ? "" : Self.containing("$4")) ORDER BY id
            """,
            [.text(formID), .text(bounds.from), .text(bounds.before)]
                + (containing.map { [.text(SearchText.folded($0))] } ?? []))
        return Cursor(connection)
    }

    public func delete(formID: String, id: SubmissionID) throws(StoreError) -> Bool {
        try onReader { () throws(StoreError) in
            // One statement: the submission (its versions and files by their foreign keys), its jobs, and
            // what it was counted under.
            let range = StoredDelivery.ids(of: id)
            return try !reader.run(
                """
                WITH erased AS (DELETE FROM submissions WHERE form = $1 AND id = $2 RETURNING id, answers),
                jobs AS (DELETE FROM deliveries WHERE id >= $3 AND id < $4 AND EXISTS (SELECT 1 FROM erased)),
                counted AS (
                    UPDATE submission_counts SET count = count - 1
                    WHERE form = $1 AND hour = $5::bigint AND answer IN (
                        SELECT '' FROM erased
                        UNION SELECT unnest(string_to_array(answers, E'\\n')) FROM erased WHERE answers <> ''))
                SELECT id FROM erased
                """,
                [.text(formID), .text(id.description), .text(range.from), .text(range.before), .text(String(id.hour))]
            ).isEmpty
        }
    }

    public func ping() throws(StoreError) {
        // The rows of `SELECT 1` say nothing: that it answered is the ping.
        _ = try onReader { () throws(StoreError) in try reader.run("SELECT 1") }
    }

    public func add(_ key: StoredKey) throws(StoreError) -> Bool {
        try onReader { () throws(StoreError) in
            try !reader.run(
                """
                INSERT INTO api_keys (\(Self.keyColumns)) VALUES ($1, $2, $3, $4, $5)
                ON CONFLICT (name) DO NOTHING RETURNING name
                """, key.columns.map { .text($0) }
            ).isEmpty
        }
    }

    public func keys() throws(StoreError) -> [StoredKey] {
        try onReader { () throws(StoreError) in
            try reader.run("SELECT \(Self.keyColumns) FROM api_keys ORDER BY name").map(Self.key)
        }
    }

    public func key(hash: String) throws(StoreError) -> StoredKey? {
        try onReader { () throws(StoreError) in
            try reader.run("SELECT \(Self.keyColumns) FROM api_keys WHERE hash = $1", [.text(hash)]).first.map(Self.key)
        }
    }

    public func revokeKey(named name: String) throws(StoreError) -> Bool {
        try onReader { () throws(StoreError) in
            try !reader.run("DELETE FROM api_keys WHERE name = $1 RETURNING name", [.text(name)]).isEmpty
        }
    }

    public func hold(
        _ file: StoredFile, reference: String, formID: String, expires: UInt64, now: UInt64
    ) throws(StoreError) {
        try onReader { () throws(StoreError) in
            try reader.run("DELETE FROM held_uploads WHERE expires < $1::bigint", [.text(String(now))])
            try reader.run(
                """
                INSERT INTO held_uploads (reference, form, tag, filename, content_type, bytes, expires)
                VALUES ($1, $2, $3, $4, $5, $6, $7::bigint)
                """,
                [
                    .text(reference), .text(formID), .text(file.tag), .text(file.filename), .text(file.contentType),
                    .bytes(file.bytes), .text(String(expires)),
                ])
        }
    }

    public func takeHeld(reference: String, formID: String, now: UInt64) throws(StoreError) -> StoredFile? {
        try onReader { () throws(StoreError) in
            // One statement: two servers given the same reference cannot both take it.
            try reader.run(
                """
                DELETE FROM held_uploads WHERE reference = $1 AND form = $2 AND expires >= $3::bigint
                RETURNING tag, filename, content_type, bytes
                """, [.text(reference), .text(formID), .text(String(now))]
            ).first.map { row in
                StoredFile(
                    tag: row[0].text, filename: row[1].text, contentType: row[2].text,
                    bytes: row[3] ?? [])
            }
        }
    }

    /// `work` on the second connection's queue, its error rethrown here: reads, erasures and keys,
    /// none of which may wait behind a batch of posts.
    func onReader<T>(_ work: () throws(StoreError) -> T) throws(StoreError) -> T {
        try readQueue.sync { Result { () throws(StoreError) in try work() } }.get()
    }

    private static let columns = "id, form, received, http_parameters, form_values, version::text, edited"
    /// `columns`, `form_values` read as empty text.
    private static let columnsWithoutFormValues = "id, form, received, http_parameters, '', version::text, edited"
    private static let keyColumns = "name, hash, scopes, forms, created"

    /// A submission of the columns `columns`; nil for an id that is none.
    private static func submission(_ row: [[UInt8]?]) -> StoredSubmission? {
        guard let id = SubmissionID(row[0].text) else { return nil }
        return StoredSubmission(
            id: id, formID: row[1].text, received: row[2].text, httpParameters: row[3].text,
            formValues: row[4].text, version: Int(row[5].text) ?? 1, edited: row[6].nullableText)
    }

    static func key(_ row: [[UInt8]?]) -> StoredKey { StoredKey(columns: row.map(\.text)) }

    /// An export's connection, its rows read as they arrive. `@unchecked Sendable`: used by one thread
    /// at a time (`SubmissionCursor`).
    private final class Cursor: SubmissionCursor, @unchecked Sendable {
        private let connection: PostgresConnection

        init(_ connection: PostgresConnection) { self.connection = connection }

        func next() throws(StoreError) -> StoredSubmission? {
            while let row = try connection.nextRow() {
                if let submission = PostgresSubmissionStore.submission(row) { return submission }
            }
            return nil
        }
    }

    /// Inserts `batch` in one transaction, a statement for many rows at a time: all of it, or none.
    static func insert(_ batch: [StoredSubmission], on connection: PostgresConnection) throws(StoreError) {
        let rows: [[PostgresConnection.Parameter]] = batch.map {
            [
                .text($0.id.description), .text($0.formID), .text($0.received), .text($0.httpParameters),
                .text($0.formValues), .text(CountIncrements.column($0.answers)),
            ]
        }
        var counts = CountIncrements()
        for submission in batch { counts.add(submission) }
        let files: [[PostgresConnection.Parameter]] = batch.flatMap { submission in
            submission.files.map {
                [
                    .text(submission.id.description), .text($0.tag), .text($0.filename), .text($0.contentType),
                    .bytes($0.bytes),
                ]
            }
        }
        let deliveries = batch.flatMap(\.deliveries)
        let submissions = statements(rows)
        let submissionInsert = { (count: Int) in
            insertion(
                "submissions (id, form, received, http_parameters, form_values, answers)", columns: 6, rows: count)
        }
        // The usual batch, without files, is one statement with its counts: a transaction of its own.
        let countRows = Self.countRows(counts)
        if files.isEmpty, deliveries.isEmpty, submissions.count == 1, countRows.count * 4 + rows.count * 6 < 60_000 {
            let kept = submissions[0].flatMap { $0 }
            try connection.run(
                "WITH kept AS (\(submissionInsert(submissions[0].count)) RETURNING 1) "
                    + countUpsert(rows: countRows.count, after: kept.count), kept + countRows.flatMap { $0 })
            return
        }
        try connection.execute("BEGIN")
        do throws(StoreError) {
            for statement in submissions {
                try connection.run(submissionInsert(statement.count), statement.flatMap { $0 })
            }
            try count(counts, on: connection)
            for statement in statements(files) {
                try connection.run(
                    insertion(
                        "submission_files (submission, tag, filename, content_type, bytes)", columns: 5,
                        rows: statement.count), statement.flatMap { $0 })
            }
            try insertDeliveries(deliveries, on: connection)
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// Adds `counts` to the kept counts, inside the transaction under way on `connection`.
    static func count(_ counts: CountIncrements, on connection: PostgresConnection) throws(StoreError) {
        for statement in statements(countRows(counts)) {
            try connection.run(countUpsert(rows: statement.count, after: 0), statement.flatMap { $0 })
        }
    }

    /// The parameters of each row `counts` adds to: form, answer, hour, count; in the order of the
    /// rows' key, as erasures and edits lock them, so that two transactions never wait for each other.
    private static func countRows(_ counts: CountIncrements) -> [[PostgresConnection.Parameter]] {
        counts.sorted.map { key, count in
            [.text(key.form), .text(key.answer), .text(String(key.hour)), .text(String(count))]
        }
    }

    /// An upsert adding `rows` rows to `submission_counts`, its parameters numbered after the first `after`.
    private static func countUpsert(rows: Int, after: Int) -> String {
        let values = (0..<rows).map { row in
            let first = after + row * 4
            return "($\(first + 1), $\(first + 2), $\(first + 3)::bigint, $\(first + 4)::bigint)"
        }
        return "INSERT INTO submission_counts (form, answer, hour, count) VALUES " + values.joined(separator: ", ")
            + " ON CONFLICT (form, answer, hour) DO UPDATE SET count = submission_counts.count + excluded.count"
    }

    /// Inserts `deliveries` inside the transaction under way on `connection`.
    static func insertDeliveries(_ deliveries: [StoredDelivery], on connection: PostgresConnection) throws(StoreError) {
        for statement in statements(deliveries.map(PostgresOutbox.row)) {
            try connection.run(
                insertion(
                    "deliveries (id, submission, form, kind, destination, secret_name, body, state, attempts, due, "
                        + "created, version, lease)", columns: 13, rows: statement.count), statement.flatMap { $0 })
        }
    }

    /// `rows` cut into statements each within the protocol's 65,535 parameters and some 64 MiB: a burst
    /// of uploads is several statements of one transaction, never one statement too large to send.
    static func statements(_ rows: [[PostgresConnection.Parameter]]) -> [[[PostgresConnection.Parameter]]] {
        var statements: [[[PostgresConnection.Parameter]]] = []
        var current: [[PostgresConnection.Parameter]] = []
        var parameters = 0
        var bytes = 0
        for row in rows {
            let size = row.reduce(0) { $0 + $1.count }
            if !current.isEmpty, parameters + row.count > 60_000 || bytes + size > 64 << 20 {
                statements.append(current)
                current = []
                parameters = 0
                bytes = 0
            }
            current.append(row)
            parameters += row.count
            bytes += size
        }
        if !current.isEmpty { statements.append(current) }
        return statements
    }

    /// `INSERT INTO table VALUES ($1, …), (…)` for `rows` rows of `columns` parameters.
    static func insertion(_ table: String, columns: Int, rows: Int) -> String {
        let values = (0..<rows).map { row in
            "(" + (1...columns).map { "$\(row * columns + $0)" }.joined(separator: ", ") + ")"
        }
        return "INSERT INTO \(table) VALUES " + values.joined(separator: ", ")
    }
}
