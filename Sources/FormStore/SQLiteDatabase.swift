private import CSQLite

/// One SQLite connection, used by one thread at a time: the few calls the store makes, each failure
/// an error that says what SQLite said.
final class SQLiteDatabase {
    private let handle: OpaquePointer
    /// The file, for messages.
    let path: String

    /// Opens (and makes, when missing) the database at `path`, waiting up to `busyMilliseconds` for
    /// another process's write lock rather than failing at once.
    init(path: String, busyMilliseconds: Int32 = 5_000) throws(StoreError) {
        self.path = path
        var opened: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path, &opened, flags, nil)
        guard status == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
            sqlite3_close(opened)
            throw StoreError("cannot open the SQLite database \(path): \(message)")
        }
        handle = opened
        sqlite3_busy_timeout(handle, busyMilliseconds)
    }

    // `_v2`: the connection closes once its last statement is finalized, whichever goes first.
    deinit { sqlite3_close_v2(handle) }

    /// Runs `sql`, one or more statements without parameters or rows.
    func execute(_ sql: String) throws(StoreError) {
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(handle, sql, nil, nil, &message) == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? lastError
            sqlite3_free(message)
            throw StoreError("\(path): \(text)")
        }
    }

    /// A statement of `sql`, to run many times.
    func prepare(_ sql: String) throws(StoreError) -> Statement {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK,
            let statement
        else { throw StoreError("\(path): \(lastError)") }
        return Statement(statement, database: self)
    }

    /// How many rows the last statement that changed any changed.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// SQLite's message for the connection's last failure.
    var lastError: String { String(cString: sqlite3_errmsg(handle)) }

    /// A prepared statement: bound, stepped, reset for the next use.
    final class Statement {
        private let handle: OpaquePointer
        private unowned let database: SQLiteDatabase

        fileprivate init(_ handle: OpaquePointer, database: SQLiteDatabase) {
            self.handle = handle
            self.database = database
        }

        deinit { sqlite3_finalize(handle) }

        /// Binds `values` to the parameters in order, text each.
        func bind(_ values: [String]) throws(StoreError) {
            for (index, value) in values.enumerated() {
                guard value.utf8.count <= Int(Int32.max) else {
                    throw StoreError("\(database.path): a value of \(value.utf8.count) bytes")
                }
                var value = value
                let status = value.withUTF8 { bytes in
                    bytes.withMemoryRebound(to: CChar.self) {
                        CSQLite_bindText(handle, Int32(index + 1), $0.baseAddress, Int32($0.count))
                    }
                }
                guard status == SQLITE_OK else { throw StoreError("\(database.path): \(database.lastError)") }
            }
        }

        /// Binds `bytes` to parameter `index` (counted from 1) as a blob.
        func bind(_ bytes: [UInt8], at index: Int) throws(StoreError) {
            guard bytes.count <= Int(Int32.max) else {
                throw StoreError("\(database.path): a value of \(bytes.count) bytes")
            }
            let status = bytes.withUnsafeBytes {
                CSQLite_bindBlob(handle, Int32(index), $0.baseAddress, Int32($0.count))
            }
            guard status == SQLITE_OK else { throw StoreError("\(database.path): \(database.lastError)") }
        }

        /// Runs the statement to its end, then resets it, whether it succeeded or not.
        func run() throws(StoreError) {
            defer {
                sqlite3_reset(handle)
                sqlite3_clear_bindings(handle)
            }
            var status = sqlite3_step(handle)
            while status == SQLITE_ROW { status = sqlite3_step(handle) }
            guard status == SQLITE_DONE else { throw StoreError("\(database.path): \(database.lastError)") }
        }

        /// The rows the statement gives, each as its columns' text (nil for NULL), then resets it.
        func rows() throws(StoreError) -> [[String?]] {
            try rows { columns in (0..<columns.count).map { columns.text($0) } }
        }

        /// Calls `body` with each row the statement gives, one at a time, then resets it: a caller that
        /// keeps nothing of a row holds one row in memory, however many there are.
        func forEach(_ body: (borrowing Columns) -> Void) throws(StoreError) {
            defer {
                sqlite3_reset(handle)
                sqlite3_clear_bindings(handle)
            }
            var status = sqlite3_step(handle)
            while status == SQLITE_ROW {
                body(Columns(handle: handle))
                status = sqlite3_step(handle)
            }
            guard status == SQLITE_DONE else { throw StoreError("\(database.path): \(database.lastError)") }
        }

        /// The next row the statement gives, made by `row` from its columns; nil after the last, when
        /// the statement is reset. A row at a time, for a cursor.
        func next<Row>(_ row: (borrowing Columns) -> Row) throws(StoreError) -> Row? {
            let status = sqlite3_step(handle)
            if status == SQLITE_ROW { return row(Columns(handle: handle)) }
            sqlite3_reset(handle)
            guard status == SQLITE_DONE else { throw StoreError("\(database.path): \(database.lastError)") }
            return nil
        }

        /// The rows the statement gives, each made by `row` from its columns, then resets it.
        func rows<Row>(_ row: (borrowing Columns) -> Row) throws(StoreError) -> [Row] {
            var rows: [Row] = []
            try forEach { rows.append(row($0)) }
            return rows
        }
    }

    /// The columns of the row a statement stands on, valid until it steps again.
    struct Columns: ~Copyable {
        fileprivate let handle: OpaquePointer

        var count: Int32 { sqlite3_column_count(handle) }

        /// Column `column` as text; nil for NULL.
        func text(_ column: Int32) -> String? { sqlite3_column_text(handle, column).map { String(cString: $0) } }

        /// Column `column` as bytes.
        func blob(_ column: Int32) -> [UInt8] {
            let count = Int(sqlite3_column_bytes(handle, column))
            guard let base = sqlite3_column_blob(handle, column), count > 0 else { return [] }
            return Array(UnsafeRawBufferPointer(start: base, count: count))
        }
    }
}
