/// Why evaluating a well-formed predicate failed against particular values.
public struct PredicateEvaluationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem; compare with the static members.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        // A private enum keeps the public surface open: new codes are new static members.
        private enum Base: String, Sendable, Hashable {
            case unboundVariable, typeMismatch, keyPathOnNull, unknownKey, invalidCollectionOperator
            case indexOutOfRange, invalidRegex, arithmeticOnNull, budgetSpent
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// A variable has no value in the environment.
        public static let unboundVariable = Code(.unboundVariable)
        /// An operator got operands of kinds it cannot compare or combine (a string operator on a number, ...).
        public static let typeMismatch = Code(.typeMismatch)
        /// A key path was applied to an explicit null.
        public static let keyPathOnNull = Code(.keyPathOnNull)
        /// A key that a string or number does not answer.
        public static let unknownKey = Code(.unknownKey)
        /// A collection operator on a non-collection, or without its right-hand key path.
        public static let invalidCollectionOperator = Code(.invalidCollectionOperator)
        /// An index past the end of an array, negative, or not a whole number.
        public static let indexOutOfRange = Code(.indexOutOfRange)
        /// A MATCHES pattern that does not compile.
        public static let invalidRegex = Code(.invalidRegex)
        /// Arithmetic with a null operand.
        public static let arithmeticOnNull = Code(.arithmeticOnNull)
        /// The request's `EvaluationBudget` ran out: the values are too long for the work the condition does.
        public static let budgetSpent = Code(.budgetSpent)

        /// The code's name, such as `typeMismatch`.
        public var description: String { base.rawValue }
    }

    /// The kind of problem.
    public let code: Code
    /// What went wrong.
    public let message: String

    /// Creates an error; the evaluator is the usual source.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }

    /// The request's budget ran out (`EvaluationBudget`).
    static let budgetSpent = PredicateEvaluationError(
        code: .budgetSpent,
        message: "the values are too long for this condition to be checked within the request's budget")
}
