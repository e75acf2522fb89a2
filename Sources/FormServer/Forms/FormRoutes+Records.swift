import FormEngine
import FormHTML
import FormModel
import FormStore
import HTTPServer
import Logging

/// The record a request edits: as its provider gave it, and decoded by the form's row types.
struct EditedRecord: Sendable {
    /// The record as the provider gave it (bytes read into a value once, when the record is looked up).
    let json: JSONValue
    let values: StoredValues
    /// The record's version as the provider gave it, if it keeps one (`RecordLookup`).
    let version: String?
    /// The kept submission the record is, when the server's own store keeps it (`KeptRecords`): an
    /// edit is saved there as its next version.
    var kept: StoredSubmission? = nil
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
            case .record(let value, let version):
                guard version.map(RecordLookup.isValid) ?? true else { break }
                return body(EditedRecord(json: value, values: try site.engine.stored(value), version: version))
            case .json(let bytes, let version):
                guard version.map(RecordLookup.isValid) ?? true else { break }
                let (values, record) = try site.engine.storedRecord(json: bytes)
                return body(EditedRecord(json: record, values: values, version: version))
            case .kept(let submission, let json):
                let (values, record) = try site.engine.storedRecord(json: json)
                return body(
                    EditedRecord(json: record, values: values, version: String(submission.version), kept: submission))
            case .answer(let response): return response
            case .notFound(let message):
                return Answers.recordNotFound(site, locale: locale, message: message, json: json)
            }
        } catch {
            // The application's data no longer fits its form: editing it would lose or change values,
            // so nothing is shown or saved. The reader is told so; the log says what to fix and where.
            // An edit link's signature is cut, as in the access log.
            let target = AccessLogLine.withoutSecrets(
                request.query.isEmpty ? request.path : request.path + "?" + request.query.urlencoded)
            logger.error(
                "stored record refused",
                metadata: [
                    "form": "\(site.id)", "target": "\(target)", "key": "\(error.tag)", "value": "\(error.value)",
                    "problem": "\(error.message)",
                ])
            return Answers.recordRefused(site, locale: locale, json: json)
        }
        // Only a version that cannot be an entity tag's text comes here: the application's mistake,
        // reported as a record that cannot be edited.
        logger.error(
            "stored record refused",
            metadata: [
                "form": "\(site.id)", "target": "\(request.path)",
                "problem":
                    "its version is not printable ASCII without '\"' (RFC 9110 §8.8.3), or is empty or over 256 bytes",
            ])
        return Answers.recordRefused(site, locale: locale, json: json)
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
