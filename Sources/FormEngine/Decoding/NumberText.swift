import FormModel
import Foundation

/// Numbers in the one fixed notation HTML's number input sends (HTML §2.3.4.3, "valid floating-point
/// number"): `-12`, `3.5`, `.5`, `1e3`. No grouping separators, no comma decimals, no `NaN`, no `Infinity`.
enum NumberText {
    /// A whole number in `Int`'s range, optionally signed.
    static func integer(_ text: String) -> Int? {
        var digits = text.utf8[...]
        if digits.first == UInt8(ascii: "-") || digits.first == UInt8(ascii: "+") { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int(text.first == "+" ? String(text.dropFirst()) : text)
    }

    /// A decimal number, exact.
    static func decimal(_ text: String) -> Decimal? {
        guard NumberSyntax.isFloatingPoint(text, allowingPlusSign: true), Double(text)?.isFinite == true else {
            return nil
        }
        return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
    }
}

/// Durations for count-down timer rows: `H:MM`, `H:MM:SS`, whole seconds, or ISO-8601 `PT1H30M`.
enum DurationText {
    /// The duration in seconds, or nil when the text is none of the accepted forms.
    static func seconds(_ text: String) -> Int? {
        if let seconds = NumberText.integer(text) { return seconds >= 0 ? seconds : nil }
        let upper = text.uppercased()
        if upper.hasPrefix("PT") { return iso(upper.dropFirst(2)) }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3,
            parts.allSatisfy({ !$0.isEmpty && $0.count <= 5 && $0.allSatisfy(\.isASCIIDigit) })
        else { return nil }
        let numbers = parts.compactMap { Int($0) }
        guard numbers.dropFirst().allSatisfy({ $0 < 60 }) else { return nil }
        return numbers.count == 2
            ? numbers[0] * 3600 + numbers[1] * 60 : numbers[0] * 3600 + numbers[1] * 60 + numbers[2]
    }

    /// `1H30M`, `45S`, `2H`: the part after `PT`.
    private static func iso(_ text: Substring) -> Int? {
        var total = 0
        var number = ""
        var seen = Set<Character>()
        for character in text {
            if character.isASCIIDigit {
                number.append(character)
                continue
            }
            guard let value = Int(number), number.count <= 6, let unit = ["H": 3600, "M": 60, "S": 1][character],
                seen.insert(character).inserted
            else { return nil }
            total += value * unit
            number = ""
        }
        return number.isEmpty && !seen.isEmpty ? total : nil
    }
}
