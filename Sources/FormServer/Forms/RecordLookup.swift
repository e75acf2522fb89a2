import FormEngine
import HTTPServer

/// What a form's record provider answers for a request: which stored record the form edits, if any.
///
/// ```swift
/// hooks.records("account") { request in
///     guard let id = request.query["user"] else { return .none }                 // a new account
///     guard let saved = accounts[id] else { return .notFound("There is no account named '\(id)'") }
///     return .record(saved)   // the httpParameters an earlier valid submission gave, as a JSONValue
/// }
/// ```
public struct RecordLookup: Sendable {
    enum Kind: Sendable {
        case none
        case record(JSONValue)
        case json([UInt8])
        case answer(Response)
        case notFound(String?)
    }

    let kind: Kind

    /// No record: the form starts from its descriptor's values, as a new record does.
    public static let none = RecordLookup(kind: .none)

    /// The record to edit, in the `httpParameters` shape (`ValidSubmission.httpParameters` as it came).
    public static func record(_ record: JSONValue) -> RecordLookup { RecordLookup(kind: .record(record)) }

    /// The record to edit, as the bytes of a JSON object in the `httpParameters` shape.
    public static func json(_ bytes: [UInt8]) -> RecordLookup { RecordLookup(kind: .json(bytes)) }

    /// An answer instead of the form: 403 for a record the reader may not edit, a redirect to a login
    /// page.
    public static func answer(_ response: Response) -> RecordLookup { RecordLookup(kind: .answer(response)) }

    /// No record at this address: `404`, answered as the server answers its own — a page in the reader's
    /// language for a browser (`message` under its heading, else the built-in one), `{"errors": [{"code":
    /// "notFound", …}]}` for an API client. `message` is the application's, in the form's language.
    public static func notFound(_ message: String? = nil) -> RecordLookup { RecordLookup(kind: .notFound(message)) }
}
