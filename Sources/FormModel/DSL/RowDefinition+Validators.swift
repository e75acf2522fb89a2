/// Validators: the built-in kinds by value, custom ones as Swift closures registered by name.
extension RowDefinition {
    /// Adds a validator of `kind`, run after those added before; `message` replaces its default one.
    ///
    /// ```swift
    /// .validate(.predicate("$ends >= $starts"), message: "The event must end after it starts")
    /// ```
    public func validate(_ kind: ValidatorSpec.Kind, message: String? = nil) -> RowDefinition {
        updating { $0.validators.append(ValidatorSpec(kind, message: message)) }
    }

    /// Adds `ValidatorSpec(.custom(name))` and registers `check` under `name`, so the definition's
    /// `customValidators` carries it. `check` returns the message when the value fails, nil when it passes.
    ///
    /// A name holds one closure per form: when another row registers one under the same name, the first
    /// is kept and `FormDefinition.problems` names both places. To run the same check on another row,
    /// write `.validate(.custom(name))` there.
    ///
    /// ```swift
    /// .validate("invitationCode") { value in value.description.hasPrefix("FW-") ? nil : "Codes start with FW-" }
    /// ```
    public func validate(
        _ name: String, message: String? = nil, check: @escaping @Sendable (FormValue) -> String?
    ) -> RowDefinition {
        validate(CustomValidator(name, check: check), message: message)
    }

    /// Adds `ValidatorSpec(.custom(validator.name))` and registers `validator`, as
    /// `validate(_:message:check:)` does: a validator written once, used by several forms.
    public func validate(_ validator: CustomValidator, message: String? = nil) -> RowDefinition {
        var copy = validate(.custom(validator.name), message: message)
        copy.registrations.append((path: "validators[\(row.validators.count)]", validator: validator))
        return copy
    }
}
