import FormPredicate

/// How one condition of one submission was decided: the explanation `formwright evaluate` and
/// `POST /forms/{id}/explain` print.
public enum Decision: Sendable {
    /// A constant in the descriptor.
    case constant(Bool)
    /// A predicate, the values it read, and its answer (or why it had none).
    case predicate(source: String, inputs: [(String, PredicateValue)], outcome: Result<Bool, PredicateEvaluationError>)
    /// The row is hidden because its section is.
    case section(Int)
    /// The row is disabled because the whole form is.
    case form
}

/// The decisions of one submission, per row and section.
public struct Trace: Sendable {
    /// Per row index.
    public var rows: [RowTrace]
    /// Per section index: how its `hidden` was decided.
    public var sections: [SectionTrace]

    init(rows: Int, sections: Int) {
        self.rows = Array(repeating: RowTrace(), count: rows)
        self.sections = Array(repeating: SectionTrace(), count: sections)
    }
}

/// How a row's three states were decided.
public struct RowTrace: Sendable {
    /// Hidden.
    public var hidden = Decision.constant(false)
    /// Disabled.
    public var disabled = Decision.constant(false)
    /// Required.
    public var required = Decision.constant(false)
}

/// How a section's `hidden` was decided.
public struct SectionTrace: Sendable {
    /// Hidden.
    public var hidden = Decision.constant(false)
}
