import FormModel
import Foundation

/// Numbers in the one fixed notation HTML's number input sends (HTML §2.3.4.3, "valid floating-point
/// number"): `-12`, `3.5`, `.5`, `1e3`. No grouping separators, no comma decimals, no `NaN`, no `Infinity`.
/// A value is kept exactly or refused, never rounded or clamped.
enum NumberText {
    /// An integer row's value: any notation of the number input (`12`, `+7`, `1e3`, `10.0`, `1E1`) whose
    /// value is a whole number in `Int`'s range. `<input type=number step=1>` accepts those and posts them
    /// as typed. A fraction (`1.5`, `1e-1`) is `notAnInteger`; a whole number beyond `Int` is
    /// `integerOutOfRange`, never clamped.
    static func integer(_ text: String) -> Result<Int, Problem> {
        // Nearly every integer is plain digits: Int's own parser, nothing taken apart.
        if let value = plainInteger(text) { return .success(value) }
        guard let parts = NumberSyntax.parts(text, allowingPlusSign: true) else { return .failure(.notAnInteger) }
        guard parts.digitCount > 0 else { return .success(0) }
        // The significand has no trailing zeros, so a negative exponent leaves a fraction.
        guard parts.exponent >= 0 else { return .failure(.notAnInteger) }
        // Int.max has 19 digits: more cannot fit, and at most 19 are multiplied out below.
        guard parts.digitCount + parts.exponent <= 19, var magnitude = parts.significand else {
            return .failure(.integerOutOfRange)
        }
        for _ in 0..<parts.exponent {
            let (product, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            guard !overflow else { return .failure(.integerOutOfRange) }
            magnitude = product
        }
        if parts.negative {
            // Int.min's magnitude is one more than Int.max's.
            guard magnitude <= UInt64(Int.max) + 1 else { return .failure(.integerOutOfRange) }
            return .success(Int(truncatingIfNeeded: 0 &- magnitude))
        }
        guard magnitude <= UInt64(Int.max) else { return .failure(.integerOutOfRange) }
        return .success(Int(magnitude))
    }

    /// Digits alone, optionally signed, in `Int`'s range; nil for anything else.
    static func plainInteger(_ text: String) -> Int? {
        var digits = text.utf8[...]
        if digits.first == UInt8(ascii: "-") || digits.first == UInt8(ascii: "+") { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int(text.first == "+" ? String(text.dropFirst()) : text)
    }

    /// A decimal row's value, exact: `Decimal` holds 38 significant digits (a 128-bit significand)
    /// times a power of ten from -128 to 127. A number that needs more digits, or a digit below
    /// 10^-128, or one at 10^165 or above (38 digits at 10^127), is `inexactDecimal`: `Decimal(string:)`
    /// would silently drop the digits past the 38th, or answer nil, which read as "not a number".
    static func decimal(_ text: String) -> Result<Decimal, Problem> {
        guard let parts = NumberSyntax.parts(text, allowingPlusSign: true) else { return .failure(.notANumber) }
        guard parts.digitCount > 0 else { return .success(0) }  // `-0` and `0e999` too
        guard parts.digitCount <= maximumDecimalDigits, parts.exponent >= -128,
            parts.digitCount + parts.exponent <= maximumDecimalDigits + 127
        else { return .failure(.inexactDecimal) }
        // Text without an exponent and of at most 38 digits is read as sent (the common case); any
        // other is rewritten as its significant digits and exponent, which `Decimal(string:)` reads
        // exactly once they fit: `0.01e130` as `1e128` would not, so that becomes `10e127`.
        let posix = Locale(identifier: "en_US_POSIX")
        if text.utf8.count <= maximumDecimalDigits + 1, !text.utf8.contains(where: { $0 | 0x20 == UInt8(ascii: "e") }) {
            return Decimal(string: text, locale: posix).map { .success($0) } ?? .failure(.inexactDecimal)
        }
        return Decimal(string: canonical(text, parts), locale: posix).map { .success($0) } ?? .failure(.inexactDecimal)
    }

    /// The most significant digits a `Decimal` holds whatever they are (10^38 < 2^128).
    static let maximumDecimalDigits = 38

    /// `text` (taken apart as `parts`) as `-digits` `e` `exponent`: the significant digits alone, with
    /// zeros moved from the exponent into them while it is above `Decimal`'s 127.
    private static func canonical(_ text: String, _ parts: NumberSyntax.Parts) -> String {
        var digits: [UInt8] = parts.negative ? [UInt8(ascii: "-")] : []
        digits.reserveCapacity(maximumDecimalDigits + 6)
        var seen = 0
        for byte in text.utf8 {
            // The significant digits end before the exponent, and before any trailing zeros.
            if seen == parts.digitCount || byte | 0x20 == UInt8(ascii: "e") { break }
            guard (0x30...0x39).contains(byte), seen > 0 || byte != UInt8(ascii: "0") else { continue }
            digits.append(byte)
            seen += 1
        }
        let shift = max(0, parts.exponent - 127)
        digits.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: shift))
        return String(decoding: digits, as: UTF8.self) + "e\(parts.exponent - shift)"
    }
}

/// Durations for count-down timer rows: `H:MM`, `H:MM:SS`, whole seconds, or ISO-8601 `PT1H30M`.
enum DurationText {
    /// The duration in seconds, or nil when the text is none of the accepted forms.
    static func seconds(_ text: String) -> Int? {
        if let seconds = NumberText.plainInteger(text) { return seconds >= 0 ? seconds : nil }
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
