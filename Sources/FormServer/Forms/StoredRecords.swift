import FormEngine
import FormHTML
import FormModel
import HTTPServer
import Logging

/// What a form's record provider answers for a request: which stored record the form edits, if any.
///
/// ```swift
/// hooks.records("account") { request in
///     guard let id = request.query["user"] else { return .none }                 // a new account
///     guard let saved = accounts[id] else { return .notFound("There is no account named '\(id)'") }
///     return .json(saved)   // the httpParameters an earlier valid submission gave
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

/// The record a request edits: as its provider gave it, and decoded by the form's row types.
struct EditedRecord: Sendable {
    /// The record as the provider gave it (bytes read into a value once, when the record is looked up).
    let json: JSONValue
    let values: StoredValues
}

/// Finds the stored record a request edits: at once, or after awaiting a database.
enum RecordProvider: Sendable {
    case now(@Sendable (Request) -> RecordLookup)
    case later(@Sendable (Request) async -> RecordLookup)
}

extension FormRoutes {
    /// Calls `body` with the record `request` edits on `site` (nil for none), or answers what the
    /// provider answers instead. A provider that awaits suspends the connection meanwhile
    /// (`Response.later`), so no server thread waits on it.
    func withRecord(
        _ request: Request, site: FormSite, json: Bool, _ body: @escaping @Sendable (EditedRecord?) -> Response
    ) -> Response {
        switch site.records {
        case nil: return body(nil)
        case .now(let find): return answer(find(request), request: request, site: site, json: json, body)
        case .later(let find):
            return .later { [self] in answer(await find(request), request: request, site: site, json: json, body) }
        }
    }

    private func answer(
        _ lookup: RecordLookup, request: Request, site: FormSite, json: Bool, _ body: (EditedRecord?) -> Response
    ) -> Response {
        // Only the answers instead of the form need the reader's language.
        var locale: String { site.locale(for: request.headers["Accept-Language"]) }
        do throws(StoredRecordError) {
            switch lookup.kind {
            case .none: return body(nil)
            case .record(let value):
                return body(EditedRecord(json: value, values: try site.engine.stored(value)))
            case .json(let bytes):
                let (values, record) = try site.engine.storedRecord(json: bytes)
                return body(EditedRecord(json: record, values: values))
            case .answer(let response): return response
            case .notFound(let message):
                return Answers.recordNotFound(site, locale: locale, message: message, json: json)
            }
        } catch {
            // The application's data no longer fits its form: editing it would lose or change values,
            // so nothing is shown or saved. The reader is told so; the log says what to fix and where.
            let target = request.query.isEmpty ? request.path : request.path + "?" + request.query.urlencoded
            logger.error(
                "stored record refused",
                metadata: [
                    "form": "\(site.id)", "target": "\(target)", "key": "\(error.tag)", "value": "\(error.value)",
                    "problem": "\(error.message)",
                ])
            return Answers.recordRefused(site, locale: locale, json: json)
        }
    }
}

extension Answers {
    /// `404` for an address naming a stored record that does not exist (`RecordLookup.notFound`,
    /// `ValidSubmission.notFound`): a page in the reader's language, or JSON with code `notFound`.
    static func recordNotFound(_ site: FormSite, locale: String, message: String?, json: Bool) -> Response {
        if json { return problem(.notFound, message ?? "no such record", code: "notFound", json: true) }
        let page = MessagePage.recordNotFound(
            texts: site.page(locale).texts, message: message, messageLanguage: site.form.form.locale, back: "/forms")
        return html(.notFound, page.render())
    }

    /// `500` for a stored record that no longer fits its form: a page in the reader's language that
    /// says nothing was changed, or JSON with code `record`. The record itself is not shown: it is the
    /// application's data, and the log names what does not fit.
    static func recordRefused(_ site: FormSite, locale: String, json: Bool) -> Response {
        if json {
            return problem(
                .internalServerError, "the stored record cannot be edited with this form", code: "record", json: true)
        }
        return html(
            .internalServerError, MessagePage.recordRefused(texts: site.page(locale).texts, back: "/forms").render())
    }
}
