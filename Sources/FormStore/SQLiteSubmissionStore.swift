import Dispatch
import Synchronization

/// Valid submissions kept in an SQLite database file: durable once `keep` returns.
///
/// The database runs in WAL mode with `synchronous=FULL`, so a committed transaction survives a
/// crash or a power cut; submissions that arrive together share a transaction (`GroupCommit`).
/// Reads and erasures run on the writes' queue, on the one connection; a cursor opens its own, which
/// WAL lets read while the store writes.
public final class SQLiteSubmissionStore: SubmissionDatabase {
    /// The database file.
    public let path: String
    /// The file, for messages.
    public var name: String { path }
    private let commits: GroupCommit
    /// The connection, touched only on `queue`.
    let connection: Connection
    private let queue = DispatchQueue(label: "formwright.store.sqlite")
    public let outbox: any DeliveryOutbox
    /// How many transactions have committed submissions: for tests.
    var batches: Int { commits.batches.load(ordering: .relaxed) }

    /// Opens (and makes) the database at `path` and brings its schema to this version (`SQLiteMigrations`).
    /// Throws, naming the file, when it cannot be opened or written: better a server that does not
    /// start than one that loses submissions it has answered as kept. At most `backlog` submissions
    /// wait to be kept at once.
    public init(path: String, backlog: Int = 4096) throws(StoreError) {
        self.path = path
        let database = try Self.open(path)
        try SQLiteMigrations.run(on: database)
        let connection = try Connection(database)
        let queue = queue
        self.connection = connection
        outbox = try SQLiteOutbox(database: database, queue: queue)
        commits = GroupCommit(name: path, backlog: backlog) { (batch) throws(StoreError) in
            try queue.sync { Result { () throws(StoreError) in try connection.insert(batch) } }.get()
        }
    }

    /// A connection to `path` with the store's settings: WAL (set outside a transaction), FULL syncs
    /// the log at each commit, and an erased submission's bytes are overwritten, not left in free pages.
    private static func open(_ path: String) throws(StoreError) -> SQLiteDatabase {
        let database = try SQLiteDatabase(path: path)
        try database.execute(
            "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON; PRAGMA secure_delete=ON;")
        return database
    }

    public func keep(_ submission: StoredSubmission) async throws(StoreError) {
        try await commits.keep(submission)
    }

    public func submissions(
        formID: String, in range: SubmissionRange, containing: String?, limit: Int
    ) throws(StoreError)
        -> [StoredSubmission]
    {
        try onQueue { () throws(StoreError) in
            let bounds = range.bounds
            let statement = containing == nil ? connection.page : connection.search
            try statement.bind(
                [formID, bounds.from, bounds.before] + (containing.map { [SearchText.folded($0)] } ?? []) + [
                    String(limit)
                ])
            return try statement.rows(Self.submission).compactMap { $0 }
        }
    }

    public func submission(formID: String, id: SubmissionID) throws(StoreError) -> StoredSubmission? {
        try onQueue { () throws(StoreError) in
            guard let submission = try connection.submission(formID: formID, id: id) else { return nil }
            return submission.with(files: try connection.files(of: id, version: submission.version).map(\.file))
        }
    }

    public func revise(_ edit: StoredSubmission, from version: Int) throws(StoreError) -> Revision {
        try onQueue { () throws(StoreError) in try connection.revise(edit, from: version) }
    }

    public func versions(formID: String, id: SubmissionID) throws(StoreError) -> [StoredVersion]? {
        try onQueue { () throws(StoreError) in
            guard let current = try connection.submission(formID: formID, id: id) else { return nil }
            let files = try connection.files(of: id, version: nil)
            try connection.versions.bind([id.description])
            let older = try connection.versions.rows { columns in
                (
                    version: Int(columns.text(0) ?? "") ?? 0, saved: columns.text(1) ?? "",
                    httpParameters: columns.text(2) ?? "", formValues: columns.text(3) ?? ""
                )
            }
            return older.map { old in
                StoredVersion(
                    version: old.version, saved: old.saved, httpParameters: old.httpParameters,
                    formValues: old.formValues, files: files.filter { $0.version == old.version }.map(\.file))
            } + [current.with(files: files.filter { $0.version == current.version }.map(\.file)).asVersion]
        }
    }

    public func cursor(
        formID: String, formValues: Bool, range: SubmissionRange, containing: String?
    ) throws(StoreError) -> any SubmissionCursor {
        try Cursor(
            database: Self.open(path), formID: formID, formValues: formValues, range: range,
            containing: containing.map(SearchText.folded))
    }

    public func delete(formID: String, id: SubmissionID) throws(StoreError) -> Bool {
        try onQueue { () throws(StoreError) in
            try connection.erase(formID: formID, id: id)
        }
    }

    public func ping() throws(StoreError) {
        try onQueue { () throws(StoreError) in
            _ = try connection.database.prepare("SELECT version FROM formwright_schema LIMIT 1").rows()
        }
    }

    public func add(_ key: StoredKey) throws(StoreError) -> Bool {
        try onQueue { () throws(StoreError) in
            try connection.addKey.bind(key.columns)
            try connection.addKey.run()
            return connection.database.changes > 0
        }
    }

    public func keys() throws(StoreError) -> [StoredKey] {
        try onQueue { () throws(StoreError) in
            try connection.keys.rows().map { StoredKey(columns: $0.map { $0 ?? "" }) }
        }
    }

    public func key(hash: String) throws(StoreError) -> StoredKey? {
        try onQueue { () throws(StoreError) in
            try connection.keyByHash.bind([hash])
            return try connection.keyByHash.rows().first.map { StoredKey(columns: $0.map { $0 ?? "" }) }
        }
    }

    public func revokeKey(named name: String) throws(StoreError) -> Bool {
        try onQueue { () throws(StoreError) in
            try connection.revokeKey.bind([name])
            try connection.revokeKey.run()
            return connection.database.changes > 0
        }
    }

    public func hold(
        _ file: StoredFile, reference: String, formID: String, expires: UInt64, now: UInt64
    ) throws(StoreError) {
        try onQueue { () throws(StoreError) in
            try connection.removeHeld.bind([String(now)])
            try connection.removeHeld.run()
            try connection.hold.bind([reference, formID, file.tag, file.filename, file.contentType, String(expires)])
            try connection.hold.bind(file.bytes, at: 7)
            try connection.hold.run()
        }
    }

    public func takeHeld(reference: String, formID: String, now: UInt64) throws(StoreError) -> StoredFile? {
        try onQueue { () throws(StoreError) in
            try connection.held.bind([reference, formID, String(now)])
            let file = try connection.held.rows { columns in
                StoredFile(
                    tag: columns.text(0) ?? "", filename: columns.text(1) ?? "", contentType: columns.text(2) ?? "",
                    bytes: columns.blob(3))
            }.first
            // Taken only when it was this form's and in time: a wrong guess consumes nothing.
            if file != nil {
                try connection.unhold.bind([reference])
                try connection.unhold.run()
            }
            return file
        }
    }

    /// `work` on the connection's queue, its error rethrown here.
    func onQueue<T>(_ work: () throws(StoreError) -> T) throws(StoreError) -> T {
        try queue.sync { Result { () throws(StoreError) in try work() } }.get()
    }

    /// What a submission's row holds, in the order its columns are read.
    static let columns = "id, form, received, http_parameters, form_values, version, edited"
    /// `columns`, `form_values` read as empty text.
    static let columnsWithoutFormValues = "id, form, received, http_parameters, '', version, edited"

    /// The submission of the columns `columns`; nil for an id that is none.
    static func submission(_ columns: borrowing SQLiteDatabase.Columns) -> StoredSubmission? {
        guard let id = columns.text(0).flatMap(SubmissionID.init) else { return nil }
        return StoredSubmission(
            id: id, formID: columns.text(1) ?? "", received: columns.text(2) ?? "",
            httpParameters: columns.text(3) ?? "", formValues: columns.text(4) ?? "",
            version: columns.text(5).flatMap { Int($0) } ?? 1, edited: columns.text(6))
    }

    /// The database and its statements. `@unchecked Sendable`: used on the store's queue alone.
    final class Connection: @unchecked Sendable {
        let database: SQLiteDatabase
        let insert: SQLiteDatabase.Statement
        let insertFile: SQLiteDatabase.Statement
        let insertDelivery: SQLiteDatabase.Statement
        let page: SQLiteDatabase.Statement
        let search: SQLiteDatabase.Statement
        let answers: SQLiteDatabase.Statement
        let countUp: SQLiteDatabase.Statement
        let countDown: SQLiteDatabase.Statement
        let one: SQLiteDatabase.Statement
        let files: SQLiteDatabase.Statement
        let filesOfVersion: SQLiteDatabase.Statement
        let versions: SQLiteDatabase.Statement
        let keepVersion: SQLiteDatabase.Statement
        let update: SQLiteDatabase.Statement
        let remove: SQLiteDatabase.Statement
        let removeDeliveries: SQLiteDatabase.Statement
        let addKey: SQLiteDatabase.Statement
        let keys: SQLiteDatabase.Statement
        let keyByHash: SQLiteDatabase.Statement
        let revokeKey: SQLiteDatabase.Statement
        let hold: SQLiteDatabase.Statement
        let removeHeld: SQLiteDatabase.Statement
        let held: SQLiteDatabase.Statement
        let unhold: SQLiteDatabase.Statement

        init(_ database: SQLiteDatabase) throws(StoreError) {
            self.database = database
            let columns = SQLiteSubmissionStore.columns
            insert = try database.prepare(
                """
                INSERT INTO submissions (id, form, received, http_parameters, form_values, answers)
                VALUES (?, ?, ?, ?, ?, ?)
                """)
            // The version is bound as text and stored as a number; the bytes go last (`bind(_:at: 6)`).
            insertFile = try database.prepare(
                """
                INSERT INTO submission_files (submission, tag, filename, content_type, version, bytes)
                VALUES (?, ?, ?, ?, CAST(? AS INTEGER), ?)
                """)
            insertDelivery = try database.prepare(
                """
                INSERT INTO deliveries (\(SQLiteOutbox.columns), lease)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, CAST(? AS INTEGER), CAST(? AS INTEGER), ?, CAST(? AS INTEGER), 0)
                """)
            page = try database.prepare(
                "SELECT \(columns) FROM submissions WHERE form = ? AND id >= ? AND id < ? ORDER BY id DESC LIMIT ?")
            // SQLite's `lower()` folds A to Z alone, as `folded` does the needle.
            search = try database.prepare(
                """
                SELECT \(columns) FROM submissions WHERE form = ? AND id >= ? AND id < ?
                AND instr(lower(http_parameters), ?) > 0 ORDER BY id DESC LIMIT ?
                """)
            answers = try database.prepare("SELECT answers FROM submissions WHERE form = ? AND id = ?")
            countUp = try database.prepare(
                """
                INSERT INTO submission_counts (form, answer, hour, count)
                VALUES (?, ?, CAST(? AS INTEGER), CAST(? AS INTEGER))
                ON CONFLICT (form, answer, hour) DO UPDATE SET count = count + excluded.count
                """)
            countDown = try database.prepare(
                """
                UPDATE submission_counts SET count = count - 1
                WHERE form = ? AND answer = ? AND hour = CAST(? AS INTEGER)
                """)
            one = try database.prepare("SELECT \(columns) FROM submissions WHERE form = ? AND id = ?")
            files = try database.prepare(
                """
                SELECT tag, filename, content_type, bytes, version FROM submission_files
                WHERE submission = ? ORDER BY rowid
                """)
            filesOfVersion = try database.prepare(
                """
                SELECT tag, filename, content_type, bytes, version FROM submission_files
                WHERE submission = ? AND version = CAST(? AS INTEGER) ORDER BY rowid
                """)
            versions = try database.prepare(
                """
                SELECT version, saved, http_parameters, form_values FROM submission_versions
                WHERE submission = ? ORDER BY version
                """)
            keepVersion = try database.prepare(
                """
                INSERT INTO submission_versions (submission, version, saved, http_parameters, form_values)
                SELECT id, version, coalesce(edited, received), http_parameters, form_values FROM submissions WHERE id = ?
                """)
            update = try database.prepare(
                """
                UPDATE submissions SET http_parameters = ?, form_values = ?, edited = ?, version = CAST(? AS INTEGER),
                answers = ?
                WHERE id = ?
                """)
            remove = try database.prepare("DELETE FROM submissions WHERE form = ? AND id = ?")
            removeDeliveries = try database.prepare("DELETE FROM deliveries WHERE id >= ? AND id < ?")
            let keyColumns = "name, hash, scopes, forms, created"
            addKey = try database.prepare(
                "INSERT INTO api_keys (\(keyColumns)) VALUES (?, ?, ?, ?, ?) ON CONFLICT (name) DO NOTHING")
            keys = try database.prepare("SELECT \(keyColumns) FROM api_keys ORDER BY name")
            keyByHash = try database.prepare("SELECT \(keyColumns) FROM api_keys WHERE hash = ?")
            revokeKey = try database.prepare("DELETE FROM api_keys WHERE name = ?")
            // The bytes go last (`bind(_:at: 7)`); the expiry is bound as text and compared as a number.
            hold = try database.prepare(
                """
                INSERT INTO held_uploads (reference, form, tag, filename, content_type, expires, bytes)
                VALUES (?, ?, ?, ?, ?, CAST(? AS INTEGER), ?)
                """)
            removeHeld = try database.prepare("DELETE FROM held_uploads WHERE expires < CAST(? AS INTEGER)")
            unhold = try database.prepare("DELETE FROM held_uploads WHERE reference = ?")
            held = try database.prepare(
                """
                SELECT tag, filename, content_type, bytes FROM held_uploads
                WHERE reference = ? AND form = ? AND expires >= CAST(? AS INTEGER)
                """)
        }

        /// Inserts `submissions` in one transaction: all of them, or none.
        func insert(_ submissions: [StoredSubmission]) throws(StoreError) {
            try database.execute("BEGIN IMMEDIATE")
            do throws(StoreError) {
                var counts = CountIncrements()
                for submission in submissions {
                    try insert.bind([
                        submission.id.description, submission.formID, submission.received, submission.httpParameters,
                        submission.formValues, CountIncrements.column(submission.answers),
                    ])
                    try insert.run()
                    try insertFiles(submission.files, of: submission.id, version: 1)
                    try insertDeliveries(submission.deliveries)
                    counts.add(submission)
                }
                try count(counts)
                try database.execute("COMMIT")
            } catch {
                try? database.execute("ROLLBACK")
                throw error
            }
        }

        /// Saves `edit` as the next version if its submission is at `version` now, in one transaction
        /// that takes the write lock first, so no other edit comes between the check and the save.
        func revise(_ edit: StoredSubmission, from version: Int) throws(StoreError) -> Revision {
            try database.execute("BEGIN IMMEDIATE")
            do throws(StoreError) {
                guard let current = try submission(formID: edit.formID, id: edit.id) else {
                    try database.execute("ROLLBACK")
                    return .missing
                }
                guard current.version == version else {
                    try database.execute("ROLLBACK")
                    return .changed(current: current.version)
                }
                let id = edit.id.description
                try uncount(formID: edit.formID, id: edit.id, submission: false)
                try keepVersion.bind([id])
                try keepVersion.run()
                try update.bind([
                    edit.httpParameters, edit.formValues, edit.received, String(version + 1),
                    CountIncrements.column(edit.answers), id,
                ])
                try update.run()
                var counts = CountIncrements()
                counts.add(answersOf: edit)
                try count(counts)
                try insertFiles(edit.files, of: edit.id, version: version + 1)
                try insertDeliveries(edit.deliveries)
                try database.execute("COMMIT")
                return .saved(version: version + 1)
            } catch {
                try? database.execute("ROLLBACK")
                throw error
            }
        }

        /// Erases submission `id` of form `formID` (its versions and files by their foreign keys) and its
        /// delivery jobs, in one transaction; false when the form has no such submission.
        func erase(formID: String, id: SubmissionID) throws(StoreError) -> Bool {
            try database.execute("BEGIN IMMEDIATE")
            do throws(StoreError) {
                try uncount(formID: formID, id: id, submission: true)
                try remove.bind([formID, id.description])
                try remove.run()
                let erased = database.changes > 0
                if erased {
                    let range = StoredDelivery.ids(of: id)
                    try removeDeliveries.bind([range.from, range.before])
                    try removeDeliveries.run()
                }
                try database.execute("COMMIT")
                return erased
            } catch {
                try? database.execute("ROLLBACK")
                throw error
            }
        }

        /// Submission `id` of form `formID` as it is now, without its files.
        func submission(formID: String, id: SubmissionID) throws(StoreError) -> StoredSubmission? {
            try one.bind([formID, id.description])
            return try one.rows(SQLiteSubmissionStore.submission).first.flatMap { $0 }
        }

        /// The files of submission `id`: of `version`, or of every version when nil; in the order they
        /// were kept.
        func files(of id: SubmissionID, version: Int?) throws(StoreError) -> [(file: StoredFile, version: Int)] {
            let statement = version == nil ? files : filesOfVersion
            try statement.bind([id.description] + (version.map { [String($0)] } ?? []))
            return try statement.rows { columns in
                (
                    StoredFile(
                        tag: columns.text(0) ?? "", filename: columns.text(1) ?? "",
                        contentType: columns.text(2) ?? "", bytes: columns.blob(3)),
                    Int(columns.text(4) ?? "") ?? 1
                )
            }
        }

        private func insertDeliveries(_ deliveries: [StoredDelivery]) throws(StoreError) {
            for job in deliveries {
                try insertDelivery.bind([
                    job.id, job.submission.description, job.formID, job.kind, job.destination, job.secretName, job.body,
                    job.state.rawValue, String(job.attempts), String(job.due), job.created, String(job.version),
                ])
                try insertDelivery.run()
            }
        }

        private func insertFiles(_ files: [StoredFile], of id: SubmissionID, version: Int) throws(StoreError) {
            for file in files {
                try insertFile.bind([id.description, file.tag, file.filename, file.contentType, String(version)])
                try insertFile.bind(file.bytes, at: 6)
                try insertFile.run()
            }
        }
    }
}
