import FormModel

/// Which password rows ask for a new password. A password that must match another row, or that
/// another row must match, is being chosen ("Password" and "Confirm password"): `new-password` lets
/// a password manager offer to generate and save one, where `current-password` would fill in the
/// saved one (HTML §4.10.18.7.1, "Autofilling form controls"). Every other password is one the
/// reader already has.
enum NewPasswords {
    /// The indexes, in `CompiledForm.rows`, of the rows with an `equalsRow` validator and of the rows
    /// such a validator names (a multivalued section's item's validator included).
    static func rows(of form: CompiledForm) -> Set<Int> {
        var rows = Set<Int>()
        for row in form.rows where row.validators.contains(where: { $0.otherRow != nil }) {
            rows.insert(row.index)
        }
        let validators = form.rows.flatMap(\.validators) + form.sections.flatMap { $0.item?.validators ?? [] }
        for validator in validators {
            if let other = validator.otherRow { rows.insert(other) }
        }
        return rows
    }

    /// Whether an item row asks for a new password: it must match another row.
    static func isNew(_ item: CompiledItem) -> Bool {
        item.validators.contains { $0.otherRow != nil }
    }

    /// The control of a password row or item that asks for a new password; nil for other row types.
    static func control(for type: RowType) -> Control? {
        type.isSecret ? .input(type: "password", autocomplete: "new-password", inputMode: nil, step: nil) : nil
    }
}
