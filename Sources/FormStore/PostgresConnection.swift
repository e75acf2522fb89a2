private import CLibPQ

/// One PostgreSQL connection through libpq: the few calls the store makes, each failure an error that
/// says what the server said. A connection that broke (the server restarted, the network dropped) is
/// made again by the next call, so a store recovers by itself. `@unchecked Sendable`: the store uses
/// each connection from one serial queue only.
final class PostgresConnection: @unchecked Sendable {
    private let handle: OpaquePointer
    /// The database's URL with its password hidden, for messages.
    let name: String

    /// Connects to `url` (a `postgres://` URL or `key=value` pairs, as libpq reads them), waiting at
    /// most `timeoutSeconds` unless the URL says otherwise.
    init(url: String, name: String, timeoutSeconds: Int = 5) throws(StoreError) {
        self.name = name
        // Earlier keywords are defaults; the URL, expanded in place of dbname, overrides them.
        // A commit is answered once the server flushed it, whatever the server's own default. A
        // connection whose peer vanished without a word (a pulled cable) is found dead by TCP within
        // some 20 s, rather than holding posts for the kernel's two hours.
        let settings = [
            ("connect_timeout", String(timeoutSeconds)), ("application_name", "formwright"),
            ("options", "-c synchronous_commit=on -c client_min_messages=warning"), ("keepalives", "1"),
            ("keepalives_idle", "10"), ("keepalives_interval", "5"), ("keepalives_count", "2"),
            ("tcp_user_timeout", "20000"), ("dbname", url),
        ]
        let keywords = settings.map(\.0)
        let values = settings.map(\.1)
        let opened = withCStrings(keywords) { keywords in
            withCStrings(values) { values in PQconnectdbParams(keywords, values, 1) }
        }
        guard let opened else { throw StoreError("\(name): libpq could not allocate a connection") }
        // Checked before `handle` is set: a throwing init that set every property runs deinit too.
        guard PQstatus(opened) == CONNECTION_OK else {
            let message = Self.message(of: opened)
            PQfinish(opened)
            throw StoreError("cannot connect to PostgreSQL at \(name): \(message)")
        }
        handle = opened
        // Notices (a ROLLBACK with nothing to undo after a reconnect) are not the server's output.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
    }

    deinit { PQfinish(handle) }

    /// libpq's message for the connection's last failure, on one line.
    var lastError: String { Self.message(of: handle) }

    private static func message(of connection: OpaquePointer) -> String {
        String(cString: PQerrorMessage(connection)).split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// Makes the connection again when it broke; throws when the server still cannot be reached.
    func reconnectIfBroken() throws(StoreError) {
        guard PQstatus(handle) != CONNECTION_OK else { return }
        PQreset(handle)
        guard PQstatus(handle) == CONNECTION_OK else {
            throw StoreError("cannot reach PostgreSQL at \(name): \(lastError)")
        }
    }

    /// Runs `sql`, one or more statements without parameters or rows.
    func execute(_ sql: String) throws(StoreError) {
        try reconnectIfBroken()
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        try check(result)
    }

    /// Runs `sql` with `parameters` ($1, $2, …; text, or bytes for bytea), and gives the rows, each
    /// column's bytes as the server sends them in binary (a text column's UTF-8; nil for NULL).
    @discardableResult
    func run(_ sql: String, _ parameters: [Parameter] = []) throws(StoreError) -> [[[UInt8]?]] {
        try reconnectIfBroken()
        let result = send(sql, parameters) { PQexecParams($0, $1, $2, $3, $4, $5, $6, 1) }
        defer { PQclear(result) }
        try check(result)
        return (0..<PQntuples(result)).map { row in (0..<PQnfields(result)).map { value(result, row, $0) } }
    }

    /// Sends `sql`, whose rows `nextRow` then reads as they arrive (libpq's single-row mode): a query
    /// of any size holds one row in memory. No other query may run until `nextRow` gave nil or threw.
    func startRows(_ sql: String, _ parameters: [Parameter]) throws(StoreError) {
        try reconnectIfBroken()
        let sent = send(sql, parameters) { PQsendQueryParams($0, $1, $2, $3, $4, $5, $6, 1) }
        guard sent == 1 else { throw StoreError("\(name): \(lastError)") }
        PQsetSingleRowMode(handle)
    }

    /// The next row of the query `startRows` sent; nil after the last.
    func nextRow() throws(StoreError) -> [[UInt8]?]? {
        guard let result = PQgetResult(handle) else { return nil }
        defer { PQclear(result) }
        if PQresultStatus(result) == PGRES_SINGLE_TUPLE { return (0..<PQnfields(result)).map { value(result, 0, $0) } }
        // The end (or a failure): every result is read, so the connection is ready for the next query.
        var failure: StoreError?
        do throws(StoreError) { try check(result) } catch { failure = error }
        while let rest = PQgetResult(handle) { PQclear(rest) }
        if let failure { throw failure }
        return nil
    }

    /// A statement's parameter: text, bytes for a bytea column, or SQL's NULL.
    enum Parameter {
        case text(String)
        case bytes([UInt8])
        case null

        /// Its size in bytes.
        var count: Int {
            switch self {
            case .text(let text): text.utf8.count
            case .bytes(let bytes): bytes.count
            case .null: 0
            }
        }
    }

    /// Calls `call` with libpq's parameter arrays for `parameters`, valid during the call.
    private func send<R>(
        _ sql: String, _ parameters: [Parameter],
        _ call: (
            OpaquePointer, String, Int32, UnsafePointer<Oid>?, UnsafePointer<UnsafePointer<CChar>?>,
            UnsafePointer<Int32>, UnsafePointer<Int32>
        ) -> R
    ) -> R {
        // Each parameter's bytes, NUL-terminated for text, none for NULL; formats 0 (text) and 1 (binary).
        let buffers: [[UInt8]?] = parameters.map {
            switch $0 {
            case .text(let text): Array(text.utf8) + [0]
            case .bytes(let bytes): bytes
            case .null: nil
            }
        }
        let lengths = buffers.map { Int32($0?.count ?? 0) }
        let formats: [Int32] = parameters.map {
            if case .bytes = $0 { 1 } else { 0 }
        }
        return withPointers(to: buffers) { pointers in
            call(handle, sql, Int32(parameters.count), nil, pointers, lengths, formats)
        }
    }

    /// Throws what the server said unless `result` is a success.
    private func check(_ result: OpaquePointer?) throws(StoreError) {
        let status = result.map(PQresultStatus) ?? PGRES_FATAL_ERROR
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let message = result.flatMap { PQresultErrorMessage($0) }.map { String(cString: $0) } ?? ""
            let text = (message.isEmpty ? lastError : message).split(whereSeparator: \.isNewline).joined(separator: " ")
            throw StoreError("\(name): \(text)")
        }
    }

    private func value(_ result: OpaquePointer?, _ row: Int32, _ column: Int32) -> [UInt8]? {
        guard PQgetisnull(result, row, column) == 0, let base = PQgetvalue(result, row, column) else { return nil }
        return Array(UnsafeRawBufferPointer(start: base, count: Int(PQgetlength(result, row, column))))
    }
}

/// Calls `body` with C strings of `strings`, followed by a null pointer, valid during the call.
private func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
    withPointers(to: strings.map { Array($0.utf8) + [0] }, body)
}

/// Calls `body` with pointers to each of `buffers` (a null pointer for nil: SQL's NULL), followed by a
/// null pointer, valid during the call. The buffers are copied one after another into one allocation,
/// so an empty one still has an address.
private func withPointers<R>(to buffers: [[UInt8]?], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
    let joined = buffers.compactMap { $0 }.joined() + [0]
    return joined.withUnsafeBufferPointer { bytes in
        let base = UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self)
        var offset = 0
        var pointers: [UnsafePointer<CChar>?] = buffers.map { buffer in
            guard let buffer else { return nil }
            defer { offset += buffer.count }
            return base + offset
        }
        pointers.append(nil)
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}

extension [UInt8]? {
    /// A text column's value as `PostgresConnection.run` gives it (its UTF-8 bytes), NULL read as empty.
    var text: String { String(decoding: self ?? [], as: UTF8.self) }

    /// A text column's value, NULL read as nil.
    var nullableText: String? { map { String(decoding: $0, as: UTF8.self) } }
}
