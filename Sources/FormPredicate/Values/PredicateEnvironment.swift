/// Supplies the values of a compiled predicate's variables by index.
///
/// Index `i` answers for `predicate.variables[i]`. Returning `nil` means the variable is unbound, which makes
/// the evaluation fail; return `.null` for a row with no value.
public protocol PredicateEnvironment {
    /// The value of the variable at `index` in `Predicate.variables`, or `nil` when it is unbound.
    func value(at index: Int) -> PredicateValue?
}

/// An array lines up with `Predicate.variables` directly; a missing or `nil` entry is unbound.
extension Array: PredicateEnvironment where Element == PredicateValue? {
    /// The element at `index`, or `nil` past the end.
    public func value(at index: Int) -> PredicateValue? {
        index < count ? self[index] : nil
    }
}

/// Answers variables from a dictionary of row values plus the sets of hidden and disabled rows.
struct DictionaryEnvironment: PredicateEnvironment {
    let variables: [PredicateVariable]
    let values: [String: PredicateValue]
    let hidden: Set<String>
    let disabled: Set<String>

    func value(at index: Int) -> PredicateValue? {
        let variable = variables[index]
        switch variable.attribute {
        case .value: return values[variable.name]
        case .isHidden: return .bool(hidden.contains(variable.name))
        case .isDisabled: return .bool(disabled.contains(variable.name))
        }
    }
}
