import FormEngine
import FormStore
import HTTPServer

/// What a form's record provider answers for a request: which stored record the form edits, if any.
///
/// ```swift
/// hooks.records("account") { request in
///     guard let id = request.query["user"] else { return .none }                 // a new account
///     guard let saved = accounts[id] else { return .notFound("There is no account named '\(id)'") }
///     return .record(saved.values, version: "\(saved.version)")   // httpParameters as saved, and its version
/// }
/// ```
///
/// A version, when given, lets the server tell a reader whose save would overwrite someone else's:
/// the page carries the version it showed, an API client's `GET` gets it as an `ETag`, and a post
/// made from an older version is answered `409` (a page) or `412` (JSON) instead of reaching the
/// handler. A version is the application's text: a counter, an update time, a hash; printable ASCII
/// without `"`, as an entity tag's (RFC 9110 §8.8.3).
public struct RecordLookup: Sendable {
    enum Kind: Sendable {
        case none
        case record(JSONValue, version: String?)
        case json([UInt8], version: String?)
        case answer(Response)
        case notFound(String?)
        /// A submission the server keeps, opened through its edit link (`KeptRecords`): `json` is its
        /// record as the form edits it.
        case kept(StoredSubmission, json: [UInt8])
    }

    let kind: Kind

    /// No record: the form starts from its descriptor's values, as a new record does.
    public static let none = RecordLookup(kind: .none)

    /// The record to edit, in the `httpParameters` shape (`ValidSubmission.httpParameters` as it came),
    /// at `version` when the application keeps one (see above).
    public static func record(_ record: JSONValue, version: String? = nil) -> RecordLookup {
        RecordLookup(kind: .record(record, version: version))
    }

    /// The record to edit, as the bytes of a JSON object in the `httpParameters` shape, at `version`.
    public static func json(_ bytes: [UInt8], version: String? = nil) -> RecordLookup {
        RecordLookup(kind: .json(bytes, version: version))
    }

    /// Whether `version` can be a record's version: the text of an entity tag (RFC 9110 §8.8.3),
    /// printable ASCII without `"`, at most 256 bytes; not empty.
    static func isValid(version: String) -> Bool {
        version.utf8.count <= 256 && !version.isEmpty
            && version.utf8.allSatisfy { $0 >= 0x21 && $0 <= 0x7E && $0 != UInt8(ascii: "\"") }
    }

    /// An answer instead of the form: 403 for a record the reader may not edit, a redirect to a login
    /// page.
    public static func answer(_ response: Response) -> RecordLookup { RecordLookup(kind: .answer(response)) }

    /// No record at this address: `404`, answered as the server answers its own — a page in the reader's
    /// language for a browser (`message` under its heading, else the built-in one), `{"errors": [{"code":
    /// "notFound", …}]}` for an API client. `message` is the application's, in the form's language.
    public static func notFound(_ message: String? = nil) -> RecordLookup { RecordLookup(kind: .notFound(message)) }
}
