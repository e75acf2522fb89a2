/// A parsed predicate: the boolean layer of the AST.
indirect enum PredicateNode: Sendable {
    /// `TRUEPREDICATE` or `FALSEPREDICATE`.
    case constant(Bool)
    case not(PredicateNode)
    /// Two or more operands, evaluated left to right with short-circuiting.
    case and([PredicateNode])
    /// Two or more operands, evaluated left to right with short-circuiting.
    case or([PredicateNode])
    case comparison(ComparisonNode)
}

/// `[quantifier] left op[options] right`.
///
/// A class so that matching `.comparison` retains one reference instead of copying every field, a copy
/// that would weigh on every evaluation of a simple `==`.
final class ComparisonNode: Sendable {
    let quantifier: Quantifier?
    let comparator: Comparator
    let options: ComparisonOptions
    let left: ExpressionNode
    let right: ExpressionNode
    /// For MATCHES with a literal pattern: compiled once at parse time (an invalid one fails on evaluation).
    let regex: Result<SafeRegex, SafeRegex.CompileError>?
    /// Where the operator is, for evaluation error messages.
    let column: Int

    init(
        quantifier: Quantifier?, comparator: Comparator, options: ComparisonOptions, left: ExpressionNode,
        right: ExpressionNode, regex: Result<SafeRegex, SafeRegex.CompileError>?, column: Int
    ) {
        self.quantifier = quantifier
        self.comparator = comparator
        self.options = options
        self.left = left
        self.right = right
        self.regex = regex
        self.column = column
    }
}

/// `ANY`/`SOME`, `ALL`, `NONE`.
enum Quantifier: String, Sendable {
    case any = "ANY"
    case all = "ALL"
    case none = "NONE"
}

/// The comparison operators, spelled canonically.
enum Comparator: String, Sendable, CaseIterable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    case beginsWith = "BEGINSWITH"
    case endsWith = "ENDSWITH"
    case contains = "CONTAINS"
    case like = "LIKE"
    case matches = "MATCHES"
    case `in` = "IN"
    case between = "BETWEEN"
}

/// `[c]`, `[d]`, `[cd]`.
struct ComparisonOptions: OptionSet, Sendable, Hashable {
    let rawValue: UInt8
    static let caseInsensitive = ComparisonOptions(rawValue: 1)
    static let diacriticInsensitive = ComparisonOptions(rawValue: 2)

    /// `c`, `d`, `cd` or empty.
    var letters: String {
        (contains(.caseInsensitive) ? "c" : "") + (contains(.diacriticInsensitive) ? "d" : "")
    }
}
