/// What the operator's view reads of an SQLite store: the kept counts and the sessions. Its few
/// statements are prepared at each call: a page view makes a handful, and a post none.
extension SQLiteSubmissionStore {
    public func counts(formID: String, sinceHour: Int) throws(StoreError) -> SubmissionCounts {
        try onQueue { () throws(StoreError) in
            let database = connection.database
            let total = try database.prepare(
                "SELECT coalesce(sum(count), 0) FROM submission_counts WHERE form = ? AND answer = ''")
            try total.bind([formID])
            let hours = try database.prepare(
                """
                SELECT hour, count FROM submission_counts
                WHERE form = ? AND answer = '' AND hour >= CAST(? AS INTEGER) AND count > 0
                """)
            try hours.bind([formID, String(sinceHour)])
            // The index on (form, id) gives the newest at once.
            let last = try database.prepare("SELECT max(id) FROM submissions WHERE form = ?")
            try last.bind([formID])
            var counts = SubmissionCounts(
                total: (try total.rows().first?.first).flatMap { $0 }.flatMap { Int($0) } ?? 0,
                last: (try last.rows().first?.first).flatMap { $0 }.flatMap(SubmissionID.init))
            for row in try hours.rows() {
                guard let hour = row[0].flatMap({ Int($0) }), let count = row[1].flatMap({ Int($0) }) else { continue }
                counts.hours[hour] = count
            }
            return counts
        }
    }

    public func answerCounts(formID: String, sinceHour: Int) throws(StoreError) -> [String: Int] {
        try onQueue { () throws(StoreError) in
            let statement = try connection.database.prepare(
                """
                SELECT answer, sum(count) FROM submission_counts
                WHERE form = ? AND answer <> '' AND hour >= CAST(? AS INTEGER) GROUP BY answer HAVING sum(count) > 0
                """)
            try statement.bind([formID, String(sinceHour)])
            var counts: [String: Int] = [:]
            for row in try statement.rows() {
                guard let answer = row[0], let count = row[1].flatMap({ Int($0) }) else { continue }
                counts[answer] = count
            }
            return counts
        }
    }

    public func openSession(_ session: AdminSession, now: UInt64) throws(StoreError) {
        try onQueue { () throws(StoreError) in
            let database = connection.database
            let ended = try database.prepare("DELETE FROM admin_sessions WHERE expires < CAST(? AS INTEGER)")
            try ended.bind([String(now)])
            try ended.run()
            let insert = try database.prepare(
                "INSERT INTO admin_sessions (hash, key_hash, expires) VALUES (?, ?, CAST(? AS INTEGER))")
            try insert.bind([session.hash, session.keyHash, String(session.expires)])
            try insert.run()
        }
    }

    public func session(hash: String, now: UInt64) throws(StoreError) -> (session: AdminSession, key: StoredKey)? {
        try onQueue { () throws(StoreError) in
            let statement = try connection.database.prepare(
                """
                SELECT s.expires, k.name, k.hash, k.scopes, k.forms, k.created
                FROM admin_sessions s JOIN api_keys k ON k.hash = s.key_hash
                WHERE s.hash = ? AND s.expires >= CAST(? AS INTEGER)
                """)
            try statement.bind([hash, String(now)])
            guard let row = try statement.rows().first, let expires = row[0].flatMap({ UInt64($0) }) else {
                return nil
            }
            let key = StoredKey(columns: row.dropFirst().map { $0 ?? "" })
            return (AdminSession(hash: hash, keyHash: key.hash, expires: expires), key)
        }
    }

    public func closeSession(hash: String) throws(StoreError) {
        try onQueue { () throws(StoreError) in
            let statement = try connection.database.prepare("DELETE FROM admin_sessions WHERE hash = ?")
            try statement.bind([hash])
            try statement.run()
        }
    }
}

/// The kept counts, as the store's writes change them.
extension SQLiteSubmissionStore.Connection {
    /// Adds `counts` to the kept counts, inside the transaction under way.
    func count(_ counts: CountIncrements) throws(StoreError) {
        for (key, count) in counts.rows {
            try countUp.bind([key.form, key.answer, String(key.hour), String(count)])
            try countUp.run()
        }
    }

    /// Takes back what submission `id` of form `formID` was counted under, inside the transaction
    /// under way: its answers, and the submission itself when `submission` (an erasure, not an edit).
    /// Nothing, when the form has no such submission.
    func uncount(formID: String, id: SubmissionID, submission: Bool) throws(StoreError) {
        try answers.bind([formID, id.description])
        guard let column = try answers.rows().first?.first else { return }
        let lines = (column ?? "").split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        for answer in (submission ? [""] : []) + lines {
            try countDown.bind([formID, answer, String(id.hour)])
            try countDown.run()
        }
    }
}
