import FormModel
import FormPredicate

/// A condition that could not be evaluated on one submission (a key path on an empty row, a string
/// operator on a number), and so counted as false (`Resolution.decide`): the row stayed visible and
/// enabled, it was not required, or its `predicate` validator refused the value.
///
/// Nothing in the answer shows it, so the server logs each one once (`FormSite`) and `formwright
/// check` reports those that fail on a form's own defaults.
public struct ConditionFailure: Sendable, Hashable {
    /// Which of the form's conditions failed.
    public let place: ConditionPlace
    /// The condition, as the descriptor wrote it.
    public let source: String
    /// Why it could not be evaluated.
    public let error: PredicateEvaluationError
}

/// Where a condition sits in a form: a row's or section's `hidden`, a row's `disabled` or `required`,
/// or a row's `predicate` validator. Indexes are `CompiledForm`'s.
public enum ConditionPlace: Sendable, Hashable {
    case rowHidden(Int)
    case rowDisabled(Int)
    case rowRequired(Int)
    case sectionHidden(Int)
    case validator(row: Int)
    /// A `predicate` validator of a multivalued section's items.
    case itemValidator(section: Int)

    /// The place in words, for a log line or `check`: `row 'country' (hidden)`, `section 2 (hidden)`.
    public func description(in form: CompiledForm) -> String {
        func row(_ index: Int) -> String {
            guard form.rows.indices.contains(index) else { return "row \(index + 1)" }
            return form.rows[index].row.tag.map { "row '\($0)'" } ?? "row \(index + 1)"
        }
        // Named as the descriptor names it when it can: `section 'Alerts'`, else by position.
        func section(_ index: Int) -> String {
            guard form.sections.indices.contains(index) else { return "section \(index + 1)" }
            let section = form.sections[index].section
            return (section.title ?? section.multivaluedTag).map { "section '\($0)'" } ?? "section \(index + 1)"
        }
        return switch self {
        case .rowHidden(let index): "\(row(index)) (hidden)"
        case .rowDisabled(let index): "\(row(index)) (disabled)"
        case .rowRequired(let index): "\(row(index)) (required)"
        case .validator(let index): "\(row(index)) (predicate validator)"
        case .itemValidator(let index): "\(section(index)) items (predicate validator)"
        case .sectionHidden(let index): "\(section(index)) (hidden)"
        }
    }
}
