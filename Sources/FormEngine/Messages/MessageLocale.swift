/// Chooses the language of messages: the reader's, when their browser asks for one Formwright speaks,
/// else the form's.
public enum MessageLocale {
    /// The locales with built-in messages.
    public static let builtIn = ["en", "zh-Hans"]

    /// `zh`, `zh-CN`, `zh-Hans`, `zh-SG` → `zh-Hans`; `en-*` → `en`; anything else → nil.
    public static func normalise(_ tag: some StringProtocol) -> String? {
        let lower = tag.lowercased()
        if lower == "zh" || lower.hasPrefix("zh-hans") || lower == "zh-cn" || lower == "zh-sg" { return "zh-Hans" }
        if lower == "en" || lower.hasPrefix("en-") { return "en" }
        return nil
    }

    /// The locale for a reader sending `acceptLanguage` (RFC 9110 §12.5.4: the highest `q` that we speak
    /// wins; `q=0` means "not this") on a form whose locale is `formLocale`.
    public static func choose(formLocale: String, acceptLanguage: String?) -> String {
        var best: (locale: String, quality: Double)?
        for entry in (acceptLanguage ?? "").split(separator: ",") {
            let parts = entry.split(separator: ";")
            guard let tag = parts.first?.trimmingSpaces, let locale = normalise(tag) else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.trimmingSpaces
                if pair.hasPrefix("q="), let value = Double(pair.dropFirst(2)) { quality = value }
            }
            if quality > 0, quality > (best?.quality ?? 0) { best = (locale, quality) }
        }
        return best?.locale ?? normalise(formLocale) ?? "en"
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: Substring {
        let text = self[...]
        let start = text.firstIndex { $0 != " " && $0 != "\t" } ?? text.endIndex
        let end = text.lastIndex { $0 != " " && $0 != "\t" }.map(text.index(after:)) ?? start
        return Substring(text[start..<Swift.max(start, end)])
    }
}
