import FormEngine
import FormHTML
import FormModel
import HTTPServer

/// Everything the routes need for one form, built once at start: its engine, its page in each
/// built-in language, its descriptor JSON, and the Swift handler of its valid submissions.
final class FormSite: Sendable {
    let engine: FormEngine
    /// The page per locale the form has texts in (`FormEngine.locales`: the built-in ones, its own, those
    /// its `messages` name), each with its constant bytes precomputed.
    let pages: [String: FormPage]
    /// The fresh page per locale as a template response: a page request writes only its token, and
    /// adds its cookie when new (`ResponseTemplate`).
    private let pageTemplates: [String: ResponseTemplate]
    /// `pageTemplates[ownLocale]`: a reader who asks for no language, the most common, costs no hashing.
    private let ownPageTemplate: ResponseTemplate
    /// The page's state on the descriptor's own values.
    let initialState: PageState
    /// The conditions that cannot be evaluated on the descriptor's own values (logged at start).
    let initialFailures: [ConditionFailure]
    /// `GET /forms/{id}.json`.
    let descriptor: PreparedResponse
    /// The Swift handler of valid submissions, if one is registered.
    let handler: SubmissionHandler?
    /// Which stored record a request edits, when the form edits records.
    let records: RecordProvider?
    /// The locale of a reader who asks for none: the form's own.
    let ownLocale: String

    var form: CompiledForm { engine.form }
    /// The form's id, kept apart: every page's token is signed with it.
    let id: String
    /// The option sources of the rows that search one, by row index.
    let sources: [Int: OptionSource]

    /// The site of `form`; uploads over `maximumFileSize` bytes are refused (`serve --max-file`).
    init(form: CompiledForm, hooks: FormHooks, maximumFileSize: Int? = nil) throws {
        engine = FormEngine(
            form: form, customValidators: hooks.validators, optionSources: hooks.optionSources,
            maximumFileSize: maximumFileSize)
        let engine = engine
        sources = Dictionary(
            uniqueKeysWithValues: form.rows.compactMap { row in
                engine.optionSource(row: row.index).map { (row.index, $0) }
            })
        let initial = engine.initial()
        initialState = PageState(verdict: initial, entered: false)
        initialFailures = initial.conditionFailures
        var pages: [String: FormPage] = [:]
        for locale in engine.locales {
            let texts = PageTexts(locale: locale, overrides: form.form.messages)
            var limits: [Int: UploadLimit] = [:]
            if let maximumFileSize {
                for row in form.rows where row.row.type.valueKind == .file {
                    limits[row.index] = engine.fileTooLargeMessage(row: row.index, locale: locale).map {
                        UploadLimit(bytes: maximumFileSize, message: $0)
                    }
                }
            }
            pages[locale] = FormPage(form: form, initialState: initialState, texts: texts, uploadLimits: limits)
        }
        self.pages = pages
        pageTemplates = try pages.mapValues { page in
            let (prefix, suffix) = page.freshPartsAroundToken
            return try ResponseTemplate(
                headers: Answers.pageHeaders, prefix: prefix, slotCount: CSRFGuard.tokenByteCount, suffix: suffix)
        }
        descriptor = try PreparedResponse(
            Response(
                status: .ok,
                headers: [
                    "Content-Type": "application/json", "Cache-Control": "no-cache",
                    "X-Content-Type-Options": "nosniff",
                ],
                body: ResponseBody(bytes: DescriptorJSON.json(form.form).bytes)))
        handler = hooks.handlers[form.form.id]
        records = hooks.recordProviders[form.form.id]
        ownLocale = MessageLocale.choose(formLocale: form.form.locale, acceptLanguage: nil, available: engine.locales)
        // `ownLocale` is one of `engine.locales`, each of which has a page.
        ownPageTemplate = pageTemplates[ownLocale]!
        id = form.form.id
    }

    /// The page for `locale` (one of `engine.locales`), or for the reader of that tag, or the form's own.
    func page(_ locale: String) -> FormPage {
        // `pageLocale` is one of `engine.locales`, each of which has a page.
        pages[locale] ?? pages[pageLocale(locale)]!
    }

    /// Which of the form's locales a page for `locale` is in: itself, its match, or the form's own.
    private func pageLocale(_ locale: String) -> String {
        if pages[locale] != nil { return locale }
        return MessageLocale.match(locale, in: engine.locales).flatMap { pages[$0] == nil ? nil : $0 } ?? ownLocale
    }

    /// The fresh page for `locale` carrying `csrfToken`, and `setCookie` when the reader is new: from
    /// the page's template, or built for this request when the template declines the token.
    func freshPage(_ locale: String, csrfToken: String, setCookie: String?) -> Response {
        let template = locale == ownLocale ? ownPageTemplate : pageTemplates[pageLocale(locale)]!
        if FormPage.isVerbatim(csrfToken: csrfToken),
            let response = template.response(filling: csrfToken, adding: setCookie.map { ("Set-Cookie", $0) })
        {
            return response
        }
        let body = ResponseBody(bytes: page(locale).renderFresh(csrfToken: csrfToken))
        var response = Response(status: .ok, headers: Answers.pageHeaders, body: body)
        if let setCookie { response.headers.add("Set-Cookie", setCookie) }
        return response
    }

    /// The locale for a reader sending `acceptLanguage`, among the form's (`MessageLocale.choose`).
    func locale(for acceptLanguage: String?) -> String {
        // A client that asks for no language gets the form's own, worked out once.
        guard let acceptLanguage else { return ownLocale }
        return MessageLocale.choose(
            formLocale: form.form.locale, acceptLanguage: acceptLanguage, available: engine.locales)
    }
}

extension PageState {
    /// What a page shows for `verdict`: its states and errors, and — when `entered` — the texts sent.
    /// A disabled row shows the server's value whatever was posted: the record's being edited
    /// (`stored`), else the descriptor's. A row that shows what was typed but may become disabled
    /// live carries the server's value too (`serverValues`), for the page script to show then.
    init(verdict: Verdict, entered: Bool, stored: StoredValues? = nil) {
        self.init(rowCount: verdict.form.rows.count, sectionCount: verdict.form.sections.count)
        rowHidden = verdict.rowHidden
        rowDisabled = verdict.rowDisabled
        rowRequired = verdict.rowRequired
        sectionHidden = verdict.sectionHidden
        if entered {
            values = verdict.entered.filter { !verdict.rowDisabled[$0.key] }
            items = verdict.enteredItems
            for row in verdict.form.rows where row.row.type.takesInput && !row.row.type.isSecret {
                guard !verdict.form.sections[row.sectionIndex].section.isMultivalued else { continue }
                if verdict.rowDisabled[row.index] {
                    show(verdict.values[row.index], row: row.index)
                } else if case .predicate = row.disabled {
                    serverValues[row.index] = Self.texts(of: stored?.rows[row.index] ?? row.row.value)
                }
            }
        }
        // A searched row shows what was searched for and the option chosen: with the title its source
        // confirmed, or only its value until `FormSite.nameChosenOptions` asks for the title.
        for row in verdict.form.rows where row.row.optionsFrom != nil {
            let query = verdict.enteredText(named: FieldNames.query(tag: row.row.tag ?? "")) ?? ""
            let chosen =
                verdict.confirmedOptions[row.index]
                ?? (verdict.values[row.index]).flatMap { value in
                    if case .option(let key) = value { Option(key) } else { nil }
                }
            searches[row.index] = Search(query: query, chosen: chosen)
        }
        errors = verdict.errors.map { error in
            var page: PageError
            if let row = error.row {
                page = PageError(row: row, message: error.message)
            } else if let section = error.section, let position = error.position {
                page = PageError(section: section, position: position, message: error.message)
            } else if let section = error.section {
                page = PageError(section: section, message: error.message)
            } else {
                page = PageError(formMessage: error.message)
            }
            page.language = error.language
            return page
        }
    }
}

extension FormSite {
    /// Gives the chosen option of each searched row of `state` its title, asking the row's source: a
    /// kept value (a record being edited) carries only its value, and a page must show what it names.
    /// A source that fails or is late leaves the value as its own title.
    func nameChosenOptions(in state: inout PageState) {
        for (index, search) in state.searches {
            guard let chosen = search.chosen, chosen.title == chosen.value, let source = sources[index],
                let named = try? source.option(chosen.value)
            else { continue }
            state.searches[index]?.chosen = named
        }
    }
}

extension PageState {
    /// The page of a stored record: its values where it has them, the descriptor's elsewhere, and the
    /// states `verdict` (the engine's `initial(stored:)`) decided on them.
    init(editing stored: StoredValues, verdict: Verdict) {
        self.init(verdict: verdict, entered: false)
        for (index, value) in stored.rows where !verdict.form.rows[index].row.type.isSecret {
            show(value, row: index)
        }
        for index in stored.items.keys {
            // As its control holds it (a duration as H:MM:SS, a boolean as its choice's `true` or `false`,
            // never the blank that means no item); a password item is an empty control.
            let isPassword = verdict.form.sections[index].item?.row.type.isSecret == true
            items[index] =
                isPassword
                ? verdict.enteredItems[index]
                : verdict.items[index]?.map(Self.itemText(of:))
        }
    }
}
