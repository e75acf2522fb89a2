/// Language tags (BCP 47: `en`, `en-GB`, `zh-Hans-CN`, `fr`) as Formwright compares them: ASCII
/// case-insensitively, with `_` read as `-` (`zh_Hans_CN`, as some platforms spell locales).
///
/// The functions take `String`, not any `StringProtocol`: a generic function called from another
/// module runs unspecialised, asking the runtime for type metadata on every byte it compares.
///
/// Two kinds of text reach a reader: the form's own (titles, options, a validator's `message`), in the
/// form's `locale`, and the fixed texts (buttons, the built-in messages), built in for English and
/// Simplified Chinese and overridable per locale by the descriptor's `messages`.
///
/// ```swift
/// LanguageTag.builtIn(for: "zh-CN")           // "zh-Hans"
/// LanguageTag.builtIn(for: "zh-TW")           // nil: Traditional Chinese is not built in
/// LanguageTag.same("en", "en-GB")             // true
/// LanguageTag.same("zh-Hans", "zh-Hant")      // false
/// ```
public enum LanguageTag {
    /// The languages with built-in texts.
    public static let builtIn = ["en", "zh-Hans"]

    /// The built-in language `tag` names: `en…` is `en`; `zh`, `zh-CN`, `zh-SG`, `zh-Hans…` are
    /// `zh-Hans`; anything else, Traditional Chinese (`zh-Hant`, `zh-TW`, `zh-HK`, `zh-MO`) included, nil.
    public static func builtIn(for tag: String) -> String? {
        let parts = subtags(tag)
        switch parts.first {
        case "en": return "en"
        case "zh":
            if parts.contains("hans") { return "zh-Hans" }
            let traditional = ["hant", "tw", "hk", "mo"]
            return parts.contains(where: traditional.contains) ? nil : "zh-Hans"
        default: return nil
        }
    }

    /// The language of the fixed texts a reader of `tag` gets when the descriptor gives none:
    /// `tag`'s built-in language, else English.
    public static func builtInTexts(for tag: String) -> String { builtIn(for: tag) ?? "en" }

    /// Whether a reader of `a` reads `b` as their own language: the same primary language (`en`,
    /// `en-GB`), and for Chinese the same script (Simplified or Traditional).
    public static func same(_ a: String, _ b: String) -> Bool {
        // Compared in place, byte by byte: a reader's tags are matched on every page and post.
        let (x, y) = (a.utf8.prefix { !isSeparator($0) }, b.utf8.prefix { !isSeparator($0) })
        guard !x.isEmpty, x.elementsEqual(y, by: { folded($0) == folded($1) }) else { return false }
        let chinese = x.elementsEqual("zh".utf8) { folded($0) == $1 }
        return !chinese || builtIn(for: a) == builtIn(for: b)
    }

    /// Whether `a` and `b` are the same tag, spelling aside (`zh_hans` is `zh-Hans`).
    public static func equal(_ a: String, _ b: String) -> Bool {
        a.utf8.elementsEqual(b.utf8) { folded($0) == folded($1) }
    }

    /// A tag's byte with ASCII letters lowercased and `_` read as `-`.
    private static func folded(_ byte: UInt8) -> UInt8 {
        if byte == UInt8(ascii: "_") { return UInt8(ascii: "-") }
        return byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    private static func isSeparator(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") }

    /// The descriptor's texts for `locale` from its `messages` (texts by locale): those given for the
    /// same language (`fr-CA` for `fr`), then those given for exactly `locale`, which win.
    public static func texts(for locale: String, in messages: [String: [String: String]]) -> [String: String] {
        // The exact tag last, so its texts win; the others in a fixed order, so every start agrees.
        let tags = messages.keys.filter { same($0, locale) }.sorted { a, b in
            let (exactA, exactB) = (equal(a, locale), equal(b, locale))
            return exactA == exactB ? a < b : exactB
        }
        var texts: [String: String] = [:]
        for tag in tags { texts.merge(messages[tag] ?? [:]) { _, later in later } }
        return texts
    }

    /// The subtags, lowercased: `zh_Hans_CN` gives `zh`, `hans`, `cn`.
    private static func subtags(_ tag: String) -> [String] {
        tag.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
    }
}
