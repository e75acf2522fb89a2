import FormModel

/// Which texts a reader gets: the locales a form has texts in, and the one a reader's
/// `Accept-Language` picks among them.
///
/// A form has texts in the built-in locales (`en`, `zh-Hans`), in its own `locale`, and in every
/// locale its descriptor's `messages` names; each is one key of `available(for:)`. A key that is not
/// built in (`fr`) shows the descriptor's texts for it over the English ones.
public enum MessageLocale {
    /// The locales with built-in messages.
    public static let builtIn = LanguageTag.builtIn

    /// `zh`, `zh-CN`, `zh-Hans`, `zh-SG` → `zh-Hans`; `en-*` → `en`; anything else → nil.
    public static func normalise(_ tag: String) -> String? { LanguageTag.builtIn(for: tag) }

    /// The locales `form` has texts in: the built-in ones, then its own, then those its `messages`
    /// names, one per language (`en-GB` adds nothing to `en`).
    public static func available(for form: Form) -> [String] {
        var locales = builtIn
        for tag in [form.locale] + form.messages.keys.sorted() where !tag.isEmpty {
            if !locales.contains(where: { LanguageTag.same($0, tag) }) { locales.append(tag) }
        }
        return locales
    }

    /// The locale of `available` a reader of `tag` gets: the same tag, else the same language
    /// (`fr-CA` reads `fr`, `en-GB` reads `en`); nil when none is.
    public static func match(_ tag: String, in available: [String]) -> String? {
        available.first { LanguageTag.equal($0, tag) } ?? available.first { LanguageTag.same($0, tag) }
    }

    /// The locale for a reader sending `acceptLanguage` (RFC 9110 §12.5.4: the highest `q` that
    /// `available` has wins; `q=0` means "not this") on a form whose locale is `formLocale`; without
    /// a match, the form's own locale, else English.
    public static func choose(formLocale: String, acceptLanguage: String?, available: [String] = builtIn) -> String {
        var best: (locale: String, quality: Double)?
        if let acceptLanguage {
            QualityList.forEachMember(in: acceptLanguage) { tag, quality in
                guard quality > 0, quality > (best?.quality ?? 0),
                    let locale = match(String(decoding: tag, as: UTF8.self), in: available)
                else { return }
                best = (locale, quality)
            }
        }
        return best?.locale ?? match(formLocale, in: available) ?? normalise(formLocale) ?? "en"
    }
}
