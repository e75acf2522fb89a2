/// What the operator's view reads of a PostgreSQL store: the kept counts and the sessions, on the
/// connection of reads.
extension PostgresSubmissionStore {
    public func counts(formID: String, sinceHour: Int) throws(StoreError) -> SubmissionCounts {
        try onReader { () throws(StoreError) in
            let summary = try reader.run(
                """
                SELECT (SELECT coalesce(sum(count), 0)::text FROM submission_counts WHERE form = $1 AND answer = ''),
                (SELECT max(id) FROM submissions WHERE form = $1)
                """, [.text(formID)])
            var counts = SubmissionCounts(
                total: summary.first.flatMap { Int($0[0].text) } ?? 0,
                last: summary.first.flatMap { SubmissionID($0[1].text) })
            let hours = try reader.run(
                """
                SELECT hour::text, count::text FROM submission_counts
                WHERE form = $1 AND answer = '' AND hour >= $2::bigint AND count > 0
                """, [.text(formID), .text(String(sinceHour))])
            for row in hours {
                guard let hour = Int(row[0].text), let count = Int(row[1].text) else { continue }
                counts.hours[hour] = count
            }
            return counts
        }
    }

    public func answerCounts(formID: String, sinceHour: Int) throws(StoreError) -> [String: Int] {
        try onReader { () throws(StoreError) in
            var counts: [String: Int] = [:]
            for row in try reader.run(
                """
                SELECT answer, sum(count)::text FROM submission_counts
                WHERE form = $1 AND answer <> '' AND hour >= $2::bigint GROUP BY answer HAVING sum(count) > 0
                """, [.text(formID), .text(String(sinceHour))])
            {
                guard let count = Int(row[1].text) else { continue }
                counts[row[0].text] = count
            }
            return counts
        }
    }

    public func openSession(_ session: AdminSession, now: UInt64) throws(StoreError) {
        try onReader { () throws(StoreError) in
            _ = try reader.run("DELETE FROM admin_sessions WHERE expires < $1::bigint", [.text(String(now))])
            _ = try reader.run(
                "INSERT INTO admin_sessions (hash, key_hash, expires) VALUES ($1, $2, $3::bigint)",
                [.text(session.hash), .text(session.keyHash), .text(String(session.expires))])
        }
    }

    public func session(hash: String, now: UInt64) throws(StoreError) -> (session: AdminSession, key: StoredKey)? {
        try onReader { () throws(StoreError) in
            guard
                let row = try reader.run(
                    """
                    SELECT s.expires::text, k.name, k.hash, k.scopes, k.forms, k.created
                    FROM admin_sessions s JOIN api_keys k ON k.hash = s.key_hash
                    WHERE s.hash = $1 AND s.expires >= $2::bigint
                    """, [.text(hash), .text(String(now))]
                ).first, let expires = UInt64(row[0].text)
            else { return nil }
            let key = Self.key(Array(row.dropFirst()))
            return (AdminSession(hash: hash, keyHash: key.hash, expires: expires), key)
        }
    }

    public func closeSession(hash: String) throws(StoreError) {
        try onReader { () throws(StoreError) in
            _ = try reader.run("DELETE FROM admin_sessions WHERE hash = $1", [.text(hash)])
        }
    }
}
