/// One row written in Swift: a `Row` of the model, plus the custom validators whose closures its
/// `validate(_:message:check:)` calls registered. Every modifier returns a modified copy.
///
/// ```swift
/// RowDefinition(.text, "title", title: "Title").placeholder("Title").required().maxLength(100)
/// RowDefinition(.selectorPush, "second-alert", title: "Second Alert").hidden("$alert == 'never'")
/// ```
public struct RowDefinition: Sendable {
    /// The model row, as a descriptor with the same settings would load.
    public internal(set) var row: Row
    /// The closures registered by this row, each with its place: `validators[2]`.
    var registrations: [(path: String, validator: CustomValidator)] = []

    /// A row of `type`; `tag` names its value in the payload and in conditions (`$tag`).
    public init(_ type: RowType, _ tag: String? = nil, title: String? = nil) {
        row = Row(type, tag: tag, title: title)
    }

    /// The custom validators this row registered, in the order of its validators.
    public var customValidators: [CustomValidator] { registrations.map(\.validator) }

    /// A copy of this row with `change` applied to its model row.
    func updating(_ change: (inout Row) -> Void) -> RowDefinition {
        var copy = self
        change(&copy.row)
        return copy
    }
}
