import FormModel

/// Whether a typed `<input>` can carry a text as its `value`. HTML gives each type a value syntax
/// (HTML §4.10.5.1: a valid floating-point number, date string, time string, …) and browsers blank a
/// value that breaks it, so a refused entry such as "abc" in a number row would vanish from the
/// re-rendered page. Such a value is shown in a text input instead: the person sees what they typed,
/// beside the error that explains it.
enum TypedValues {
    static func fits(_ value: String, inputType type: StaticString) -> Bool {
        switch type.description {
        case "number", "range": NumberSyntax.isFloatingPoint(value)
        case "date": LocalDate(iso: value) != nil
        case "time": LocalTime(iso: value) != nil
        case "datetime-local": LocalDateTime(iso: value) != nil
        case "url": isAbsoluteURLShape(value)
        case "email": isEmailShape(value)
        default: true
        }
    }

    /// A scheme, a colon, and no whitespace: enough for the validator and the browser to keep it.
    private static func isAbsoluteURLShape(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":"), let first = text.first, first.isASCII, first.isLetter,
            text[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return false }
        return !text.contains { $0.isWhitespace }
    }

    /// One `@` between two non-empty parts, no whitespace.
    private static func isEmailShape(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty && !text.contains { $0.isWhitespace }
    }
}
