/// The SQLite store's schema, in numbered steps. `run` brings a database to the newest inside one
/// transaction that takes the write lock first, so servers starting together on one file migrate it
/// once: the others wait, then find it done.
enum SQLiteMigrations {
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
        """,
        """
        CREATE TABLE api_keys (
            name TEXT PRIMARY KEY,
            hash TEXT NOT NULL UNIQUE,
            scopes TEXT NOT NULL,
            forms TEXT NOT NULL,
            created TEXT NOT NULL
        );
        """,
        """
        CREATE TABLE held_uploads (
            reference TEXT PRIMARY KEY,
            form TEXT NOT NULL,
            tag TEXT NOT NULL,
            filename TEXT NOT NULL,
            content_type TEXT NOT NULL,
            bytes BLOB NOT NULL,
            expires INTEGER NOT NULL
        );
        CREATE INDEX held_uploads_by_expiry ON held_uploads (expires);
        """,
        // Edits (a form's `editable`): the current version stays in `submissions`; those it replaced
        // move to `submission_versions`; files carry the version they belong to.
        """
        ALTER TABLE submissions ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
        ALTER TABLE submissions ADD COLUMN edited TEXT;
        ALTER TABLE submission_files ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
        CREATE TABLE submission_versions (
            submission TEXT NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
            version INTEGER NOT NULL,
            saved TEXT NOT NULL,
            http_parameters TEXT NOT NULL,
            form_values TEXT NOT NULL,
            PRIMARY KEY (submission, version)
        ) WITHOUT ROWID;
        """,
        // Delivery jobs (a form's `deliver`), written with their submissions: the transactional outbox.
        // A job's id starts with its submission's (`StoredDelivery.ids(of:)`): its primary key finds a
        // submission's jobs, and erasure removes them by it, with no index on `submission` to keep up
        // at every post.
        """
        CREATE TABLE deliveries (
            id TEXT PRIMARY KEY,
            submission TEXT NOT NULL,
            form TEXT NOT NULL,
            kind TEXT NOT NULL,
            destination TEXT NOT NULL,
            secret_name TEXT NOT NULL,
            body TEXT NOT NULL,
            state TEXT NOT NULL,
            attempts INTEGER NOT NULL,
            due INTEGER NOT NULL,
            lease INTEGER NOT NULL,
            created TEXT NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX deliveries_pending ON deliveries (due) WHERE state = 'pending';
        CREATE INDEX deliveries_open ON deliveries (form, state) WHERE state <> 'delivered';
        CREATE TABLE delivery_attempts (
            delivery TEXT NOT NULL REFERENCES deliveries (id) ON DELETE CASCADE,
            number INTEGER NOT NULL,
            at TEXT NOT NULL,
            delivered INTEGER NOT NULL,
            status INTEGER,
            error TEXT,
            milliseconds INTEGER NOT NULL,
            PRIMARY KEY (delivery, number)
        ) WITHOUT ROWID;
        """,
        // A webhook's body is made when it is sent, from the payloads of the version its job names (the
        // version is in the job's id until now), so the outbox keeps no second copy of them. Jobs are
        // indexed by form only once they fail; pending ones are counted from the index that claims them.
        // A post then writes a small row and one index entry for each job, not a copy of its payloads
        // and two.
        """
        ALTER TABLE deliveries ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
        UPDATE deliveries SET
            version = CAST(substr(id, length(submission) + 6, instr(substr(id, length(submission) + 6), '_') - 1)
                AS INTEGER),
            body = CASE kind WHEN 'webhook' THEN '' ELSE body END;
        DROP INDEX deliveries_open;
        DROP INDEX deliveries_pending;
        CREATE INDEX deliveries_pending ON deliveries (due, form) WHERE state = 'pending';
        CREATE INDEX deliveries_failed ON deliveries (form, created) WHERE state = 'failed';
        """,
        // The operator's view (`SubmissionCounts`): submissions and answers counted per form and hour as
        // they are kept, so counts and charts read a few rows, not every submission. A submission keeps
        // the answers it was counted under, one per line, to take them back when it is erased or edited.
        // Sessions keep the SHA-256 of their cookie and of the key that opened them.
        """
        ALTER TABLE submissions ADD COLUMN answers TEXT NOT NULL DEFAULT '';
        CREATE TABLE submission_counts (
            form TEXT NOT NULL,
            answer TEXT NOT NULL,
            hour INTEGER NOT NULL,
            count INTEGER NOT NULL,
            PRIMARY KEY (form, answer, hour)
        ) WITHOUT ROWID;
        INSERT INTO submission_counts (form, answer, hour, count)
        SELECT form, '', CAST(strftime('%s', substr(received, 1, 19)) AS INTEGER) / 3600, count(*)
        FROM submissions GROUP BY 1, 3;
        CREATE TABLE admin_sessions (
            hash TEXT PRIMARY KEY,
            key_hash TEXT NOT NULL,
            expires INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX admin_sessions_by_expiry ON admin_sessions (expires);
        """,
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
