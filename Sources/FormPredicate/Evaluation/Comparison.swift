/// The semantics of each comparison operator on two values (docs/conditions.md, "Comparisons").
enum Comparison {
    typealias Failure = PredicateEvaluationError

    static func compare(
        _ comparator: Comparator, _ left: PredicateValue, _ right: PredicateValue, options: ComparisonOptions,
        regex: SafeRegex?, budget: EvaluationBudget? = nil
    ) throws(Failure) -> Bool {
        switch comparator {
        case .equal: return equal(left, right, options: options)
        case .notEqual: return !equal(left, right, options: options)
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            return try ordered(comparator, left, right, options: options)
        case .between: return try between(left, right, options: options)
        case .in: return try contains(right, left, options: options, operatorName: "IN", collectionSide: "right")
        case .contains:
            return try contains(left, right, options: options, operatorName: "CONTAINS", collectionSide: "left")
        case .beginsWith, .endsWith, .like, .matches:
            return try stringOperator(comparator, left, right, options: options, regex: regex, budget: budget)
        }
    }

    // MARK: - Equality and order

    static func equal(_ left: PredicateValue, _ right: PredicateValue, options: ComparisonOptions) -> Bool {
        switch (left, right) {
        case (.null, .null): return true
        case (.null, _), (_, .null): return false
        case (.string(let lhs), .string(let rhs)):
            if options.isEmpty { return lhs.utf8.elementsEqual(rhs.utf8) }
            return StringFolding.fold(lhs, options).utf8.elementsEqual(StringFolding.fold(rhs, options).utf8)
        case (.array(let lhs), .array(let rhs)):
            return lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { equal($0, $1, options: options) }
        case (.dictionary(let lhs), .dictionary(let rhs)):
            return lhs.count == rhs.count
                && lhs.allSatisfy { key, value in rhs[key].map { equal(value, $0, options: options) } ?? false }
        default:
            // Numbers and booleans compare by value; any other mix of kinds is unequal.
            guard let lhs = left.numericValue, let rhs = right.numericValue else { return false }
            return lhs == rhs
        }
    }

    static func ordered(
        _ comparator: Comparator, _ left: PredicateValue, _ right: PredicateValue, options: ComparisonOptions
    ) throws(Failure) -> Bool {
        let order: Int
        switch (left, right) {
        case (.null, .null):
            // GNUstep: null <= null and null >= null hold; strict orderings do not.
            return comparator == .lessOrEqual || comparator == .greaterOrEqual
        case (.null, _), (_, .null):
            return false
        case (.array, _), (.dictionary, _), (_, .array), (_, .dictionary):
            throw Failure(
                code: .typeMismatch,
                message: "'\(comparator.rawValue)' cannot order \(left.kindName) and \(right.kindName)")
        case (.string(let lhs), .string(let rhs)):
            order = codePointOrder(StringFolding.fold(lhs, options), StringFolding.fold(rhs, options))
        case (.string(let text), _):
            order = numericOrder(NumericPrefix.value(of: text), right.numericValue ?? 0)
        case (_, .string(let text)):
            order = numericOrder(left.numericValue ?? 0, NumericPrefix.value(of: text))
        default:
            order = numericOrder(left.numericValue ?? 0, right.numericValue ?? 0)
        }
        // Unordered doubles (NaN) satisfy no ordering.
        if order == 2 { return false }
        switch comparator {
        case .less: return order < 0
        case .lessOrEqual: return order <= 0
        case .greater: return order > 0
        default: return order >= 0
        }
    }

    private static func numericOrder(_ left: Double, _ right: Double) -> Int {
        left < right ? -1 : (left > right ? 1 : (left == right ? 0 : 2))
    }

    private static func codePointOrder(_ left: String, _ right: String) -> Int {
        // UTF-8 byte order is Unicode code point order.
        if left.utf8.elementsEqual(right.utf8) { return 0 }
        return left.utf8.lexicographicallyPrecedes(right.utf8) ? -1 : 1
    }

    private static func between(
        _ value: PredicateValue, _ bounds: PredicateValue, options: ComparisonOptions
    ) throws(Failure) -> Bool {
        guard case .array(let pair) = bounds, pair.count == 2 else {
            throw Failure(code: .typeMismatch, message: "BETWEEN needs a two-element array {low, high} on the right")
        }
        return try between(value, pair[0], pair[1], options: options)
    }

    /// `low <= value <= high`, inclusive; null is never between anything.
    static func between(
        _ value: PredicateValue, _ low: PredicateValue, _ high: PredicateValue, options: ComparisonOptions
    ) throws(Failure) -> Bool {
        if case .null = value { return false }
        // Not `&&`: its autoclosure is untyped-rethrows, which typed throws cannot pass through.
        guard try ordered(.greaterOrEqual, value, low, options: options) else { return false }
        return try ordered(.lessOrEqual, value, high, options: options)
    }

    // MARK: - Membership and strings

    /// `haystack CONTAINS needle` (and `needle IN haystack`).
    private static func contains(
        _ haystack: PredicateValue, _ needle: PredicateValue, options: ComparisonOptions, operatorName: String,
        collectionSide: String
    ) throws(Failure) -> Bool {
        switch haystack {
        case .null: return false
        case .array(let elements): return elements.contains { equal($0, needle, options: []) }
        case .dictionary(let entries): return entries.values.contains { equal($0, needle, options: []) }
        case .string(let text):
            switch needle {
            case .null: return false
            case .string(let part): return StringSearch.contains(text, part, options: options)
            default:
                throw Failure(
                    code: .typeMismatch, message: "\(operatorName) on a string needs a string, got \(needle.kindName)")
            }
        default:
            throw Failure(
                code: .typeMismatch,
                message:
                    "\(operatorName) needs a string or a collection on the \(collectionSide), got \(haystack.kindName)"
            )
        }
    }

    private static func stringOperator(
        _ comparator: Comparator, _ left: PredicateValue, _ right: PredicateValue, options: ComparisonOptions,
        regex: SafeRegex?, budget: EvaluationBudget?
    ) throws(Failure) -> Bool {
        let text: String
        let pattern: String
        switch (left, right) {
        case (.null, _), (_, .null): return false
        case (.string(let lhs), .string(let rhs)):
            text = lhs
            pattern = rhs
        default:
            throw Failure(
                code: .typeMismatch,
                message: "\(comparator.rawValue) needs strings, got \(left.kindName) and \(right.kindName)")
        }
        switch comparator {
        case .beginsWith: return StringSearch.hasPrefix(text, pattern, options: options)
        case .endsWith: return StringSearch.hasSuffix(text, pattern, options: options)
        case .like:
            do { return try LikePattern.matches(text, pattern: pattern, options: options, budget: budget) } catch {
                throw Failure.budgetSpent
            }
        default:
            let compiled: SafeRegex
            if let regex {
                compiled = regex
            } else {
                do {
                    compiled = try SafeRegex(
                        StringFolding.fold(pattern, options.subtracting(.caseInsensitive)),
                        caseInsensitive: options.contains(.caseInsensitive))
                } catch {
                    throw Failure(code: .invalidRegex, message: "invalid MATCHES pattern: \(error)")
                }
            }
            let folded = StringFolding.fold(text, options.subtracting(.caseInsensitive))
            guard let budget else { return compiled.matches(folded) }
            do { return try compiled.matches(folded, budget: budget) } catch { throw Failure.budgetSpent }
        }
    }
}
