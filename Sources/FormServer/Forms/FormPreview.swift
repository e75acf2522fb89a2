import FormEngine
import FormHTML
import FormModel

/// A form's page as `serve` would send it, without a server: for `formwright render`, so a form
/// author can look at a page, or check it with an HTML validator, straight from a descriptor file.
///
/// The page is the one a browser gets, built by the same code, except for the CSRF token field:
/// a preview is not a live form, so it has none.
///
/// ```swift
/// let preview = try FormPreview(form: compiled)
/// let html = preview.freshPage(locale: nil)
/// ```
public struct FormPreview: Sendable {
    private let site: FormSite

    /// The preview of `form`, with the option lists and validators `hooks` provide.
    public init(form: CompiledForm, hooks: FormHooks = FormHooks()) throws(LoadProblems) {
        var hooks = hooks
        // Providers for other forms are not this form's business.
        hooks.optionProviders = hooks.optionProviders.filter { $0.key == form.form.id }
        let catalog = try FormCatalog(forms: [form.form.id: form], ids: [form.form.id])
            .applying(hooks.optionProviders)
        do {
            site = try FormSite(form: catalog.forms[form.form.id] ?? form, hooks: hooks)
        } catch {
            throw LoadProblems([LoadProblem(file: "Swift", path: form.form.id, message: "\(error)")])
        }
    }

    /// The page a `GET` shows, in `locale` (`en`, `zh-Hans`, a locale the descriptor gives texts for)
    /// or the form's own.
    public func freshPage(locale: String?) -> [UInt8] {
        site.page(language(locale)).renderFresh(csrfToken: nil)
    }

    /// What a browser post of `fields` gets back: the page again with the values kept and the errors
    /// inline when the submission is invalid, or where a valid one is redirected to.
    public func answer(to fields: SubmittedFields, locale: String?) -> Answer {
        let language = language(locale)
        let verdict = site.engine.evaluate(fields, locale: language)
        guard verdict.isValid else {
            return .invalid(page: site.page(language).render(state: PageState(verdict: verdict, entered: true)))
        }
        return .valid(redirect: site.form.form.successRedirect ?? "/forms/\(site.id)/thanks")
    }

    /// The two answers to a browser post.
    public enum Answer: Sendable {
        /// `422`: this page, with values and errors.
        case invalid(page: [UInt8])
        /// `303` to this location (unless a Swift handler answers otherwise).
        case valid(redirect: String)
    }

    /// The form's locale a reader of `locale` gets, as `Accept-Language: locale` would choose it.
    private func language(_ locale: String?) -> String { site.locale(for: locale) }
}
