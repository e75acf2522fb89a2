import FormEngine
import FormHTML
import FormModel
import FormStore
import Foundation
import HTTPServer
import Logging

/// What a judged post is answered: kept, refused, changed meanwhile, not kept, or refused for its
/// CSRF token.
extension FormRoutes {
    /// What a valid submission gets when no handler answers it: its payload as JSON, with the id the
    /// store gave it first (`"id"`), or a `303` to the form's success redirect or thank-you page. A
    /// kept submission of an editable form is at `version` (1 as sent), and its answer carries its
    /// edit link: `"version"` and `"edit"` in JSON (the version as the `ETag` too), `&edit=` on the
    /// way to the thank-you page.
    func accepted(
        _ site: FormSite, verdict: Verdict, json: Bool, id: SubmissionID?, version: Int? = nil
    ) -> Response {
        var edit: String?
        if let id, version != nil { edit = editLinks.token(formID: site.id, id: id) }
        if json {
            var payload = verdict.payloadJSONBytes
            guard let id else { return Answers.json(.ok, payload) }
            // `{"httpParameters":…}` opened to put the id first: the payload is not walked again.
            var head = #"{"id":"\#(id)","#
            if let version, let edit {
                head += #""version":\#(version),"edit":"#
                head += SubmissionJSON.string(Self.path(site.id) + "?\(EditLinks.parameter)=\(edit)") + ","
            }
            payload.replaceSubrange(0..<1, with: head.utf8)
            var response = Answers.json(.ok, payload)
            // Where an API key with the read scope finds it again.
            response.headers["Location"] = SubmissionJSON.path(site.id) + "/\(id)"
            // What an edit sends back in `If-Match`.
            if let version { response.headers["ETag"] = RecordVersion.entityTag(String(version)) }
            return response
        }
        if let redirect = site.form.form.successRedirect { return .redirect(to: redirect) }
        var thanks = Self.path(site.id) + "/thanks"
        if let id { thanks += "?ref=\(id)" + (edit.map { "&\(EditLinks.parameter)=\($0)" } ?? "") }
        return .redirect(to: thanks)
    }

    /// What a valid submission gets when the store could not keep it: `503`, the page again with the
    /// values kept and the summary saying so (`notKept`), or JSON with code `notKept`. Nothing is lost:
    /// the reader sends the same values again.
    func notKept(
        _ site: FormSite, verdict: Verdict, record: EditedRecord?, request: Request, locale: String, json: Bool,
        version: String?
    ) -> Response {
        var response: Response
        if json {
            response = Answers.problem(
                .serviceUnavailable, "the submission is valid but could not be kept just now: send it again later",
                code: "notKept", json: true)
        } else {
            let texts = site.page(locale).texts
            let refused = site.engine.refusing(
                verdict, [(tag: "", message: texts.notKept)], language: texts.language(of: "notKept"))
            response = rerender(
                site, verdict: refused, record: record, request: request, locale: locale, addingTo: nil,
                version: version)
            response.status = .serviceUnavailable
        }
        response.headers["Retry-After"] = "10"
        return response
    }

    /// What an invalid submission gets: `422`, the page again with values kept and errors inline, or JSON.
    func refused(
        _ site: FormSite, verdict: Verdict, record: EditedRecord?, request: Request, locale: String, json: Bool,
        version: String?, held: [Int: PageState.HeldFile] = [:]
    ) -> Response {
        if json { return Answers.json(.unprocessableContent, verdict.errorsJSON) }
        return rerender(
            site, verdict: verdict, record: record, request: request, locale: locale, addingTo: nil, version: version,
            held: held)
    }

    /// What a post made from an older version of its record gets, whatever its values: `409`, the page
    /// again with the values kept, the summary saying so and the record's `version` now, so that sending
    /// it again saves; or `412` JSON with code `conflict` and the version now as the `ETag`.
    func changed(
        _ site: FormSite, verdict: Verdict, record: EditedRecord?, request: Request, locale: String, json: Bool,
        version: String
    ) -> Response {
        if json {
            var response = Answers.problem(
                .preconditionFailed,
                "the record was saved by someone else since the version this edit was made from; it is now at "
                    + "version \(RecordVersion.entityTag(version)): read it again and send the edit with that If-Match",
                code: "conflict", json: true)
            response.headers["ETag"] = RecordVersion.entityTag(version)
            return response
        }
        let texts = site.page(locale).texts
        let refused = site.engine.refusing(
            verdict, [(tag: "", message: texts.recordChanged)], language: texts.language(of: "recordChanged"))
        var response = rerender(
            site, verdict: refused, record: record, request: request, locale: locale, addingTo: nil, version: version)
        response.status = .conflict
        return response
    }

    /// The page again with the verdict: values kept, errors inline (422), or — for "add another" —
    /// the same values with one more empty item and no errors yet (200). `version` is the stored
    /// record's version the page carries.
    func rerender(
        _ site: FormSite, verdict: Verdict, record: EditedRecord?, request: Request, locale: String,
        addingTo tag: String?, version: String?, held: [Int: PageState.HeldFile] = [:], searching: String? = nil
    ) -> Response {
        var state = PageState(verdict: verdict, entered: true, stored: record?.values)
        // The page of a kept submission names its files, as when it was opened; files held from this
        // post take their rows' places.
        if let kept = record?.kept { showKept(kept, form: site.form, in: &state) }
        state.heldFiles.merge(held) { _, new in new }
        site.nameChosenOptions(in: &state)
        // A form that edits records posts back where it came from, as its page does (`address(of:)`).
        state.actionQuery = actionQuery(of: site, request: request)
        let nonce = request.cookie(named: csrf.cookieName) ?? ""
        state.csrfToken = csrf.token(formID: site.id, nonce: nonce)
        state.recordVersion = version
        var status = HTTPStatus.unprocessableContent
        if let tag, let section = site.form.sections.first(where: { $0.section.multivaluedTag == tag }) {
            state.errors = []
            // "Add another" never adds an item the next post would be refused for.
            let cap = section.section.itemCap
            var items = state.items[section.index] ?? []
            // Keyboard focus goes to the new item, as it would with the script; when none could be added,
            // to the section, whose legend names it, rather than the top of the page.
            if items.count < cap {
                state.focus = .item(section: section.index, position: items.count)
                items.append("")
            } else {
                state.focus = .section(section.index)
            }
            state.items[section.index] = items
            status = .ok
        }
        // A search without a script: the page again, nothing judged yet, with the row's matches.
        if let searching, let index = site.form.rowIndex[searching], let source = site.sources[index] {
            state.errors = []
            var search = state.searches[index] ?? PageState.Search()
            do {
                search.matches = try source.matches(
                    String(search.query.trimmingCharacters(in: .whitespaces).prefix(Self.longestQuery)),
                    limit: Self.matchesShown)
            } catch {
                search.unavailable = true
                logger.warning("option source failed", metadata: ["form": "\(site.id)", "error": "\(error)"])
            }
            state.searches[index] = search
            status = .ok
        }
        return Answers.html(status, site.page(locale).render(state: state))
    }

    /// What a post whose CSRF token is missing or wrong gets: `403`, a page that says so, or JSON.
    func csrfRefused(_ site: FormSite, request: Request, locale: String, json: Bool) -> Response {
        let message = "the form's security token is missing or does not match: reload the page and submit again"
        if json { return Answers.problem(.forbidden, message, code: "csrf", json: true) }
        let page = MessagePage.sessionExpired(texts: site.page(locale).texts, back: address(of: site, request: request))
        return Answers.html(.forbidden, page.render())
    }
}
