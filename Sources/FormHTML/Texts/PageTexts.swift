import FormModel

/// Every fixed string the pages show, in one language. English and Simplified Chinese are built in;
/// a form's `messages[locale]` may override any of them by key (`"submit"`, `"addAnother"`…).
///
/// ```swift
/// let texts = PageTexts(locale: "zh-CN")  // Simplified Chinese
/// texts.problems(2)                       // "有 2 个问题"
/// ```
public struct PageTexts: Sendable, Hashable {
    /// The language of the built-in texts: `en` or `zh-Hans`.
    public var language: String
    /// The locale the descriptor's texts (`messages`) were taken for, whose language they are in.
    public private(set) var overrideLanguage: String?
    /// The keys of the texts the descriptor gave.
    public private(set) var overridden: Set<String> = []
    /// The language of the page the texts are shown on (its `<html lang>`), when known: a text in
    /// another language is marked with its own (`lang(_:)`).
    public var pageLanguage: String?
    /// The default submit button text.
    public var submit: String
    /// The summary heading when there is one problem.
    public var oneProblem: String
    /// The summary heading when there are several; `%d` stands for the count.
    public var severalProblems: String
    /// Read before each inline error by screen readers, and before the page title when there are errors.
    public var errorPrefix: String
    /// The button asking for one more item of a multivalued section.
    public var addAnother: String
    /// The button removing an item.
    public var remove: String
    /// The button moving an item up.
    public var moveUp: String
    /// The button moving an item down.
    public var moveDown: String
    /// Announced when an item is added; `{item}` stands for its name ("Tag 3").
    public var itemAdded: String
    /// Announced when an item is removed; `{item}` stands for the name it had.
    public var itemRemoved: String
    /// Announced when an item is moved up; `{item}` stands for its name where it lands.
    public var itemMovedUp: String
    /// Announced when an item is moved down; `{item}` stands for its name where it lands.
    public var itemMovedDown: String
    /// What the required marker (`*`) means, for its tooltip. Not keyed `required`: a form's
    /// `messages[locale]["required"]` is the validators' "can't be empty" message.
    public var requiredMarker: String
    /// The empty option of a selector without `noValueDisplayText`.
    public var chooseOption: String
    /// A boolean item of a multivalued section, drawn as a choice of two: true.
    public var yes: String
    /// A boolean item of a multivalued section, drawn as a choice of two: false.
    public var no: String
    /// The name of a row's "?" help toggle, for screen readers; `{name}` stands for the row's title.
    public var helpFor: String
    /// The button that searches a selector's options without a script.
    public var search: String
    /// The label of a searched selector's matches; `{name}` stands for the row's title.
    public var matchesFor: String
    /// Said when a search finds nothing; `{query}` stands for what was searched.
    public var noMatches: String
    /// Said when a selector's options cannot be searched just now.
    public var searchUnavailable: String
    /// The label of the filter before a long select; `{name}` stands for the row's title.
    public var filterOptions: String
    /// The accessible name of a step counter's − button; `{name}` stands for the row's title.
    public var decrease: String
    /// The accessible name of a step counter's + button; `{name}` stands for the row's title.
    public var increase: String
    /// Help under a count-down timer: the format to type.
    public var durationHelp: String
    /// Help under a date-time: the time zone its times are read in; `{zone}` stands for the zone's name
    /// (`Europe/Paris`). A reader elsewhere must know whose clock to type.
    public var timeZoneHelp: String
    /// The thank-you page's title.
    public var thankYou: String
    /// The thank-you page's message.
    public var thankYouMessage: String
    /// Under it, when the server kept the submission under an id: `{reference}` stands for the id, which
    /// the reader can quote to whoever reads the submissions.
    public var thankYouReference: String
    /// On the thank-you page of a form whose submissions can be changed later, above the link that
    /// opens them again: the link is private.
    public var editLinkNote: String
    /// That link's text.
    public var editLink: String
    /// Above a form opened through that link: `{reference}` stands for the submission's id.
    public var editing: String
    /// The subject of the e-mail telling a form's team of a submission (`deliver: email`): `{title}`
    /// stands for the form's title.
    public var mailSubject: String
    /// Its first line, above the answers: `{title}`, and `{reference}` for the submission's id.
    public var mailIntro: String
    /// The subject of the confirmation sent to the person who submitted (`deliver: confirmTo`).
    public var confirmationSubject: String
    /// Its first line, above the answers: `{title}` and `{reference}`.
    public var confirmationIntro: String
    /// The title of the index of forms.
    public var formsTitle: String
    /// The 404 page's title.
    public var notFound: String
    /// The 404 page's message.
    public var notFoundMessage: String
    /// The 413 page's title: a post over the server's body limit (files too large to send).
    public var tooLarge: String
    /// Its message; `{size}` stands for the limit (`1 MB`).
    public var tooLargeMessage: String
    /// The title of the page a browser reads when the server refuses a request it cannot take (a
    /// malformed address, a method the address does not take, a body of another kind): 400, 405, 415.
    public var refused: String
    /// Its message, above the server's own reason (in English).
    public var refusedMessage: String
    /// The 403 page's title when a post's CSRF token is missing or wrong.
    public var sessionExpired: String
    /// The 403 page's message.
    public var sessionExpiredMessage: String
    /// The title of the page answering an address that names a stored record which does not exist.
    public var recordNotFound: String
    /// Its message, when the application gives none.
    public var recordNotFoundMessage: String
    /// The title of the page answering an address whose stored record no longer fits its form.
    public var recordRefused: String
    /// Its message.
    public var recordRefusedMessage: String
    /// The error in the summary of a page whose post would have overwritten someone else's save of
    /// the same record (a `409`).
    public var recordChanged: String
    /// The error in the summary of a page whose valid post the server could not keep (a `503`: its
    /// submissions folder could not be written), the values kept for sending again.
    public var notKept: String
    /// Beside a file input, after a refused post whose file was valid: the server holds that file for
    /// the next post. `{name}` stands for the file's name, `{size}` for its size (`84 KB`).
    public var heldFile: String
    /// The link back to a form or to the list of forms.
    public var back: String
}

extension PageTexts {
    /// The built-in texts for `locale`: `zh`, `zh-CN`, `zh-Hans` and their variants give Simplified
    /// Chinese, anything else English.
    public init(locale: String) {
        self = LanguageTag.builtInTexts(for: locale) == "zh-Hans" ? .chinese : .english
    }

    /// The texts for a reader of `locale` (a key of the form's locales): the built-in ones with the
    /// descriptor's `messages` for that locale's language applied.
    public init(locale: String, overrides messages: [String: [String: String]]) {
        self.init(locale: locale)
        let own = LanguageTag.texts(for: locale, in: messages)
        for (key, text) in own where override(key, with: text) { overridden.insert(key) }
        if !overridden.isEmpty { overrideLanguage = locale }
    }

    /// The texts for `form`'s own locale, on its page.
    public init(form: Form) {
        self.init(locale: form.locale, overrides: form.messages)
        pageLanguage = form.locale
    }

    /// The language of the text named `key` (see `override(_:with:)`).
    public func language(of key: String) -> String {
        overridden.contains(key) ? overrideLanguage ?? language : language
    }

    /// The `lang` to mark the text named `key` with: its language when the page's is another, else nil.
    public func lang(_ key: String) -> String? { lang(language: language(of: key)) }

    /// The `lang` to mark a text in `language` with: `language` when the page's is another, else nil.
    public func lang(language: String) -> String? {
        guard let pageLanguage, !LanguageTag.same(language, pageLanguage) else { return nil }
        return language
    }

    /// The summary heading for `count` problems.
    public func problems(_ count: Int) -> String {
        count == 1 ? oneProblem : severalProblems.replacing("%d", with: String(count))
    }
}
