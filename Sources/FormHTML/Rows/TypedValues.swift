import FormModel

/// Whether a typed `<input>` can carry a text as its `value`. HTML gives each type a value syntax
/// (HTML §4.10.5.1: a valid floating-point number, date string, time string, …) and browsers blank a
/// value that breaks it, so a refused entry such as "abc" in a number row would vanish from the
/// re-rendered page. Such a value is shown in a text input instead: the person sees what they typed,
/// beside the error that explains it.
enum TypedValues {
    static func fits(_ value: String, inputType type: StaticString) -> Bool {
        switch type.description {
        case "number", "range": isFloatingPoint(value)
        case "date": LocalDate(iso: value) != nil
        case "time": LocalTime(iso: value) != nil
        case "datetime-local": LocalDateTime(iso: value) != nil
        case "url": isAbsoluteURLShape(value)
        case "email": isEmailShape(value)
        default: true
        }
    }

    /// HTML's valid floating-point number: `-?(digits(.digits)?|.digits)([eE][+-]?digits)?`.
    private static func isFloatingPoint(_ text: String) -> Bool {
        var rest = Substring(text)
        if rest.first == "-" { rest = rest.dropFirst() }
        let mantissaEnd = rest.firstIndex { $0 == "e" || $0 == "E" } ?? rest.endIndex
        let mantissa = rest[..<mantissaEnd]
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigitCharacter) }),
            !(parts.count == 2 && parts[1].isEmpty), parts.contains(where: { !$0.isEmpty })
        else { return false }
        guard mantissaEnd < rest.endIndex else { return true }
        var exponent = rest[rest.index(after: mantissaEnd)...]
        if exponent.first == "+" || exponent.first == "-" { exponent = exponent.dropFirst() }
        return !exponent.isEmpty && exponent.allSatisfy(\.isASCIIDigitCharacter)
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

extension Character {
    /// `0`–`9` only.
    fileprivate var isASCIIDigitCharacter: Bool { isASCII && isWholeNumber }
}
