import FormModel

/// Every fixed string the pages show, in one language. English and Simplified Chinese are built in;
/// a form's `messages[locale]` may override any of them by key (`"submit"`, `"addAnother"`…).
///
/// ```swift
/// let texts = PageTexts(locale: "zh-CN")  // Simplified Chinese
/// texts.problems(2)                       // "有 2 个问题"
/// ```
public struct PageTexts: Sendable, Hashable {
    /// The language tag pages declare in `<html lang>`: `en` or `zh-Hans`.
    public var language: String
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
    /// What the required marker (`*`) means, for its tooltip. Not keyed `required`: a form's
    /// `messages[locale]["required"]` is the validators' "can't be empty" message.
    public var requiredMarker: String
    /// The empty option of a selector without `noValueDisplayText`.
    public var chooseOption: String
    /// Help under a count-down timer: the format to type.
    public var durationHelp: String
    /// The thank-you page's title.
    public var thankYou: String
    /// The thank-you page's message.
    public var thankYouMessage: String
    /// The title of the index of forms.
    public var formsTitle: String
    /// The 404 page's title.
    public var notFound: String
    /// The 404 page's message.
    public var notFoundMessage: String
    /// The 403 page's title when a post's CSRF token is missing or wrong.
    public var sessionExpired: String
    /// The 403 page's message.
    public var sessionExpiredMessage: String
    /// The link back to a form or to the list of forms.
    public var back: String
}

extension PageTexts {
    /// The built-in texts for `locale`: `zh`, `zh-CN`, `zh-Hans` and their variants give Simplified
    /// Chinese, anything else English.
    public init(locale: String) {
        self = PageTexts.isChinese(locale) ? .chinese : .english
    }

    /// The texts for `form`: its locale's built-in texts with its `messages` for that locale applied.
    public init(form: Form) {
        self.init(locale: form.locale)
        let overrides = form.messages[form.locale] ?? form.messages[language] ?? [:]
        for (key, text) in overrides { override(key, with: text) }
    }

    /// The summary heading for `count` problems.
    public func problems(_ count: Int) -> String {
        count == 1 ? oneProblem : severalProblems.replacing("%d", with: String(count))
    }

    /// Whether `locale` names Simplified Chinese (or plain Chinese, which defaults to it).
    static func isChinese(_ locale: String) -> Bool {
        let parts = locale.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" })
        guard parts.first == "zh" else { return false }
        // Traditional Chinese is not built in; English is a better fallback than the wrong script.
        return !parts.contains("hant") && !parts.contains("tw") && !parts.contains("hk") && !parts.contains("mo")
    }
}
