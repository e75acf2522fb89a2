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
        if var header = acceptLanguage {
            // Walked byte by byte: every page and post of a browser carries the header, and splitting
            // it into strings of characters cost more than the rest of choosing.
            header.withUTF8 { bytes in
                var start = 0
                while start < bytes.count {
                    let end = bytes[start...].firstIndex(of: UInt8(ascii: ",")) ?? bytes.count
                    defer { start = end + 1 }
                    let parameters = bytes[start..<end].firstIndex(of: UInt8(ascii: ";")) ?? end
                    let tag = text(bytes, trimmed(bytes, start..<parameters))
                    guard let locale = match(tag, in: available) else { continue }
                    let quality = self.quality(bytes, parameters..<end)
                    if quality > 0, quality > (best?.quality ?? 0) { best = (locale, quality) }
                }
            }
        }
        return best?.locale ?? match(formLocale, in: available) ?? normalise(formLocale) ?? "en"
    }

    /// The `q` among the parameters `bytes[range]` (`;q=0.8`); 1 when there is none.
    private static func quality(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Double {
        var start = range.lowerBound
        while start < range.upperBound {
            let end = bytes[(start + 1)..<range.upperBound].firstIndex(of: UInt8(ascii: ";")) ?? range.upperBound
            let parameter = trimmed(bytes, (start + 1)..<end)
            if parameter.count > 2, bytes[parameter.lowerBound] == UInt8(ascii: "q"),
                bytes[parameter.lowerBound + 1] == UInt8(ascii: "="),
                let value = Double(text(bytes, (parameter.lowerBound + 2)..<parameter.upperBound))
            {
                return value
            }
            start = end
        }
        return 1
    }

    /// `range` without the spaces and tabs around it.
    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
        var (lower, upper) = (range.lowerBound, range.upperBound)
        while lower < upper, bytes[lower] == UInt8(ascii: " ") || bytes[lower] == UInt8(ascii: "\t") { lower += 1 }
        while upper > lower, bytes[upper - 1] == UInt8(ascii: " ") || bytes[upper - 1] == UInt8(ascii: "\t") {
            upper -= 1
        }
        return lower..<upper
    }

    private static func text(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }
}
