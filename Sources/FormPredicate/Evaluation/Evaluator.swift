/// Walks the AST against an environment.
///
/// Not generic: the public `evaluate(in:)` is generic, but across the module boundary it runs unspecialised,
/// and unspecialised generic code (metadata, value witnesses) is slower than one existential call per
/// variable. An array environment fits the existential's inline buffer, so nothing is allocated.
struct Evaluator {
    typealias Failure = PredicateEvaluationError

    let environment: any PredicateEnvironment
    let variables: [PredicateVariable]
    /// Charged for every comparison; nil: unbounded.
    let budget: EvaluationBudget?

    func evaluate(_ node: PredicateNode) throws(Failure) -> Bool {
        switch node {
        case .constant(let flag):
            return flag
        case .not(let operand):
            return try !evaluate(operand)
        case .and(let operands):
            // Left to right, stopping at the first false: a later operand that would fail is never reached.
            for operand in operands where try !evaluate(operand) { return false }
            return true
        case .or(let operands):
            for operand in operands where try evaluate(operand) { return true }
            return false
        case .comparison(let comparison):
            return try evaluate(comparison)
        }
    }

    private func evaluate(_ comparison: ComparisonNode) throws(Failure) -> Bool {
        let left = try value(of: comparison.left)
        if comparison.quantifier == nil, case .aggregate(let elements) = comparison.right {
            // `BETWEEN {$lo, $hi}` and `IN {$a, $b}` read their elements directly instead of building an array.
            switch comparison.comparator {
            case .between where elements.count == 2:
                return try Comparison.between(
                    left ?? .null, try value(of: elements[0]) ?? .null, try value(of: elements[1]) ?? .null,
                    options: comparison.options)
            case .in:
                for element in elements
                where Comparison.equal(try value(of: element) ?? .null, left ?? .null, options: []) {
                    return true
                }
                return false
            default: break
            }
        }
        let right = try value(of: comparison.right)
        let regex = try comparison.regex?.get(orThrow: comparison)
        guard let quantifier = comparison.quantifier else {
            try charge(left, right)
            return try Comparison.compare(
                comparison.comparator, left ?? .null, right ?? .null, options: comparison.options, regex: regex,
                budget: budget)
        }
        let elements: [PredicateValue]
        switch left {
        case .array(let array): elements = array
        case .dictionary(let dictionary): elements = Array(dictionary.values)
        default:
            throw Failure(
                code: .typeMismatch,
                message: "\(quantifier.rawValue) needs an array on the left, got \((left ?? .null).kindName)")
        }
        for element in elements {
            try charge(element, right)
            let matched = try Comparison.compare(
                comparison.comparator, element, right ?? .null, options: comparison.options, regex: regex,
                budget: budget)
            switch quantifier {
            case .any where matched: return true
            case .all where !matched: return false
            case .none where matched: return false
            default: continue
            }
        }
        return quantifier != .any
    }

    /// Takes a step for the comparison and one per character of its string operands, which it may read
    /// whole (equality, folding, `CONTAINS`); a list counts its elements.
    private func charge(_ left: PredicateValue?, _ right: PredicateValue?) throws(Failure) {
        guard let budget else { return }
        func weight(_ value: PredicateValue?) -> Int {
            switch value {
            case .string(let text): text.utf8.count
            case .array(let elements): elements.count
            case .dictionary(let entries): entries.count
            default: 0
            }
        }
        do { try budget.spend(1 + weight(left) + weight(right)) } catch { throw Failure.budgetSpent }
    }

    /// The value of `node`; `nil` is Foundation's nil (a missing key), distinct from an explicit `.null`.
    func value(of node: ExpressionNode) throws(Failure) -> PredicateValue? {
        switch node {
        case .literal(let literal):
            return literal
        case .variable(let index):
            guard let bound = environment.value(at: index) else {
                throw Failure(code: .unboundVariable, message: "variable '$\(variables[index].name)' is not bound")
            }
            return bound
        case .evaluatedObject:
            return nil
        case .keyPath(let base, let keys):
            let start = try base.map { base throws(Failure) in try value(of: base) } ?? nil
            return try KeyPathEvaluation.apply(keys[...], to: start)
        case .index(let base, let selector):
            let collection = try value(of: base)
            var position: PredicateValue?
            if case .expression(let expression) = selector { position = try value(of: expression) }
            return try KeyPathEvaluation.index(collection, selector, position: position)
        case .aggregate(let elements):
            return .array(try elements.map { element throws(Failure) in try value(of: element) ?? .null })
        case .arithmetic(let op, let left, let right):
            let lhs = try Arithmetic.operand(try value(of: left), of: op)
            let rhs = try Arithmetic.operand(try value(of: right), of: op)
            return .number(Arithmetic.apply(op, lhs, rhs))
        case .negate(let operand):
            return .number(-(try Arithmetic.operand(try value(of: operand), of: .subtract)))
        }
    }
}

extension Result where Success == SafeRegex, Failure == SafeRegex.CompileError {
    /// The compiled pattern, or the compile error reported as an evaluation error.
    fileprivate func get(orThrow comparison: ComparisonNode) throws(PredicateEvaluationError) -> SafeRegex {
        switch self {
        case .success(let regex): return regex
        case .failure(let error):
            throw PredicateEvaluationError(code: .invalidRegex, message: "invalid MATCHES pattern: \(error)")
        }
    }
}
