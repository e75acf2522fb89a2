/// An SQLite store's export cursor, on a connection of its own.
extension SQLiteSubmissionStore {
    /// An export's connection and statement, stepped a row at a time. `@unchecked Sendable`: used by
    /// one thread at a time (`SubmissionCursor`).
    final class Cursor: SubmissionCursor, @unchecked Sendable {
        private let database: SQLiteDatabase
        private let statement: SQLiteDatabase.Statement

        init(
            database: SQLiteDatabase, formID: String, formValues: Bool, range: SubmissionRange, containing: String?
        ) throws(StoreError) {
            self.database = database
            let columns = formValues ? SQLiteSubmissionStore.columns : SQLiteSubmissionStore.columnsWithoutFormValues
            statement = try database.prepare(
                "SELECT \(columns) FROM submissions WHERE form = ? AND id >= ? AND id < ?"
                    + (containing == nil ? "" : " AND instr(lower(http_parameters), ?) > 0") + " ORDER BY id")
            let bounds = range.bounds
            try statement.bind([formID, bounds.from, bounds.before] + (containing.map { [$0] } ?? []))
        }

        private var finished = false

        /// nil after the last, and for good: the statement, reset at its end, would start again.
        func next() throws(StoreError) -> StoredSubmission? {
            while !finished {
                do throws(StoreError) {
                    guard let row = try statement.next(SQLiteSubmissionStore.submission) else {
                        finished = true
                        return nil
                    }
                    if let row { return row }
                } catch {
                    finished = true
                    throw error
                }
            }
            return nil
        }
    }
}
