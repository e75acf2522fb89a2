import Dispatch

/// The delivery jobs of a PostgreSQL store, on a connection of their own, so claiming and recording
/// holds up neither posts nor reads. Every server on the database claims from it: `FOR UPDATE SKIP
/// LOCKED` lets each take rows the others are not taking, and a lease keeps a claimed job from every
/// other worker until it ends.
final class PostgresOutbox: DeliveryOutbox {
    private let connection: PostgresConnection
    private let queue = DispatchQueue(label: "formwright.store.postgres.outbox")

    /// The columns of a job, in the order `delivery(_:)` reads them.
    static let columns = columns(of: "deliveries")

    /// The columns of a job in table `alias`, in the order `delivery(_:)` reads them.
    static func columns(of alias: String) -> String {
        [
            "id", "submission", "form", "kind", "destination", "secret_name", "body", "state", "attempts::text",
            "due::text", "created", "version::text",
        ].map { "\(alias).\($0)" }.joined(separator: ", ")
    }

    /// The outbox of the database at `url` (`name` for messages).
    init(url: String, name: String) throws(StoreError) {
        connection = try PostgresConnection(url: url, name: name)
    }

    func claim(now: UInt64, lease: UInt64, limit: Int) throws(StoreError) -> [StoredDelivery] {
        try onQueue { () throws(StoreError) in
            // Oldest due first, as they were chosen: RETURNING keeps no order of its own. A webhook's
            // payloads come with it: the version it names is the submission's current one, or one an edit
            // replaced.
            try connection.run(
                """
                WITH claimed AS (
                    UPDATE deliveries SET lease = $1::bigint WHERE id IN (
                        SELECT id FROM deliveries WHERE state = 'pending' AND due <= $2::bigint AND lease <= $2::bigint
                        ORDER BY due LIMIT $3::integer FOR UPDATE SKIP LOCKED)
                    RETURNING *)
                SELECT \(Self.columns(of: "c")),
                    CASE WHEN c.kind = 'webhook' THEN coalesce(v.http_parameters, s.http_parameters) END,
                    CASE WHEN c.kind = 'webhook' THEN coalesce(v.form_values, s.form_values) END
                FROM claimed c
                LEFT JOIN submissions s ON s.id = c.submission AND s.version = c.version
                LEFT JOIN submission_versions v ON v.submission = c.submission AND v.version = c.version
                ORDER BY c.due, c.id
                """, [.text(String(lease)), .text(String(now)), .text(String(limit))]
            ).compactMap(Self.delivery)
        }
    }

    func record(_ results: [DeliveryResult]) throws(StoreError) {
        guard !results.isEmpty else { return }
        try onQueue { () throws(StoreError) in
            try connection.execute("BEGIN")
            do throws(StoreError) {
                // Only for jobs still there: one erased with its submission during the round is no failure
                // of the round.
                for statement in PostgresSubmissionStore.statements(results.map(Self.attemptRow)) {
                    let values = (0..<statement.count).map { row in
                        let at = row * 7
                        return
                            "($\(at + 1), $\(at + 2)::integer, $\(at + 3), $\(at + 4)::boolean, $\(at + 5)::integer, "
                            + "$\(at + 6), $\(at + 7)::integer)"
                    }.joined(separator: ", ")
                    try connection.run(
                        """
                        INSERT INTO delivery_attempts (delivery, number, at, delivered, status, error, milliseconds)
                        SELECT v.* FROM (VALUES \(values)) AS v (delivery, number, at, delivered, status, error, milliseconds)
                        WHERE EXISTS (SELECT 1 FROM deliveries d WHERE d.id = v.delivery)
                        """, statement.flatMap { $0 })
                }
                // One statement for every job's new state: a batch of hundreds costs one round trip.
                let rows = results.map { result -> [PostgresConnection.Parameter] in
                    [
                        .text(result.id), .text(result.state.rawValue), .text(String(result.attempt.number)),
                        .text(String(result.due)),
                    ]
                }
                for statement in PostgresSubmissionStore.statements(rows) {
                    let values = (0..<statement.count).map { row in
                        "($\(row * 4 + 1), $\(row * 4 + 2), $\(row * 4 + 3)::integer, $\(row * 4 + 4)::bigint)"
                    }.joined(separator: ", ")
                    try connection.run(
                        """
                        UPDATE deliveries AS d SET state = v.state, attempts = v.attempts, due = v.due, lease = 0
                        FROM (VALUES \(values)) AS v (id, state, attempts, due) WHERE d.id = v.id
                        """, statement.flatMap { $0 })
                }
                try connection.execute("COMMIT")
            } catch {
                try? connection.execute("ROLLBACK")
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
            let jobs = try connection.run(
                "SELECT \(Self.columns) FROM deliveries WHERE id >= $1 AND id < $2 AND form = $3 ORDER BY id",
                [.text(StoredDelivery.ids(of: id).from), .text(StoredDelivery.ids(of: id).before), .text(formID)]
            ).compactMap(Self.delivery)
            return try jobs.map { (job) throws(StoreError) in
                let log = try connection.run(
                    """
                    SELECT number::text, at, delivered::text, status::text, error, milliseconds::text
                    FROM delivery_attempts WHERE delivery = $1 ORDER BY number
                    """, [.text(job.id)]
                ).map { row in
                    DeliveryAttempt(
                        number: Int(row[0].text) ?? 0, at: row[1].text,
                        delivered: row[2].text == "t"
                            || row[2].text == "true", status: Int(row[3].text),
                        error: row[4].nullableText, milliseconds: Int(row[5].text) ?? 0)
                }
                return (job, log)
            }
        }
    }

    func deliveries(formID: String, state: DeliveryState, limit: Int) throws(StoreError) -> [StoredDelivery] {
        try onQueue { () throws(StoreError) in
            try connection.run(
                """
                SELECT \(Self.columns) FROM deliveries WHERE form = $1 AND state = $2
                ORDER BY created DESC, id LIMIT $3::integer
                """, [.text(formID), .text(state.rawValue), .text(String(limit))]
            ).compactMap(Self.delivery)
        }
    }

    func retry(formID: String, id: String, now: UInt64) throws(StoreError) -> Bool {
        try onQueue { () throws(StoreError) in
            try !connection.run(
                """
                UPDATE deliveries SET state = 'pending', due = $1::bigint WHERE form = $2 AND id = $3
                RETURNING id
                """, [.text(String(now)), .text(formID), .text(id)]
            ).isEmpty
        }
    }

    func counts() throws(StoreError) -> [String: DeliveryCount] {
        try onQueue { () throws(StoreError) in
            DeliveryCount.tally(
                try connection.run(
                    """
                    SELECT form, 'pending', count(*)::text FROM deliveries WHERE state = 'pending' GROUP BY form
                    UNION ALL SELECT form, 'failed', count(*)::text FROM deliveries WHERE state = 'failed' GROUP BY form
                    """
                ).map { row in (row[0].text, row[1].text, Int(row[2].text) ?? 0) })
        }
    }

    /// `work` on the outbox's queue, its error rethrown here.
    private func onQueue<T>(_ work: () throws(StoreError) -> T) throws(StoreError) -> T {
        try queue.sync { Result { () throws(StoreError) in try work() } }.get()
    }

    /// A job as a row of `deliveries` for an insertion, lease ended.
    static func row(_ job: StoredDelivery) -> [PostgresConnection.Parameter] {
        [
            .text(job.id), .text(job.submission.description), .text(job.formID), .text(job.kind),
            .text(job.destination), .text(job.secretName), .text(job.body), .text(job.state.rawValue),
            .text(String(job.attempts)), .text(String(job.due)), .text(job.created), .text(String(job.version)),
            .text("0"),
        ]
    }

    /// An attempt as a row of `delivery_attempts`.
    private static func attemptRow(_ result: DeliveryResult) -> [PostgresConnection.Parameter] {
        let attempt = result.attempt
        return [
            .text(result.id), .text(String(attempt.number)), .text(attempt.at), .text(attempt.delivered ? "t" : "f"),
            attempt.status.map { .text(String($0)) } ?? .null, attempt.error.map { .text($0) } ?? .null,
            .text(String(attempt.milliseconds)),
        ]
    }

    /// The job of `row` (with its payloads when two columns follow the job's); nil for a row that is none.
    private static func delivery(_ row: [[UInt8]?]) -> StoredDelivery? {
        guard let submission = SubmissionID(row[1].text), let state = DeliveryState(rawValue: row[7].text) else {
            return nil
        }
        var payloads: DeliveryPayloads?
        if row.count > 13, row[12] != nil, row[13] != nil {
            payloads = DeliveryPayloads(httpParameters: row[12].text, formValues: row[13].text)
        }
        return StoredDelivery(
            id: row[0].text, submission: submission, version: Int(row[11].text) ?? 1, formID: row[2].text,
            kind: row[3].text, destination: row[4].text, secretName: row[5].text, body: row[6].text,
            state: state, attempts: Int(row[8].text) ?? 0, due: UInt64(row[9].text) ?? 0, created: row[10].text,
            payloads: payloads)
    }
}
