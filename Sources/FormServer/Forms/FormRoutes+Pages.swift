import FormEngine
import FormHTML
import FormModel
import HTTPServer

/// The pages a form serves: fresh, or filled with the stored record a request edits.
extension FormRoutes {
    /// `GET /forms/{id}`: the fresh page, with a CSRF token for this browser's nonce; or, for a form
    /// that edits records, the record's.
    func page(_ request: borrowing RequestView, site: FormSite) -> Response {
        guard site.records != nil else {
            return freshPage(
                site: site, acceptLanguage: request.acceptLanguage, cookie: request.cookie(named: csrf.cookieName))
        }
        return page(request.owned(), site: site)
    }

    /// The page of `site`, a form that edits records.
    func page(_ request: Request, site: FormSite) -> Response {
        // An API client reads the record as the form does, in the payload's shapes, before it edits it.
        let json = Negotiation.wantsJSON(request, contentType: nil)
        return withRecord(request, site: site, json: json) { [self] record in
            guard json else { return recordPage(request, site: site, record: record) }
            let locale = site.locale(for: request.headers["Accept-Language"])
            var response = Answers.json(
                .ok, site.engine.initial(stored: record?.values, locale: locale).payloadJSONBytes)
            // The version an edit sends back in `If-Match`.
            if let version = record?.version { response.headers["ETag"] = RecordVersion.entityTag(version) }
            return response
        }
    }

    /// The page of a form that edits stored records: the record's values, and a form that posts back to
    /// the page's own address, query included, so the submission finds the same record.
    func recordPage(
        _ request: Request, site: FormSite, record: EditedRecord?, offServerThread: Bool = false
    ) -> Response {
        // The titles of a record's searched options come from their sources: asked off the server's threads.
        if !site.sources.isEmpty, !offServerThread {
            return .later { [self] in
                await Blocking.run { [self] in recordPage(request, site: site, record: record, offServerThread: true) }
            }
        }
        let stored = record?.values
        if stored == nil && request.query.isEmpty {
            return freshPage(
                site: site, acceptLanguage: request.headers["Accept-Language"],
                cookie: request.cookie(named: csrf.cookieName))
        }
        let (nonce, isNew) = self.nonce(of: request)
        let locale = site.locale(for: request.headers["Accept-Language"])
        var state =
            stored.map { PageState(editing: $0, verdict: site.engine.initial(stored: $0, locale: locale)) }
            ?? site.initialState
        state.actionQuery = actionQuery(of: site, request: request)
        state.csrfToken = csrf.token(formID: site.id, nonce: nonce)
        state.recordVersion = record?.version
        if let kept = record?.kept { showKept(kept, form: site.form, in: &state) }
        site.nameChosenOptions(in: &state)
        var response = Answers.html(.ok, site.page(locale).render(state: state))
        if isNew { response.headers.add("Set-Cookie", csrf.cookie(nonce: nonce)) }
        return response
    }

    /// The page of `site` with the descriptor's values: the same bytes for every reader but the token,
    /// and a new reader's cookie. `cookie` is the value of the request's CSRF cookie, if any.
    func freshPage(site: FormSite, acceptLanguage: String?, cookie: String?) -> Response {
        let locale = site.locale(for: acceptLanguage)
        if let nonce = cookie, CSRFGuard.isWellFormed(nonce: nonce) {
            return site.freshPage(locale, csrfToken: csrf.token(formID: site.id, nonce: nonce), setCookie: nil)
        }
        let reader = csrf.newReader(formID: site.id)
        return site.freshPage(locale, csrfToken: reader.token, setCookie: reader.cookie)
    }
}
