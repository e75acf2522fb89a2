import FormEngine
import HTTPServer
import Logging

/// What a form's record provider answers for a request: which stored record the form edits, if any.
///
/// ```swift
/// hooks.records("account") { request in
///     guard let id = request.query.first(where: { $0.name == "user" })?.value else { return .none }
///     guard let saved = accounts[id] else { return .answer(.error(.notFound, "no such account")) }
///     return .json(saved)   // the httpParameters an earlier valid submission gave
/// }
/// ```
public enum RecordLookup: Sendable {
    /// No record: the form starts from its descriptor's values, as a new record does.
    case none
    /// The record to edit, in the `httpParameters` shape (`ValidSubmission.httpParameters` as it came).
    case record(JSONValue)
    /// The record to edit, as the bytes of a JSON object in the `httpParameters` shape.
    case json([UInt8])
    /// An answer instead of the form: 404 for a record that does not exist, 403 for one the reader may
    /// not edit, a redirect to a login page.
    case answer(Response)
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
        _ request: Request, site: FormSite, json: Bool, _ body: @escaping @Sendable (StoredValues?) -> Response
    ) -> Response {
        switch site.records {
        case nil: return body(nil)
        case .now(let find): return answer(find(request), site: site, json: json, body)
        case .later(let find):
            return .later { [self] in answer(await find(request), site: site, json: json, body) }
        }
    }

    private func answer(
        _ lookup: RecordLookup, site: FormSite, json: Bool, _ body: (StoredValues?) -> Response
    ) -> Response {
        do throws(StoredRecordError) {
            switch lookup {
            case .none: return body(nil)
            case .record(let value): return body(try site.engine.stored(value))
            case .json(let bytes): return body(try site.engine.stored(json: bytes))
            case .answer(let response): return response
            }
        } catch {
            // The application's data no longer fits its form: editing it would lose or change values,
            // so nothing is shown or saved. The reader gets a plain 500; the log says what to fix.
            logger.error("stored record refused", metadata: ["form": "\(site.id)", "problem": "\(error)"])
            return Answers.problem(
                .internalServerError, "the stored record cannot be edited with this form", code: "record",
                json: json)
        }
    }
}
