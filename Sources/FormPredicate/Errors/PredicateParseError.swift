/// Why a predicate's text could not be compiled, with the 1-based column a form author can go to.
///
/// ```swift
/// do { _ = try Predicate("$x == 'abc") } catch { print(error) }
/// // unterminated string starting at column 7
/// ```
public struct PredicateParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem; compare with the static members (`.unterminatedString`, ...).
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        // A private enum keeps the public surface open: new codes are new static members, not new enum cases.
        private enum Base: String, Sendable, Hashable {
            case emptyPredicate, invalidCharacter, unterminatedString, invalidEscape, invalidNumber
            case unexpectedToken, expectedValue, expectedOperator, expectedToken, invalidModifier
            case unsupportedKeyword, unknownTag, nestingTooDeep, notAPredicate, invalidRegex
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The predicate is empty or blank.
        public static let emptyPredicate = Code(.emptyPredicate)
        /// A character that starts no token, such as `?`, `;`, `~` or a lone `&`.
        public static let invalidCharacter = Code(.invalidCharacter)
        /// A string literal has no closing quote.
        public static let unterminatedString = Code(.unterminatedString)
        /// A `\x` or `\u` escape in a string is malformed.
        public static let invalidEscape = Code(.invalidEscape)
        /// A number is malformed, such as `3abc` or `0x`.
        public static let invalidNumber = Code(.invalidNumber)
        /// A token appears where it cannot, including trailing input.
        public static let unexpectedToken = Code(.unexpectedToken)
        /// An operand is missing, as in `$x ==`.
        public static let expectedValue = Code(.expectedValue)
        /// An expression is not followed by a comparison operator.
        public static let expectedOperator = Code(.expectedOperator)
        /// A closing `)`, `}` or `]` (or another specific token) is missing.
        public static let expectedToken = Code(.expectedToken)
        /// An operator modifier other than `[c]`, `[d]` or `[cd]`.
        public static let invalidModifier = Code(.invalidModifier)
        /// In form mode, a `MATCHES` pattern written as a literal is not a valid regular expression.
        public static let invalidRegex = Code(.invalidRegex)
        /// A reserved word this engine does not implement, such as `SUBQUERY`.
        public static let unsupportedKeyword = Code(.unsupportedKeyword)
        /// In form mode, `$name` names no tag of the form.
        public static let unknownTag = Code(.unknownTag)
        /// Parentheses, `NOT`, aggregates or operators nest deeper than the limit.
        public static let nestingTooDeep = Code(.nestingTooDeep)
        /// The text is an expression, not a predicate (`$x`, `1`).
        public static let notAPredicate = Code(.notAPredicate)

        /// The code's name, such as `unterminatedString`.
        public var description: String { base.rawValue }
    }

    /// The kind of problem.
    public let code: Code
    /// The 1-based column (in Unicode scalars) where the problem was found.
    public let column: Int
    /// What went wrong, without the column.
    public let message: String

    /// Creates an error; the parser is the usual source.
    public init(code: Code, column: Int, message: String) {
        self.code = code
        self.column = column
        self.message = message
    }

    /// The message with its column, for example `expected a value after '==' at column 9`.
    public var description: String {
        // Messages that end "starting at column N" already carry the position.
        message.hasSuffix("column \(column)") ? message : "\(message) at column \(column)"
    }
}
