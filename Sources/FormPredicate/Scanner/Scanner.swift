/// Turns predicate text into tokens on demand, one at a time, so the first error in reading order is reported.
struct Scanner {
    private let scalars: [Unicode.Scalar]
    private var position = 0
    /// Form tags, longest first, so `$all-day` prefers `all-day` over `all`.
    private let tagsByLength: [[Unicode.Scalar]]?
    private let knownTags: Set<String>?

    init(_ source: String, options: PredicateParseOptions) {
        scalars = Array(source.unicodeScalars)
        knownTags = options.knownTags
        tagsByLength = options.tagsByLength
    }

    /// Whether only whitespace is left.
    var isBlank: Bool {
        scalars[position...].allSatisfy(Self.isWhitespace)
    }

    mutating func next() throws(PredicateParseError) -> Token {
        while position < scalars.count, Self.isWhitespace(scalars[position]) { position += 1 }
        let start = position
        guard position < scalars.count else { return Token(kind: .end, column: start + 1, endColumn: start + 1) }
        let kind = try scanKind()
        return Token(kind: kind, column: start + 1, endColumn: position + 1)
    }

    // MARK: - Token kinds

    private mutating func scanKind() throws(PredicateParseError) -> Token.Kind {
        let scalar = scalars[position]
        switch scalar {
        case "'", "\"": return .string(try scanString())
        case "0"..."9": return .number(try scanNumber())
        case "$": return .variable(try scanVariable())
        case "#":
            position += 1
            guard let word = scanIdentifier() else { throw error(.expectedValue, "expected a key name after '#'") }
            return .key(word)
        case "@":
            position += 1
            guard let word = scanIdentifier() else {
                throw error(.expectedValue, "expected a collection operator name after '@'")
            }
            return .key("@" + word)
        case _ where Self.isIdentifierStart(scalar):
            let word = scanIdentifier() ?? ""
            if let keyword = Keyword.matching(word) { return .keyword(keyword) }
            return .key(word)
        default:
            return .symbol(try scanSymbol())
        }
    }

    private mutating func scanSymbol() throws(PredicateParseError) -> Symbol {
        let first = scalars[position]
        let second: Unicode.Scalar = position + 1 < scalars.count ? scalars[position + 1] : " "
        // Two-character spellings first, so `<=` is not read as `<` then `=`.
        let pair: Symbol? =
            switch (first, second) {
            case ("=", "="): .equal
            case ("!", "="), ("<", ">"): .notEqual
            case ("<", "="), ("=", "<"): .lessOrEqual
            case (">", "="), ("=", ">"): .greaterOrEqual
            case ("&", "&"): .andAnd
            case ("|", "|"): .orOr
            case ("*", "*"): .starStar
            default: nil
            }
        if let pair {
            position += 2
            return pair
        }
        let single: Symbol? =
            switch first {
            case "=": .equal
            case "<": .less
            case ">": .greater
            case "!": .bang
            case "(": .openParen
            case ")": .closeParen
            case "{": .openBrace
            case "}": .closeBrace
            case "[": .openBracket
            case "]": .closeBracket
            case ",": .comma
            case ".": .dot
            case "+": .plus
            case "-": .minus
            case "*": .star
            case "/": .slash
            default: nil
            }
        if let single {
            position += 1
            return single
        }
        let hint: String
        switch first {
        case "&": hint = "; use '&&' or AND"
        case "|": hint = "; use '||' or OR"
        default: hint = ""
        }
        throw error(.invalidCharacter, "unexpected character '\(first.escaped(asASCII: false))'\(hint)")
    }

    private mutating func scanIdentifier() -> String? {
        guard position < scalars.count, Self.isIdentifierStart(scalars[position]) else { return nil }
        let start = position
        while position < scalars.count, Self.isIdentifierPart(scalars[position]) { position += 1 }
        // Identifiers are ASCII, so their bytes are the scalar values; this avoids a generic, slow conversion.
        return String(unsafeUninitializedCapacity: position - start) { buffer in
            for offset in 0..<(position - start) {
                buffer[offset] = UInt8(truncatingIfNeeded: scalars[start + offset].value)
            }
            return position - start
        }
    }

    private mutating func scanVariable() throws(PredicateParseError) -> String {
        let dollar = position
        position += 1
        if position < scalars.count, scalars[position] == "{" {
            // `${any text}` names a tag that is not an identifier, in every mode.
            guard let close = scalars[position...].firstIndex(of: "}") else {
                throw error(.expectedToken, "expected '}' to close '${' starting at column \(dollar + 1)", at: dollar)
            }
            let name = String(String.UnicodeScalarView(scalars[(position + 1)..<close]))
            guard !name.isEmpty else { throw error(.expectedValue, "expected a tag name inside '${}'", at: dollar) }
            position = close + 1
            try checkKnown(name, at: dollar)
            return name
        }
        if let tags = tagsByLength, let tag = tags.first(where: matchesTag) {
            position += tag.count
            return String(String.UnicodeScalarView(tag))
        }
        guard let name = scanIdentifier() else {
            throw error(.expectedValue, "expected a variable name after '$'", at: dollar)
        }
        try checkKnown(name, at: dollar)
        return name
    }

    /// Whether `tag` is spelled at the current position and does not run on into a longer identifier.
    private func matchesTag(_ tag: [Unicode.Scalar]) -> Bool {
        guard position + tag.count <= scalars.count, scalars[position..<(position + tag.count)].elementsEqual(tag)
        else { return false }
        let after = position + tag.count
        guard after < scalars.count, let last = tag.last else { return true }
        return !(Self.isIdentifierPart(last) && Self.isIdentifierPart(scalars[after]))
    }

    private func checkKnown(_ name: String, at start: Int) throws(PredicateParseError) {
        if let knownTags, !knownTags.contains(name) {
            throw error(.unknownTag, "unknown tag '\(name)'", at: start)
        }
    }

    // MARK: - Literals

    private mutating func scanString() throws(PredicateParseError) -> String {
        let start = position
        let quote = scalars[position]
        position += 1
        var text = String.UnicodeScalarView()
        while position < scalars.count {
            let scalar = scalars[position]
            if scalar == quote {
                position += 1
                return String(text)
            }
            if scalar == "\\" {
                try scanEscape(into: &text)
            } else {
                text.append(scalar)
                position += 1
            }
        }
        throw error(.unterminatedString, "unterminated string starting at column \(start + 1)", at: start)
    }

    private mutating func scanEscape(into text: inout String.UnicodeScalarView) throws(PredicateParseError) {
        let backslash = position
        position += 1
        guard position < scalars.count else {
            throw error(.unterminatedString, "unterminated string: '\\' at the end of input", at: backslash)
        }
        let escaped = scalars[position]
        position += 1
        switch escaped {
        case "n": text.append("\n")
        case "t": text.append("\t")
        case "r": text.append("\r")
        case "0": text.append("\0")
        case "\\", "'", "\"": text.append(escaped)
        case "x": text.append(try scanHexScalar(digits: 2, escapeAt: backslash))
        case "u":
            var value = try scanHex(digits: 4, escapeAt: backslash)
            // A UTF-16 surrogate pair written as two escapes, as JSON and JavaScript allow.
            if (0xD800..<0xDC00).contains(value), position + 1 < scalars.count, scalars[position] == "\\",
                scalars[position + 1] == "u"
            {
                position += 2
                let low = try scanHex(digits: 4, escapeAt: backslash)
                guard (0xDC00..<0xE000).contains(low) else {
                    throw error(.invalidEscape, "invalid surrogate pair in \\u escape", at: backslash)
                }
                value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let scalar = Unicode.Scalar(value) else {
                throw error(.invalidEscape, "invalid \\u escape (a lone surrogate)", at: backslash)
            }
            text.append(scalar)
        default:
            // Unknown escapes keep their backslash, so `'\d'` still reaches a regex as `\d`.
            text.append("\\")
            text.append(escaped)
        }
    }

    private mutating func scanHexScalar(digits: Int, escapeAt start: Int) throws(PredicateParseError) -> Unicode.Scalar
    {
        let value = try scanHex(digits: digits, escapeAt: start)
        guard let scalar = Unicode.Scalar(value) else {
            throw error(.invalidEscape, "invalid escape", at: start)
        }
        return scalar
    }

    private mutating func scanHex(digits: Int, escapeAt start: Int) throws(PredicateParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<digits {
            guard position < scalars.count, let digit = Self.digitValue(scalars[position], radix: 16) else {
                throw error(.invalidEscape, "expected \(digits) hex digits in escape", at: start)
            }
            value = value * 16 + UInt32(digit)
            position += 1
        }
        return value
    }

    private mutating func scanNumber() throws(PredicateParseError) -> Double {
        let start = position
        var value: Double
        let radix: Int? =
            if scalars[position] == "0", position + 1 < scalars.count {
                switch scalars[position + 1] {
                case "x", "X": 16
                case "o", "O": 8
                case "b", "B": 2
                default: nil
                }
            } else { nil }
        if let radix {
            position += 2
            var digits = 0
            value = 0
            while position < scalars.count, let digit = Self.digitValue(scalars[position], radix: radix) {
                value = value * Double(radix) + Double(digit)
                digits += 1
                position += 1
            }
            if digits == 0 { throw error(.invalidNumber, "expected digits after '0x', '0o' or '0b'", at: start) }
        } else {
            skipDigits()
            if position + 1 < scalars.count, scalars[position] == ".", Self.isDigit(scalars[position + 1]) {
                position += 1
                skipDigits()
            }
            if position < scalars.count, scalars[position] == "e" || scalars[position] == "E" {
                var probe = position + 1
                if probe < scalars.count, scalars[probe] == "+" || scalars[probe] == "-" { probe += 1 }
                if probe < scalars.count, Self.isDigit(scalars[probe]) {
                    position = probe
                    skipDigits()
                }
            }
            let text = String(String.UnicodeScalarView(scalars[start..<position]))
            guard let parsed = Double(text) else { throw error(.invalidNumber, "invalid number '\(text)'", at: start) }
            value = parsed
        }
        if position < scalars.count, Self.isIdentifierPart(scalars[position]) {
            var end = position
            while end < scalars.count, Self.isIdentifierPart(scalars[end]) { end += 1 }
            let text = String(String.UnicodeScalarView(scalars[start..<end]))
            throw error(.invalidNumber, "invalid number '\(text)'", at: start)
        }
        return value
    }

    private mutating func skipDigits() {
        while position < scalars.count, Self.isDigit(scalars[position]) { position += 1 }
    }

    // MARK: - Character classes

    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        // ASCII first: the Unicode property lookup is the slow path and rarely needed.
        if scalar.isASCII { return scalar == " " || ("\t"..."\r").contains(scalar) }
        return scalar.properties.isWhitespace
    }

    static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(scalar)
    }

    static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_"
    }

    static func isIdentifierPart(_ scalar: Unicode.Scalar) -> Bool {
        isIdentifierStart(scalar) || isDigit(scalar)
    }

    static func digitValue(_ scalar: Unicode.Scalar, radix: Int) -> Int? {
        let value: Int
        switch scalar {
        case "0"..."9": value = Int(scalar.value - 48)
        case "a"..."f": value = Int(scalar.value - 87)
        case "A"..."F": value = Int(scalar.value - 55)
        default: return nil
        }
        return value < radix ? value : nil
    }

    private func error(_ code: PredicateParseError.Code, _ message: String, at index: Int? = nil) -> PredicateParseError
    {
        PredicateParseError(code: code, column: (index ?? position) + 1, message: message)
    }
}
