import FormEngine
import FormHTML
import FormModel
import HTTPServer

/// Everything the routes need for one form, built once at start: its engine, its page in each
/// built-in language, its descriptor JSON, and the Swift handler of its valid submissions.
final class FormSite: Sendable {
    let engine: FormEngine
    /// The page per built-in locale (`en`, `zh-Hans`), each with its constant bytes precomputed.
    let pages: [String: FormPage]
    /// The page's state on the descriptor's own values.
    let initialState: PageState
    /// `GET /forms/{id}.json`.
    let descriptor: PreparedResponse
    /// The Swift handler of valid submissions, if one is registered.
    let handler: SubmissionHandler?

    var form: CompiledForm { engine.form }
    var id: String { engine.form.form.id }

    init(form: CompiledForm, hooks: FormHooks) throws {
        engine = FormEngine(form: form, customValidators: hooks.validators)
        let initial = engine.initial()
        initialState = PageState(verdict: initial, entered: false)
        var pages: [String: FormPage] = [:]
        for locale in MessageLocale.builtIn {
            var texts = PageTexts(locale: locale)
            if locale == MessageLocale.normalise(form.form.locale) { texts = PageTexts(form: form.form) }
            pages[locale] = FormPage(form: form, initialState: initialState, texts: texts)
        }
        self.pages = pages
        descriptor = try PreparedResponse(
            Response(
                status: .ok, headers: ["Content-Type": "application/json", "Cache-Control": "no-cache"],
                body: ResponseBody(bytes: DescriptorJSON.json(form.form).bytes)))
        handler = hooks.handlers[form.form.id]
    }

    /// The page for `locale`, or the form's own.
    func page(_ locale: String) -> FormPage {
        pages[locale] ?? pages[MessageLocale.normalise(form.form.locale) ?? "en"] ?? pages["en"]!
    }
}

extension PageState {
    /// What a page shows for `verdict`: its states and errors, and — when `entered` — the texts sent,
    /// except for disabled rows, which show the server's value whatever was posted.
    init(verdict: Verdict, entered: Bool) {
        self.init(rowCount: verdict.form.rows.count, sectionCount: verdict.form.sections.count)
        rowHidden = verdict.rowHidden
        rowDisabled = verdict.rowDisabled
        rowRequired = verdict.rowRequired
        sectionHidden = verdict.sectionHidden
        if entered {
            values = verdict.entered.filter { !verdict.rowDisabled[$0.key] }
            items = verdict.enteredItems
        }
        errors = verdict.errors.map { error in
            if let row = error.row { return PageError(row: row, message: error.message) }
            if let section = error.section, let position = error.position {
                return PageError(section: section, position: position, message: error.message)
            }
            if let section = error.section { return PageError(section: section, message: error.message) }
            return PageError(formMessage: error.message)
        }
    }
}
