extension Predicate {
    /// The predicate with every string literal compared directly with one of `variables` (indices into
    /// `self.variables`) replaced by what `rewrite` makes of it; the other literals, the text and the
    /// variables stay as they are. Also the literals `rewrite` could not read (it returned nil), which
    /// are left as written.
    ///
    /// A form reads a date-time row as its instant in UTC, while an author writes a literal as the
    /// form's clock shows it: `$starts >= '2026-11-23T09:00'` is rewritten once, when the form is
    /// compiled, into the instant it names, so server and browser compare like with like.
    ///
    /// ```swift
    /// let rule = try Predicate("$starts >= '2026-11-23T09:00'")
    /// rule.rewritingLiterals(comparedWith: [0]) { _ in "2026-11-23T08:00:00Z" }.predicate.description
    /// // $starts >= '2026-11-23T08:00:00Z'
    /// ```
    public func rewritingLiterals(
        comparedWith variables: Set<Int>, _ rewrite: (String) -> String?
    ) -> (predicate: Predicate, unreadable: [String]) {
        var unreadable: [String] = []
        let root = Self.rewrite(root, variables) { literal in
            guard let rewritten = rewrite(literal) else {
                unreadable.append(literal)
                return literal
            }
            return rewritten
        }
        return (Predicate(self, root: root), unreadable)
    }

    private static func rewrite(
        _ node: PredicateNode, _ variables: Set<Int>, _ rewrite: (String) -> String
    ) -> PredicateNode {
        switch node {
        case .constant: return node
        case .not(let inner): return .not(Self.rewrite(inner, variables, rewrite))
        case .and(let operands): return .and(operands.map { Self.rewrite($0, variables, rewrite) })
        case .or(let operands): return .or(operands.map { Self.rewrite($0, variables, rewrite) })
        case .comparison(let comparison):
            let readsLeft = Self.isVariable(comparison.left, in: variables)
            let readsRight = Self.isVariable(comparison.right, in: variables)
            guard readsLeft || readsRight else { return node }
            return .comparison(
                ComparisonNode(
                    quantifier: comparison.quantifier, comparator: comparison.comparator,
                    options: comparison.options,
                    left: readsRight ? Self.rewrite(literals: comparison.left, rewrite) : comparison.left,
                    right: readsLeft ? Self.rewrite(literals: comparison.right, rewrite) : comparison.right,
                    regex: comparison.regex, column: comparison.column))
        }
    }

    private static func isVariable(_ expression: ExpressionNode, in variables: Set<Int>) -> Bool {
        if case .variable(let index) = expression { return variables.contains(index) }
        return false
    }

    /// A string literal rewritten, or each string of a `{…}` list (`IN`, `BETWEEN`): the parser keeps
    /// a list of constants as one literal array, and any other list as an aggregate.
    private static func rewrite(literals expression: ExpressionNode, _ rewrite: (String) -> String) -> ExpressionNode {
        switch expression {
        case .literal(.string(let text)): .literal(.string(rewrite(text)))
        case .literal(.array(let values)):
            .literal(.array(values.map { if case .string(let text) = $0 { .string(rewrite(text)) } else { $0 } }))
        case .aggregate(let items): .aggregate(items.map { Self.rewrite(literals: $0, rewrite) })
        default: expression
        }
    }
}
