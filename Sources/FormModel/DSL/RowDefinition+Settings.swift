/// The settings of a row that are neither conditions nor validators.
extension RowDefinition {
    /// The value the row starts with, and keeps while disabled.
    public func value(_ value: FormValue?) -> RowDefinition { updating { $0.value = value } }

    /// Hint text inside an empty control.
    public func placeholder(_ text: String?) -> RowDefinition { updating { $0.placeholder = text } }
    /// The control's `autocomplete` (`"given-name"`), instead of the one the row's type implies;
    /// checked when the form is compiled, as a descriptor's is.
    public func autocomplete(_ tokens: String?) -> RowDefinition { updating { $0.autocomplete = tokens } }

    /// Whether a store keeps the row's value (`store: false`); a password's is never kept.
    public func store(_ kept: Bool) -> RowDefinition { updating { $0.store = kept } }

    /// A store keeps a salted hash of the row's value in its place (`store: hash`): for a password to
    /// be checked later, never read.
    public func storeHashed() -> RowDefinition {
        updating {
            $0.store = true
            $0.storeHashed = true
        }
    }

    /// Help text shown with the control.
    public func help(_ text: String?) -> RowDefinition { updating { $0.help = text } }

    /// The choices of a selector row, replacing any given before.
    public func options(_ options: [Option]) -> RowDefinition { updating { $0.options = options } }

    /// Takes the options from the `OptionSource` registered as `source`, searched as the reader types
    /// (a single selector's `optionsFrom`).
    public func optionsFrom(_ source: String) -> RowDefinition { updating { $0.optionsFrom = source } }

    /// The choices of a selector row, written as a list: `Option("5m", title: "5 minutes before")`,
    /// or a plain string whose title is its value.
    public func options(@ListBuilder<Option> _ options: () -> [Option]) -> RowDefinition {
        self.options(options())
    }

    /// What a selector shows when nothing is chosen.
    public func noValueDisplayText(_ text: String?) -> RowDefinition { updating { $0.noValueDisplayText = text } }

    /// The smallest value for numbers, dates and times (also the control's `min`).
    public func min(_ value: FormValue?) -> RowDefinition { updating { $0.min = value } }

    /// The largest value for numbers, dates and times (also the control's `max`).
    public func max(_ value: FormValue?) -> RowDefinition { updating { $0.max = value } }

    /// The step of number, slider and step-counter controls.
    public func step(_ value: FormValue?) -> RowDefinition { updating { $0.step = value } }

    /// The most characters the row accepts, checked on the server too.
    public func maxLength(_ length: Int?) -> RowDefinition { updating { $0.maxLength = length } }

    /// For `button` rows: where the button leads.
    public func url(_ url: String?) -> RowDefinition { updating { $0.url = url } }

    /// For `upload` rows: the accepted media types or extensions (HTML's `accept`).
    public func accept(_ types: [String]) -> RowDefinition { updating { $0.accept = types } }
}
