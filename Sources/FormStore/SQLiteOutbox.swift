import Dispatch

/// The delivery jobs of an SQLite store, on the store's connection and queue: one server uses an
/// SQLite file, so one worker claims its jobs. `@unchecked Sendable`: its statements are used on the
/// queue alone.
///
/// A claim reads the jobs due and writes no lease: the worker records a round before it claims the
/// next, and a job is never in two rounds. Attempts are committed without waiting for the disk (`synchronous=NORMAL`, the next
/// submission's commit flushes them): a crash may forget the last of them, and those jobs are then sent
/// again, which a receiver drops by `webhook-id`. The jobs themselves are written with their
/// submission, flushed before it is answered.
final class SQLiteOutbox: DeliveryOutbox, @unchecked Sendable {
    private let database: SQLiteDatabase
    private let queue: DispatchQueue
    private let claimDue: SQLiteDatabase.Statement
    private let addAttempt: SQLiteDatabase.Statement
    private let update: SQLiteDatabase.Statement
    private let ofSubmission: SQLiteDatabase.Statement
    private let attempts: SQLiteDatabase.Statement
    private let inState: SQLiteDatabase.Statement
    private let again: SQLiteDatabase.Statement
    private let count: SQLiteDatabase.Statement

    /// The columns of a job, in the order `delivery(_:)` reads them.
    static let columns =
        "id, submission, form, kind, destination, secret_name, body, state, attempts, due, created, version"

    /// The outbox of `database`, whose calls run on `queue`.
    init(database: SQLiteDatabase, queue: DispatchQueue) throws(StoreError) {
        self.database = database
        self.queue = queue
        let columns = Self.columns
        // One worker claims an SQLite file's jobs, and records each round before it claims the next: a
        // claim needs no lease written, only the jobs due.
        // A webhook's payloads come with it: the version it names is the submission's current one, or one
        // an edit replaced.
        claimDue = try database.prepare(
            """
            SELECT \(Self.columns(of: "d")),
                CASE WHEN d.kind = 'webhook' THEN coalesce(v.http_parameters, s.http_parameters) END,
                CASE WHEN d.kind = 'webhook' THEN coalesce(v.form_values, s.form_values) END
            FROM deliveries d
            LEFT JOIN submissions s ON s.id = d.submission AND s.version = d.version
            LEFT JOIN submission_versions v ON v.submission = d.submission AND v.version = d.version
            WHERE d.state = 'pending' AND d.due <= CAST(?1 AS INTEGER)
            ORDER BY d.due, d.id LIMIT CAST(?2 AS INTEGER)
            """)
        // Only for a job still there: one erased with its submission during the round is no failure of the
        // round. An empty status or error is NULL.
        addAttempt = try database.prepare(
            """
            INSERT INTO delivery_attempts (delivery, number, at, delivered, status, error, milliseconds)
            SELECT ?1, CAST(?2 AS INTEGER), ?3, CAST(?4 AS INTEGER), CAST(NULLIF(?5, '') AS INTEGER), NULLIF(?6, ''),
                CAST(?7 AS INTEGER)
            WHERE EXISTS (SELECT 1 FROM deliveries WHERE id = ?1)
            """)
        update = try database.prepare(
            """
            UPDATE deliveries SET state = ?, attempts = CAST(? AS INTEGER), due = CAST(? AS INTEGER), lease = 0
            WHERE id = ?
            """)
        ofSubmission = try database.prepare(
            "SELECT \(columns) FROM deliveries WHERE id >= ? AND id < ? AND form = ? ORDER BY id")
        attempts = try database.prepare(
            """
            SELECT number, at, delivered, status, error, milliseconds FROM delivery_attempts
            WHERE delivery = ? ORDER BY number
            """)
        inState = try database.prepare(
            "SELECT \(columns) FROM deliveries WHERE form = ? AND state = ? ORDER BY created DESC, id LIMIT CAST(? AS INTEGER)"
        )
        again = try database.prepare(
            "UPDATE deliveries SET state = 'pending', due = CAST(? AS INTEGER), lease = 0 WHERE form = ? AND id = ?")
        // Each state counted from its own index.
        count = try database.prepare(
            """
            SELECT form, 'pending', count(*) FROM deliveries WHERE state = 'pending' GROUP BY form
            UNION ALL SELECT form, 'failed', count(*) FROM deliveries WHERE state = 'failed' GROUP BY form
            """)
    }

    func claim(now: UInt64, lease: UInt64, limit: Int) throws(StoreError) -> [StoredDelivery] {
        try onQueue { () throws(StoreError) in
            try claimDue.bind([String(now), String(limit)])
            return try claimDue.rows(Self.delivery).compactMap { $0 }
        }
    }

    func record(_ results: [DeliveryResult]) throws(StoreError) {
        try onQueue { () throws(StoreError) in
            try database.execute("PRAGMA synchronous=NORMAL")
            defer { try? database.execute("PRAGMA synchronous=FULL") }
            try database.execute("BEGIN IMMEDIATE")
            do throws(StoreError) {
                for result in results {
                    let attempt = result.attempt
                    try addAttempt.bind([
                        result.id, String(attempt.number), attempt.at, attempt.delivered ? "1" : "0",
                        attempt.status.map(String.init) ?? "", attempt.error ?? "", String(attempt.milliseconds),
                    ])
                    try addAttempt.run()
                    try update.bind([result.state.rawValue, String(attempt.number), String(result.due), result.id])
                    try update.run()
                }
                try database.execute("COMMIT")
            } catch {
                try? database.execute("ROLLBACK")
                throw error
            }
        }
    }

    func deliveries(
        formID: String, submission id: SubmissionID
    ) throws(StoreError) -> [(
        delivery: StoredDelivery, attempts: [DeliveryAttempt]
    )] {
        try onQueue { () throws(StoreError) in
            let range = StoredDelivery.ids(of: id)
            try ofSubmission.bind([range.from, range.before, formID])
            let jobs = try ofSubmission.rows(Self.delivery).compactMap { $0 }
            return try jobs.map { (job) throws(StoreError) in
                try attempts.bind([job.id])
                let log = try attempts.rows { columns in
                    DeliveryAttempt(
                        number: Int(columns.text(0) ?? "") ?? 0, at: columns.text(1) ?? "",
                        delivered: columns.text(2) == "1", status: columns.text(3).flatMap { Int($0) },
                        error: columns.text(4).flatMap { $0.isEmpty ? nil : $0 },
                        milliseconds: Int(columns.text(5) ?? "") ?? 0)
                }
                return (job, log)
            }
        }
    }

    func deliveries(formID: String, state: DeliveryState, limit: Int) throws(StoreError) -> [StoredDelivery] {
        try onQueue { () throws(StoreError) in
            try inState.bind([formID, state.rawValue, String(limit)])
            return try inState.rows(Self.delivery).compactMap { $0 }
        }
    }

    func retry(formID: String, id: String, now: UInt64) throws(StoreError) -> Bool {
        try onQueue { () throws(StoreError) in
            try again.bind([String(now), formID, id])
            try again.run()
            return database.changes > 0
        }
    }

    func counts() throws(StoreError) -> [String: DeliveryCount] {
        try onQueue { () throws(StoreError) in
            DeliveryCount.tally(
                try count.rows().map { row in (row[0] ?? "", row[1] ?? "", row[2].flatMap { Int($0) } ?? 0) })
        }
    }

    /// `work` on the store's queue, its error rethrown here.
    private func onQueue<T>(_ work: () throws(StoreError) -> T) throws(StoreError) -> T {
        try queue.sync { Result { () throws(StoreError) in try work() } }.get()
    }

    /// `columns`, each of table `alias`.
    static func columns(of alias: String) -> String {
        columns.split(separator: ", ").map { "\(alias).\($0)" }.joined(separator: ", ")
    }

    /// The job of the columns `columns` (with its payloads when two columns follow them); nil for a row
    /// that is none (an id or state it cannot read).
    static func delivery(_ columns: borrowing SQLiteDatabase.Columns) -> StoredDelivery? {
        guard let submission = columns.text(1).flatMap(SubmissionID.init),
            let state = columns.text(7).flatMap(DeliveryState.init(rawValue:))
        else { return nil }
        var payloads: DeliveryPayloads?
        if columns.count > 13, let httpParameters = columns.text(12), let formValues = columns.text(13) {
            payloads = DeliveryPayloads(httpParameters: httpParameters, formValues: formValues)
        }
        return StoredDelivery(
            id: columns.text(0) ?? "", submission: submission, version: Int(columns.text(11) ?? "") ?? 1,
            formID: columns.text(2) ?? "", kind: columns.text(3) ?? "", destination: columns.text(4) ?? "",
            secretName: columns.text(5) ?? "", body: columns.text(6) ?? "", state: state,
            attempts: Int(columns.text(8) ?? "") ?? 0, due: UInt64(columns.text(9) ?? "") ?? 0,
            created: columns.text(10) ?? "", payloads: payloads)
    }
}
