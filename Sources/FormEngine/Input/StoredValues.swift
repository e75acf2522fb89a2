import FormModel

/// The values of a stored record for one form, decoded by its row types: what the form starts from
/// when a record is edited, instead of its descriptor's values, and what its disabled rows keep
/// (docs/submissions.md, rule 5: "the stored value when a record is edited"). `FormEngine.stored(_:)` makes it.
///
/// ```swift
/// // The httpParameters of an earlier valid submission, saved by the application.
/// let stored = try engine.stored(json: Array(#"{"username": "ada", "plan": "pro"}"#.utf8))
/// engine.initial(stored: stored)              // the page's verdict: ada's values
/// engine.evaluate(fields, stored: stored)     // a disabled `username` stays "ada", whatever is posted
/// ```
public struct StoredValues: Sendable, Hashable {
    /// Per row index: the stored value, nil inside when the record holds it empty. A row absent here
    /// was not in the record and keeps its descriptor value.
    public internal(set) var rows: [Int: FormValue?] = [:]
    /// Per multivalued section index: the stored items, in order.
    public internal(set) var items: [Int: [FormValue]] = [:]

    /// No stored values: every row keeps its descriptor value.
    public init() {}
}
