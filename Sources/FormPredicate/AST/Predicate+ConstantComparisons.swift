extension Predicate {
    /// A variable compared, as it is, with constants: `$plan == 'pro'`, `'pro' == $plan`,
    /// `$n IN {1, 2}`. A form compiler checks the constants against what the variable's row holds.
    public struct ConstantComparison: Sendable, Hashable {
        /// The variable's index in `variables`.
        public let variable: Int
        /// The operator as written: `==`, `CONTAINS`, `BETWEEN`, ….
        public let comparator: String
        /// Whether the operator compares text (`BEGINSWITH`, `ENDSWITH`, `LIKE`, `MATCHES`).
        public let comparesText: Bool
        /// The constants: one, or each of a `{…}` list.
        public let constants: [PredicateValue]
        /// Where the operator is in the source.
        public let column: Int
        /// Whether the operator folds case or diacritics (`==[c]`): then text need not be spelled exactly.
        public let folds: Bool
    }

    /// Every comparison of a bare variable with constants, in source order. Comparisons under `ANY` or
    /// `ALL`, of key paths (`$a.length`) or of two variables are left out.
    public var constantComparisons: [ConstantComparison] {
        comparisons.compactMap(Self.constantComparison)
    }

    /// Every comparison node of the predicate, in source order, however deep under `NOT`, `AND` and `OR`:
    /// the one walk of the boolean layer that the checks of a form's conditions share.
    var comparisons: [ComparisonNode] {
        var found: [ComparisonNode] = []
        func walk(_ node: PredicateNode) {
            switch node {
            case .constant: break
            case .not(let inner): walk(inner)
            case .and(let operands), .or(let operands): operands.forEach(walk)
            case .comparison(let comparison): found.append(comparison)
            }
        }
        walk(root)
        return found
    }

    private static func constantComparison(_ comparison: ComparisonNode) -> ConstantComparison? {
        guard comparison.quantifier == nil else { return nil }
        let pair: (Int, ExpressionNode)? =
            switch (comparison.left, comparison.right) {
            case (.variable(let index), let other), (let other, .variable(let index)): (index, other)
            default: nil
            }
        guard let (variable, other) = pair else { return nil }
        let constants: [PredicateValue]
        switch other {
        case .literal(.array(let values)) where comparison.comparator == .in || comparison.comparator == .between:
            constants = values
        case .literal(let value): constants = [value]
        default: return nil
        }
        let textual: Set<Comparator> = [.beginsWith, .endsWith, .like, .matches]
        return ConstantComparison(
            variable: variable, comparator: comparison.comparator.rawValue,
            comparesText: textual.contains(comparison.comparator), constants: constants,
            column: comparison.column, folds: !comparison.options.isEmpty)
    }
}
