/// A value-producing part of a predicate: the expression layer of the AST.
indirect enum ExpressionNode: Sendable {
    /// A scalar literal: null, boolean, number or string.
    case literal(PredicateValue)
    /// A variable, by index into `Predicate.variables`.
    case variable(Int)
    /// `SELF`, the evaluated object; form predicates have none, so it is nil.
    case evaluatedObject
    /// Keys applied in turn to `base`, or to the evaluated object when `base` is nil (a bare key path).
    /// A key starting with `@` is a collection operator applying to the rest of the path.
    case keyPath(ExpressionNode?, [String])
    case index(ExpressionNode, IndexSelector)
    /// `{e1, e2, ...}`.
    case aggregate([ExpressionNode])
    case arithmetic(ArithmeticOperator, ExpressionNode, ExpressionNode)
    /// Unary minus of a non-literal (minus on a number literal is folded into the literal).
    case negate(ExpressionNode)
}

/// What goes between `[` and `]`.
enum IndexSelector: Sendable {
    case first, last, size
    case expression(ExpressionNode)
}

/// `+ - * / **`.
enum ArithmeticOperator: String, Sendable {
    case add = "+"
    case subtract = "-"
    case multiply = "*"
    case divide = "/"
    case power = "**"
}
