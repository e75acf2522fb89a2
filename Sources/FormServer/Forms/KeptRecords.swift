import FormEngine
import FormHTML
import FormModel
import FormStore
import HTTPServer
import Logging

/// The record provider of an editable form (`editable: true`) whose submissions a database keeps:
/// a page or post whose `edit` parameter is a link the server made for this form opens that
/// submission, at its current version; one without it is a new submission. A link that is not the
/// server's, or whose submission was erased, is a `404`, the two told apart by nobody.
///
/// Rows the store leaves out (`KeptRows`) are not in the record, and rows it keeps hashed are taken
/// out of it (a hash shown, or saved again as the row's text, would be wrong): those rows start empty,
/// as on a new submission.
struct KeptRecords: Sendable {
    /// Where the form's submissions are kept.
    let database: any SubmissionDatabase
    /// What tells a link the server made.
    let links: EditLinks
    /// The editable form.
    let form: CompiledForm
    /// Where a store that did not answer is reported.
    let logger: Logger
    /// The tags of the rows the store keeps hashed.
    private let hashed: Set<String>

    init(database: any SubmissionDatabase, links: EditLinks, form: CompiledForm, logger: Logger) {
        self.database = database
        self.links = links
        self.form = form
        self.logger = logger
        hashed = KeptRows(form).hashed
    }

    /// The record `request` edits: the kept submission its `edit` parameter opens, none without one,
    /// `404` for a link that opens nothing, `503` while the store does not answer.
    func find(_ request: Request) async -> RecordLookup {
        guard let token = request.query[EditLinks.parameter] else { return .none }
        let formID = form.form.id
        guard let id = links.submission(token, formID: formID) else { return .notFound() }
        let read = await Blocking.run { [database] in
            Result { () throws(StoreError) in try database.submission(formID: formID, id: id) }
        }
        switch read {
        case .success(let submission?):
            return RecordLookup(kind: .kept(submission, json: editable(submission.httpParameters)))
        case .success(nil):
            return .notFound()
        case .failure(let error):
            logger.error("kept submission not read", metadata: ["form": "\(formID)", "error": "\(error)"])
            let locale = MessageLocale.choose(
                formLocale: form.form.locale, acceptLanguage: request.headers["Accept-Language"])
            var response = Answers.refusal(
                .serviceUnavailable, "the store does not answer just now: try again in a moment", code: "unavailable",
                json: Negotiation.wantsJSON(request, contentType: request.contentType), request: request,
                texts: PageTexts(locale: locale, overrides: form.form.messages))
            response.headers["Retry-After"] = "10"
            return .answer(response)
        }
    }

    /// The stored `httpParameters` without the rows the store hashes.
    private func editable(_ httpParameters: String) -> [UInt8] {
        let bytes = Array(httpParameters.utf8)
        guard !hashed.isEmpty, case .object(let pairs)? = try? JSONValue(parsing: bytes) else { return bytes }
        return JSONValue.object(pairs.filter { !hashed.contains($0.0) }).bytes
    }
}
