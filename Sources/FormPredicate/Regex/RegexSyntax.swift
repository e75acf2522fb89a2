/// The parsed form of a regular expression, before compiling to NFA instructions.
indirect enum RegexNode: Sendable {
    case empty
    case scalar(Unicode.Scalar)
    /// `.`: any scalar but a line terminator.
    case any
    case set(RegexClass)
    case concatenation([RegexNode])
    case alternation([RegexNode])
    /// Lazy quantifiers compile like greedy ones: a whole-string test does not care which match is preferred.
    case repetition(RegexNode, minimum: Int, maximum: Int?)
    case assertion(RegexAssertion)
}

enum RegexAssertion: Sendable {
    case start, end, wordBoundary, notWordBoundary
}

/// A bracket expression or a class escape such as `\d`.
struct RegexClass: Sendable, Hashable {
    enum Item: Sendable, Hashable {
        case range(UInt32, UInt32)
        case property(RegexProperty, negated: Bool)
    }

    var items: [Item] = []
    var negated = false

    func contains(_ scalar: Unicode.Scalar) -> Bool {
        let found = items.contains { item in
            switch item {
            case .range(let low, let high): (low...high).contains(scalar.value)
            case .property(let property, let negated): property.contains(scalar) != negated
            }
        }
        return found != negated
    }
}

/// The character properties `\d \w \s` and `\p{...}` select, as ICU defines them.
enum RegexProperty: Sendable, Hashable {
    case digit, word, space, letter, uppercase, lowercase, number, punctuation, symbol, separator

    static func named(_ name: String) -> RegexProperty? {
        switch name {
        case "L", "Letter", "Alphabetic", "Alpha": .letter
        case "Lu", "Uppercase_Letter", "Uppercase": .uppercase
        case "Ll", "Lowercase_Letter", "Lowercase": .lowercase
        case "N", "Number": .number
        case "Nd", "Decimal_Number", "Digit": .digit
        case "P", "Punctuation", "Punct": .punctuation
        case "S", "Symbol": .symbol
        case "Z", "Zs", "Separator", "Space_Separator", "White_Space", "Whitespace": .separator
        default: nil
        }
    }

    func contains(_ scalar: Unicode.Scalar) -> Bool {
        // ASCII answers without Unicode's property tables, whose lookups cost far more than a match step.
        if scalar.isASCII, let ascii = asciiContains(UInt8(scalar.value)) { return ascii }
        let properties = scalar.properties
        switch self {
        case .digit: return properties.numericType == .decimal
        case .space: return properties.isWhitespace
        case .letter: return properties.isAlphabetic
        case .uppercase: return properties.generalCategory == .uppercaseLetter
        case .lowercase: return properties.generalCategory == .lowercaseLetter
        case .word:
            // ICU: [\p{Alphabetic}\p{Mark}\p{Decimal_Number}\p{Connector_Punctuation}\u200c\u200d].
            switch properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark, .connectorPunctuation, .decimalNumber: return true
            default: return properties.isAlphabetic || scalar.value == 0x200C || scalar.value == 0x200D
            }
        case .number:
            switch properties.generalCategory {
            case .decimalNumber, .letterNumber, .otherNumber: return true
            default: return false
            }
        case .punctuation:
            switch properties.generalCategory {
            case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
                .initialPunctuation, .finalPunctuation, .otherPunctuation:
                return true
            default: return false
            }
        case .symbol:
            switch properties.generalCategory {
            case .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol: return true
            default: return false
            }
        case .separator:
            switch properties.generalCategory {
            case .spaceSeparator, .lineSeparator, .paragraphSeparator: return true
            default: return properties.isWhitespace
            }
        }
    }

    /// `contains` for an ASCII character, where the answer is plain; nil for punctuation and symbols.
    private func asciiContains(_ byte: UInt8) -> Bool? {
        let digit = (0x30...0x39).contains(byte)
        let upper = (0x41...0x5A).contains(byte)
        let lower = (0x61...0x7A).contains(byte)
        switch self {
        case .digit, .number: return digit
        case .letter: return upper || lower
        case .uppercase: return upper
        case .lowercase: return lower
        case .word: return digit || upper || lower || byte == 0x5F
        // White_Space in ASCII: tab, line feed, vertical tab, form feed, carriage return, space.
        case .space, .separator: return (0x09...0x0D).contains(byte) || byte == 0x20
        case .punctuation, .symbol: return nil
        }
    }
}
