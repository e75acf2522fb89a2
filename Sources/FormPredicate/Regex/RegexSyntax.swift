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
struct RegexClass: Sendable {
    enum Item: Sendable {
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
enum RegexProperty: Sendable {
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
}
