/// The PostgreSQL store's schema, in numbered steps, as `SQLiteMigrations` is SQLite's. Ids compare in
/// the "C" collation, byte by byte, whatever the database's own: their order is their time's. `run` takes a
/// transaction-scoped advisory lock first, so servers starting together on one database migrate it
/// once: the others wait for the lock, then find it done.
enum PostgresMigrations {
    /// Step `n + 1` is `steps[n]`.
    static let steps = [
        """
        CREATE TABLE submissions (
            id text COLLATE "C" PRIMARY KEY,
            form text NOT NULL,
            received text NOT NULL,
            http_parameters text NOT NULL,
            form_values text NOT NULL
        );
        CREATE INDEX submissions_by_form ON submissions (form, id);
        CREATE TABLE submission_files (
            seq bigserial PRIMARY KEY,
            submission text COLLATE "C" NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
            tag text NOT NULL,
            filename text NOT NULL,
            content_type text NOT NULL,
            bytes bytea NOT NULL
        );
        CREATE INDEX submission_files_by_submission ON submission_files (submission);
        """,
        """
        CREATE TABLE api_keys (
            name text PRIMARY KEY,
            hash text NOT NULL UNIQUE,
            scopes text NOT NULL,
            forms text NOT NULL,
            created text NOT NULL
        );
        """,
        """
        CREATE TABLE held_uploads (
            reference text PRIMARY KEY,
            form text NOT NULL,
            tag text NOT NULL,
            filename text NOT NULL,
            content_type text NOT NULL,
            bytes bytea NOT NULL,
            expires bigint NOT NULL
        );
        CREATE INDEX held_uploads_by_expiry ON held_uploads (expires);
        """,
        // Edits (a form's `editable`): the current version stays in `submissions`; those it replaced
        // move to `submission_versions`; files carry the version they belong to.
        """
        ALTER TABLE submissions ADD COLUMN version integer NOT NULL DEFAULT 1, ADD COLUMN edited text;
        ALTER TABLE submission_files ADD COLUMN version integer NOT NULL DEFAULT 1;
        CREATE TABLE submission_versions (
            submission text COLLATE "C" NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
            version integer NOT NULL,
            saved text NOT NULL,
            http_parameters text NOT NULL,
            form_values text NOT NULL,
            PRIMARY KEY (submission, version)
        );
        """,
        // Delivery jobs (a form's `deliver`), written with their submissions: the transactional outbox.
        // A job's id starts with its submission's (`StoredDelivery.ids(of:)`): its primary key finds a
        // submission's jobs, and erasure removes them by it, with no index on `submission` to keep up
        // at every post.
        """
        CREATE TABLE deliveries (
            id text COLLATE "C" PRIMARY KEY,
            submission text COLLATE "C" NOT NULL,
            form text NOT NULL,
            kind text NOT NULL,
            destination text NOT NULL,
            secret_name text NOT NULL,
            body text NOT NULL,
            state text NOT NULL,
            attempts integer NOT NULL,
            due bigint NOT NULL,
            lease bigint NOT NULL,
            created text NOT NULL
        );
        CREATE INDEX deliveries_pending ON deliveries (due) WHERE state = 'pending';
        CREATE INDEX deliveries_open ON deliveries (form, state) WHERE state <> 'delivered';
        CREATE TABLE delivery_attempts (
            delivery text COLLATE "C" NOT NULL REFERENCES deliveries (id) ON DELETE CASCADE,
            number integer NOT NULL,
            at text NOT NULL,
            delivered boolean NOT NULL,
            status integer,
            error text,
            milliseconds integer NOT NULL,
            PRIMARY KEY (delivery, number)
        );
        """,
        // A webhook's body is made when it is sent, from the payloads of the version its job names (the
        // version is in the job's id until now), so the outbox keeps no second copy of them. Jobs are
        // indexed by form only once they fail; pending ones are counted from the index that claims them.
        // A post then writes a small row and one index entry for each job, not a copy of its payloads
        // and two.
        """
        ALTER TABLE deliveries ADD COLUMN version integer NOT NULL DEFAULT 1;
        UPDATE deliveries SET
            version = split_part(substr(id, length(submission) + 6), '_', 1)::integer,
            body = CASE kind WHEN 'webhook' THEN '' ELSE body END;
        DROP INDEX deliveries_open;
        DROP INDEX deliveries_pending;
        CREATE INDEX deliveries_pending ON deliveries (due, form) WHERE state = 'pending';
        CREATE INDEX deliveries_failed ON deliveries (form, created) WHERE state = 'failed';
        """,
        // The operator's view, as in `SQLiteMigrations` step 7.
        """
        ALTER TABLE submissions ADD COLUMN answers text NOT NULL DEFAULT '';
        CREATE TABLE submission_counts (
            form text NOT NULL,
            answer text COLLATE "C" NOT NULL,
            hour bigint NOT NULL,
            count bigint NOT NULL,
            PRIMARY KEY (form, answer, hour)
        );
        INSERT INTO submission_counts (form, answer, hour, count)
        SELECT form, '', floor(extract(epoch FROM substr(received, 1, 19)::timestamp) / 3600)::bigint, count(*)
        FROM submissions GROUP BY 1, 3;
        CREATE TABLE admin_sessions (
            hash text PRIMARY KEY,
            key_hash text NOT NULL,
            expires bigint NOT NULL
        );
        CREATE INDEX admin_sessions_by_expiry ON admin_sessions (expires);
        """,
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
