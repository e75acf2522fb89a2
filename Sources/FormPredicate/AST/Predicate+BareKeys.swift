extension Predicate {
    /// A key read from no object: a word without `$` or quotes (`sw == true`, `$pos == Backend`). A form's
    /// predicate has no object behind it, so such a key is always nil; it is nearly always a `$` or a
    /// pair of quotes forgotten, which a form compiler reports.
    public struct BareKey: Sendable, Hashable {
        /// The word: the key path's first key.
        public let key: String
        /// The variable on the comparison's other side, when that side is a variable as it is
        /// (`$pos` in `$pos == Backend`).
        public let comparedWith: Int?
        /// Where the comparison's operator is in the source.
        public let column: Int
    }

    /// Every bare key, in source order, wherever it is in a comparison (in arithmetic, in a list, under
    /// a key path of its own).
    public var bareKeys: [BareKey] {
        var found: [BareKey] = []
        for comparison in comparisons {
            for (side, other) in [(comparison.left, comparison.right), (comparison.right, comparison.left)] {
                var variable: Int? {
                    if case .variable(let index) = other { return index }
                    return nil
                }
                Self.collect(side, comparedWith: variable, column: comparison.column, into: &found)
            }
        }
        return found
    }

    private static func collect(
        _ expression: ExpressionNode, comparedWith: Int?, column: Int, into found: inout [BareKey]
    ) {
        switch expression {
        case .literal, .variable, .evaluatedObject: break
        case .keyPath(nil, let keys):
            if let key = keys.first { found.append(BareKey(key: key, comparedWith: comparedWith, column: column)) }
        case .keyPath(let base?, _): collect(base, comparedWith: nil, column: column, into: &found)
        case .index(let base, let selector):
            collect(base, comparedWith: nil, column: column, into: &found)
            if case .expression(let inner) = selector {
                collect(inner, comparedWith: nil, column: column, into: &found)
            }
        case .aggregate(let items):
            for item in items { collect(item, comparedWith: comparedWith, column: column, into: &found) }
        case .arithmetic(_, let left, let right):
            collect(left, comparedWith: nil, column: column, into: &found)
            collect(right, comparedWith: nil, column: column, into: &found)
        case .negate(let inner): collect(inner, comparedWith: nil, column: column, into: &found)
        }
    }
}
