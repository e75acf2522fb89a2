import FormEngine
import FormHTML
import FormModel
import FormStore
import Foundation
import HTTPServer
import Logging

/// The form routes: the index, each form's page and descriptor, submissions, the thank-you page,
/// and (when enabled) the explanation of a verdict.
struct FormRoutes: Sendable {
    let sites: [String: SiteSource]
    /// The hooks the sites were built with: a reload of options builds a site with them again.
    let hooks: FormHooks
    let csrf: CSRFGuard
    let explain: Bool
    let maximumFileSize: Int
    /// The steps a submission's checks may take in all (`FormServerConfiguration.checkingBudget`).
    let checkingBudget: Int
    let index: [String: PreparedResponse]
    /// Where a stored record that no longer fits its form is reported.
    let logger: Logger
    /// Where a condition that could not be evaluated is reported, once.
    let conditionFailures: ConditionFailureLog
    /// Where valid submissions of forms without a handler are kept; nil keeps none.
    let store: (any SubmissionKeeper)?
    /// Where a refused post's valid files wait for the next post: in the store, when it is a database.
    let held: HeldUploads?
    /// The private links that change a kept submission of an editable form.
    let editLinks: EditLinks
    /// The forms whose kept submissions are changed through edit links (`editing`).
    let editableForms: Set<String>

    init(
        catalog: FormCatalog, hooks: FormHooks, csrf: CSRFGuard, explain: Bool, maximumFileSize: Int,
        checkingBudget: Int = FormEngine.submissionBudget, store: (any SubmissionKeeper)? = nil,
        logger: Logger = Logger(label: "formwright")
    ) throws {
        self.checkingBudget = checkingBudget
        self.logger = logger
        self.store = store
        held = (store as? DatabaseKeeper).map { HeldUploads(database: $0.database, csrf: csrf) }
        editLinks = EditLinks(csrf: csrf)
        let (hooks, editableForms) = Self.editing(catalog, hooks: hooks, store: store, links: editLinks, logger: logger)
        self.editableForms = editableForms
        conditionFailures = ConditionFailureLog(logger: logger)
        var sites: [String: SiteSource] = [:]
        for (id, form) in catalog.forms {
            let site = try FormSite(form: form, hooks: hooks, maximumFileSize: maximumFileSize)
            conditionFailures.note(site.initialFailures, on: form)
            sites[id] = hooks.optionProviders[id] == nil ? .fixed(site) : .reloadable(SiteSlot(site))
        }
        self.sites = sites
        self.hooks = hooks
        self.csrf = csrf
        self.explain = explain
        self.maximumFileSize = maximumFileSize
        let entries = catalog.ids.map { IndexPage.Entry(id: $0, title: catalog.forms[$0]?.form.title) }
        var index: [String: PreparedResponse] = [:]
        for locale in MessageLocale.builtIn {
            let page = IndexPage(entries: entries, texts: PageTexts(locale: locale))
            // Chosen by Accept-Language: a cache keeps one per language.
            var response = Answers.html(.ok, page.render(), cache: "no-cache")
            response.headers["Vary"] = "Accept-Language"
            index[locale] = try PreparedResponse(response)
        }
        self.index = index
    }

    func add(to routes: inout RouterBuilder) {
        // A path naming no form is a 404 for every method, and `Allow` lists only what the form has:
        // `/forms/event.json` takes GET, though `POST /forms/{id}` would match it with id `event.json`.
        // Each form's own paths (`/forms/event`) are found from the raw target, with no parsing.
        let missing: Handler = { request in notFound(request) }
        routes.get("/forms") { request in Response(index[Self.locale(request.acceptLanguage, formLocale: "en")]!) }
        routes.get("/forms/{id}.json", values: sites, missing: missing) { _, source in
            Response(source.site.descriptor)
        }
        routes.get("/forms/{id}", values: sites, missing: missing) { request, source in
            page(request, site: source.site)
        }
        routes.post("/forms/{id}", values: sites, missing: missing) { request, source in
            submit(request.owned(), site: source.site)
        }
        routes.get("/forms/{id}/options/{tag}", exists: { [sites] in sites[$0["id"] ?? ""] != nil }) { request in
            searchOptions(request.owned())
        }
        routes.get("/forms/{id}/thanks", values: sites, missing: missing) { request, source in
            thanks(request, site: source.site)
        }
        // Switched off, the explanation is no resource: a post still reaches the handler, which says how
        // to switch it on, but no method is offered in an `Allow`.
        routes.post("/forms/{id}/explain", exists: { [explain] in explain && sites[$0["id"] ?? ""] != nil }) {
            request in explainVerdict(request.owned())
        }
    }

    /// `POST /forms/{id}`: decode, check the CSRF token of browser posts, judge, answer.
    func submit(_ request: Request, site: FormSite) -> Response {
        // The media type is read once: negotiation and body decoding both need it.
        let contentType = request.contentType
        let wantsJSON = Negotiation.wantsJSON(request, contentType: contentType)
        let locale = site.locale(for: request.headers["Accept-Language"])
        let fields: SubmittedFields
        do {
            fields = try SubmissionBody.fields(of: request, contentType: contentType)
        } catch {
            return Answers.refusal(
                error.status, error.message, code: "body", json: wantsJSON, request: request,
                texts: site.page(locale).texts)
        }
        // An API client's multipart post names a key of scope `submit` instead: it has no page to take a
        // token from. (A browser cannot send one cross-site without a CORS preflight; what a proxy in
        // front adds, Basic credentials or a token of its own, is no key and leaves the token to be checked.)
        if !fields.isJSON, let database = (store as? DatabaseKeeper)?.database, APIKey.names(request.headers) {
            return .later { [self] in
                await Blocking.run { [self] in
                    do {
                        try APIKey.authenticate(request.headers, in: database).check(.submit, formID: site.id)
                    } catch let problem as APIProblem {
                        return problem.response
                    } catch {
                        return APIProblem.unavailable.response
                    }
                    return proceed(fields, request: request, site: site, locale: locale, wantsJSON: wantsJSON)
                }
            }
        }
        // A JSON body cannot be sent cross-site without a CORS preflight, so only form posts carry a token.
        if !fields.isJSON {
            // Fetch metadata first: a browser says when a post comes from another site, or from a sibling
            // subdomain that could have planted the cookie (which the token alone cannot tell).
            if let origin = request.headers["Sec-Fetch-Site"]?.lowercased(), origin != "same-origin", origin != "none" {
                return csrfRefused(site, request: request, locale: locale, json: wantsJSON)
            }
            // Two tokens are refused as any field sent twice is: which one counts would be a guess.
            if fields.count(of: FieldNames.csrf) > 1 {
                return Answers.refusal(
                    .badRequest, "the form's security token (\(FieldNames.csrf)) was sent more than once",
                    code: "sentMoreThanOnce", json: wantsJSON, request: request, texts: site.page(locale).texts)
            }
            let token = fields.first(FieldNames.csrf).flatMap(\.enteredText)
            let nonce = request.cookie(named: csrf.cookieName)
            guard csrf.verify(token: token, formID: site.id, nonce: nonce) else {
                return csrfRefused(site, request: request, locale: locale, json: wantsJSON)
            }
        }
        // A page shown again after a refused post names the files the server held: they are put back
        // before the post is judged (`HeldUploads`).
        if !fields.isJSON, let held, HeldUploads.named(in: fields, form: site.form) {
            let nonce = request.cookie(named: csrf.cookieName) ?? ""
            return .later { [self] in
                await Blocking.run { [self] in
                    var fields = fields
                    do {
                        try held.restore(into: &fields, form: site.form, formID: site.id, nonce: nonce)
                    } catch {
                        // Judged without it: a required row then asks for the file again.
                        logger.error("held files not read", metadata: ["form": "\(site.id)", "error": "\(error)"])
                    }
                    return proceed(fields, request: request, site: site, locale: locale, wantsJSON: wantsJSON)
                }
            }
        }
        return proceed(fields, request: request, site: site, locale: locale, wantsJSON: wantsJSON)
    }

    /// A post whose sender is trusted (a CSRF token, an API key, or JSON): judged on its form, or on the
    /// record it edits.
    private func proceed(
        _ fields: SubmittedFields, request: Request, site: FormSite, locale: String, wantsJSON: Bool
    ) -> Response {
        if site.form.form.disabled {
            return Answers.refusal(
                .forbidden, "the form '\(site.id)' is read-only", code: "readOnly", json: wantsJSON, request: request,
                texts: site.page(locale).texts)
        }
        guard site.records != nil else {
            return judge(fields, record: nil, request: request, site: site, locale: locale, wantsJSON: wantsJSON)
        }
        return withRecord(request, site: site, json: wantsJSON) { [self] record in
            var fields = fields
            if let files = record?.kept?.files, !files.isEmpty {
                HeldUploads.putBack(files, into: &fields, form: site.form)
            }
            return judge(fields, record: record, request: request, site: site, locale: locale, wantsJSON: wantsJSON)
        }
    }

    /// Judges decoded `fields` (of `record`, when one is edited) and answers.
    private func judge(
        _ fields: SubmittedFields, record: EditedRecord?, request: Request, site: FormSite, locale: String,
        wantsJSON: Bool, budget: Int? = nil, offServerThread: Bool = false
    ) -> Response {
        // Option sources may each take up to their deadline: a form that asks them waits with its
        // connection suspended, on a worker thread, never on one of the server's.
        if !site.sources.isEmpty, !offServerThread {
            return .later { [self] in
                await Blocking.run { [self] in
                    judge(
                        fields, record: record, request: request, site: site, locale: locale, wantsJSON: wantsJSON,
                        budget: budget, offServerThread: true)
                }
            }
        }
        let budget = budget ?? inlineBudget
        let stored = record?.values
        let verdict = site.engine.evaluate(fields, stored: stored, locale: locale, budget: budget)
        if verdict.spentBudget, budget < checkingBudget {
            return .later { [self] in
                await Self.onCostlyChecks {
                    judge(
                        fields, record: record, request: request, site: site, locale: locale, wantsJSON: wantsJSON,
                        budget: checkingBudget, offServerThread: true)
                }
            }
        }
        if !verdict.conditionFailures.isEmpty { conditionFailures.note(verdict.conditionFailures, on: site.form) }
        // Read only for a record with a version: a form without one pays nothing for it.
        let sent = record?.version == nil ? .unchecked : RecordVersion.sent(fields, request: request)
        // A page shown again carries the version its reader saw, so that a later save still finds out.
        let shown = sent.text ?? record?.version
        if !fields.isJSON, let tag = fields.first(FieldNames.addItem).flatMap(\.enteredText) {
            return rerender(
                site, verdict: verdict, record: record, request: request, locale: locale, addingTo: tag, version: shown)
        }
        if !fields.isJSON, let tag = fields.first(FieldNames.search).flatMap(\.enteredText) {
            return rerender(
                site, verdict: verdict, record: record, request: request, locale: locale, addingTo: nil, version: shown,
                searching: tag)
        }
        if verdict.optionsUnavailable {
            // Nothing is wrong with what was sent: a source could not confirm it in time. Not kept, not
            // refused: the client sends it again.
            var response =
                wantsJSON
                ? Answers.json(.serviceUnavailable, verdict.errorsJSON)
                : rerender(
                    site, verdict: verdict, record: record, request: request, locale: locale, addingTo: nil,
                    version: shown)
            response.status = .serviceUnavailable
            response.headers["Retry-After"] = "5"
            return response
        }
        if let current = record?.version, !sent.allows(current) {
            return changed(
                site, verdict: verdict, record: record, request: request, locale: locale, json: wantsJSON,
                version: current)
        }
        guard verdict.isValid else {
            // A browser's valid files are held for the next post, so the reader need not choose them again.
            if !wantsJSON, let held, HeldUploads.hasFiles(verdict) {
                let nonce = request.cookie(named: csrf.cookieName) ?? ""
                return .later { [self] in
                    await Blocking.run { [self] in
                        var files: [Int: PageState.HeldFile] = [:]
                        do {
                            files = try held.hold(
                                verdict, formID: site.id, nonce: nonce, except: record?.kept?.files ?? [])
                        } catch {
                            logger.error("files not held", metadata: ["form": "\(site.id)", "error": "\(error)"])
                        }
                        return refused(
                            site, verdict: verdict, record: record, request: request, locale: locale, json: false,
                            version: shown, held: files)
                    }
                }
            }
            return refused(
                site, verdict: verdict, record: record, request: request, locale: locale, json: wantsJSON,
                version: shown)
        }
        if let handler = site.handler {
            // The handler may refuse the values itself (`ValidSubmission.refuse`): answered as the server
            // answers an invalid submission, on the same record; or find the record saved meanwhile
            // (`ValidSubmission.changed`): answered as the server answers a post from an older version.
            let context = SubmissionContext(
                site: site, locale: locale,
                refused: { [self] refusedVerdict in
                    refused(
                        site, verdict: refusedVerdict, record: record, request: request, locale: locale,
                        json: wantsJSON, version: shown)
                },
                changed: { [self] version in
                    changed(
                        site, verdict: verdict, record: record, request: request, locale: locale, json: wantsJSON,
                        version: version)
                })
            return handler(
                ValidSubmission(
                    verdict: verdict, request: request, wantsJSON: wantsJSON, edited: record, context: context))
        }
        if let kept = record?.kept, let keeper = store as? DatabaseKeeper {
            return .later { [self] in
                await saveEdit(
                    verdict, of: kept, record: record, keeper: keeper, request: request, site: site, locale: locale,
                    json: wantsJSON, version: shown)
            }
        }
        guard let store else { return accepted(site, verdict: verdict, json: wantsJSON, id: nil) }
        // Answered as sent only once kept: the request waits, suspended, while the store writes.
        return .later { [self] in
            let id: SubmissionID?
            do {
                id = try await store.store(verdict, formID: site.id)
            } catch {
                logger.error("valid submission not kept", metadata: ["form": "\(site.id)", "error": "\(error)"])
                return notKept(
                    site, verdict: verdict, record: record, request: request, locale: locale, json: wantsJSON,
                    version: shown)
            }
            return accepted(site, verdict: verdict, json: wantsJSON, id: id, version: givesEditLinks(site) ? 1 : nil)
        }
    }

    /// `POST /forms/{id}/explain`: the whole verdict as JSON, for form authors (`serve --explain`).
    func explainVerdict(_ request: Request) -> Response {
        guard explain else {
            return Answers.problem(.notFound, "explanations are off (serve --explain)", code: "notFound", json: true)
        }
        guard let site = sites[request.parameters["id"] ?? ""]?.site else { return notFound(RequestView(request)) }
        let fields: SubmittedFields
        do {
            fields = try SubmissionBody.fields(of: request, contentType: request.contentType)
        } catch {
            return Answers.problem(error.status, error.message, code: "body", json: true)
        }
        let locale = site.locale(for: request.headers["Accept-Language"])
        // Explained against the record the request edits, as its submission would be judged.
        return withRecord(request, site: site, json: true) { record in
            Answers.json(
                .ok, site.engine.evaluate(fields, stored: record?.values, locale: locale, explain: true).explanationJSON
            )
        }
    }

    /// `/forms/{id}` for form `id`, the id percent-encoded as a path segment: an id may hold any letter,
    /// and the address goes into headers (`Location`) as well as pages.
    static func path(_ id: String) -> String { "/forms/" + segment(id) }

    /// `text` percent-encoded as one path segment (an id, a tag): ASCII that a path allows, but `/`.
    static func segment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: segmentCharacters) ?? ""
    }

    private static let segmentCharacters = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))

    /// The address of the page a post to `site` came from: a form that edits records keeps the query
    /// that names the record (`/forms/account?user=ada`), as its page's form does.
    func address(of site: FormSite, request: Request) -> String {
        "/forms/\(site.id)" + (actionQuery(of: site, request: request).map { "?" + $0 } ?? "")
    }

    /// The query a page of `site` posts back with: the one that names the record, for a form that edits
    /// records; nil for any other form, whose page posts to `/forms/{id}` whatever its address.
    func actionQuery(of site: FormSite, request: Request) -> String? {
        site.records != nil && !request.query.isEmpty ? request.query.urlencoded : nil
    }

    /// A missing form's 404, negotiated as the server's own are: JSON for an API client, the page for a
    /// browser, plain text for anything else.
    private func notFound(_ request: borrowing RequestView) -> Response {
        Answers.serverError(.notFound, "no such form at \(Request.pathText(request.pathSegments))", request.headers)
    }

    /// Runs form `id`'s option providers again and serves the form with what they give now. The form
    /// is recompiled and its pages rebuilt before the old site is replaced, so a provider whose options
    /// no longer fit the form's defaults fails here and the old site stays.
    func reloadOptions(of id: String) throws(LoadProblems) {
        guard case .reloadable(let slot) = sites[id], let providers = hooks.optionProviders[id] else {
            throw LoadProblems([LoadProblem(file: "Swift", path: id, message: "no options are provided for this form")])
        }
        let form = try FormCatalog.applying(providers, to: slot.site.form.form, id: id)
        do {
            slot.replace(
                with: try FormSite(form: form, hooks: hooks, maximumFileSize: maximumFileSize))
        } catch {
            throw LoadProblems([LoadProblem(file: "Swift", path: id, message: "\(error)")])
        }
    }

    /// This browser's nonce, or a new one to set.
    func nonce(of request: Request) -> (String, isNew: Bool) {
        if let nonce = request.cookie(named: csrf.cookieName), CSRFGuard.isWellFormed(nonce: nonce) {
            return (nonce, false)
        }
        return (csrf.newNonce(), true)
    }

    static func locale(_ acceptLanguage: String?, formLocale: String) -> String {
        MessageLocale.choose(formLocale: formLocale, acceptLanguage: acceptLanguage)
    }
}
