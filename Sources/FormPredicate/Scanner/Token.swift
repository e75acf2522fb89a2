/// One lexical unit of predicate text.
struct Token: Sendable {
    /// What the token is.
    enum Kind: Sendable, Equatable {
        case end
        case number(Double)
        case string(String)
        /// `$name`, `${name}`, or in form mode `$` plus the longest known tag.
        case variable(String)
        /// A key: an identifier, `#escaped` word, or `@operator`.
        case key(String)
        case keyword(Keyword)
        case symbol(Symbol)
    }

    let kind: Kind
    /// 1-based column of the token's first character.
    let column: Int
    /// 1-based column just past the token, so "at column N" can point after an operator.
    let endColumn: Int
}

/// Reserved words, matched case-insensitively.
enum Keyword: String, Sendable, CaseIterable {
    case and = "AND"
    case or = "OR"
    case not = "NOT"
    case `in` = "IN"
    case any = "ANY"
    case all = "ALL"
    case some = "SOME"
    case none = "NONE"
    case like = "LIKE"
    case matches = "MATCHES"
    case contains = "CONTAINS"
    case beginsWith = "BEGINSWITH"
    case endsWith = "ENDSWITH"
    case between = "BETWEEN"
    case null = "NULL"
    case `nil` = "NIL"
    case `self` = "SELF"
    case `true` = "TRUE"
    case yes = "YES"
    case `false` = "FALSE"
    case no = "NO"
    case first = "FIRST"
    case last = "LAST"
    case size = "SIZE"
    case truePredicate = "TRUEPREDICATE"
    case falsePredicate = "FALSEPREDICATE"
    // Reserved by NSPredicate but not implemented: they are reported as unsupported.
    case anyKey = "ANYKEY"
    case subquery = "SUBQUERY"
    case fetch = "FETCH"
    case cast = "CAST"
    case ci = "CI"
    case caseInsensitive = "CASEINSENSITIVE"

    /// The keyword spelled `word` in any case, if it is one.
    static func matching(_ word: String) -> Keyword? {
        // Compared byte by byte with ASCII upper-casing: no string is built, which matters for parse time.
        let count = word.utf8.count
        guard count >= 2, count <= 15 else { return nil }
        for (keyword, spelling) in spellings where spelling.count == count {
            let same = zip(spelling, word.utf8).allSatisfy { expected, actual in
                expected == ((UInt8(ascii: "a")...UInt8(ascii: "z")).contains(actual) ? actual - 32 : actual)
            }
            if same { return keyword }
        }
        return nil
    }

    /// Built once: `allCases` makes a new array on every use.
    private static let spellings: [(Keyword, [UInt8])] = allCases.map { ($0, Array($0.rawValue.utf8)) }
}

/// Punctuation and operator tokens, with their canonical spelling.
enum Symbol: String, Sendable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    case andAnd = "&&"
    case orOr = "||"
    case bang = "!"
    case openParen = "("
    case closeParen = ")"
    case openBrace = "{"
    case closeBrace = "}"
    case openBracket = "["
    case closeBracket = "]"
    case comma = ","
    case dot = "."
    case plus = "+"
    case minus = "-"
    case star = "*"
    case slash = "/"
    case starStar = "**"
}

extension Token.Kind {
    /// How the token reads in an error message: `'=='`, `end of input`, `string 'abc'`.
    var displayName: String {
        switch self {
        case .end: "end of input"
        case .number(let number): "number \(NumberFormatting.json(number))"
        case .string: "a string"
        case .variable(let name): "'$\(name)'"
        case .key(let name): "'\(name)'"
        case .keyword(let keyword): "'\(keyword.rawValue)'"
        case .symbol(let symbol): "'\(symbol.rawValue)'"
        }
    }
}
