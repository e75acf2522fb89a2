/// `required`, `hidden` and `disabled`: each takes a `Condition`, a `Bool` (a constant) or a `String`
/// (a predicate such as `"$alert == 'never'"`, compiled with the form).
extension RowDefinition {
    /// Whether an empty value is an error (always, when no condition is given); `message` replaces
    /// "<title> can't be empty".
    public func required(_ condition: Condition = .always, message: String? = nil) -> RowDefinition {
        updating {
            $0.required = condition
            $0.requireMessage = message
        }
    }

    /// Required or not, as a constant.
    public func required(_ flag: Bool, message: String? = nil) -> RowDefinition {
        required(.constant(flag), message: message)
    }

    /// Required when `predicate` holds: `.required("$has_pets == 1")`.
    public func required(_ predicate: String, message: String? = nil) -> RowDefinition {
        required(.predicate(predicate), message: message)
    }

    /// Whether the row is hidden: hidden rows are absent from the payload and not validated.
    public func hidden(_ condition: Condition) -> RowDefinition { updating { $0.hidden = condition } }

    /// Hidden or not, as a constant (hidden when no argument is given).
    public func hidden(_ flag: Bool = true) -> RowDefinition { hidden(.constant(flag)) }

    /// Hidden when `predicate` holds: `.hidden("$alert == 'never'")`.
    public func hidden(_ predicate: String) -> RowDefinition { hidden(.predicate(predicate)) }

    /// Whether the row is disabled: disabled rows keep the server's value and are not validated.
    public func disabled(_ condition: Condition) -> RowDefinition { updating { $0.disabled = condition } }

    /// Disabled or not, as a constant (disabled when no argument is given).
    public func disabled(_ flag: Bool = true) -> RowDefinition { disabled(.constant(flag)) }

    /// Disabled when `predicate` holds.
    public func disabled(_ predicate: String) -> RowDefinition { disabled(.predicate(predicate)) }
}
