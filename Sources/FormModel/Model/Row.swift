/// One row of a section: XLForm's `XLFormRowDescriptor`.
public struct Row: Sendable, Hashable {
    /// The key of the row's value in `formValues` and `httpParameters`, and its name in conditions
    /// (`$tag`). Untagged rows (info, buttons) are left out of both payloads.
    public var tag: String?
    /// What the row is and holds.
    public var type: RowType
    /// The label.
    public var title: String?
    /// The value the row starts with, and keeps while disabled.
    public var value: FormValue?
    /// Hint text inside an empty control.
    public var placeholder: String?
    /// The control's `autocomplete` (`given-name`, `shipping postal-code`, `off`: `Autofill`), instead of
    /// the one the row's type implies.
    public var autocomplete: String?
    /// Whether an empty value is an error: a constant or a predicate.
    public var required: Condition = .never
    /// The message for an empty required row, instead of "<title> can't be empty".
    public var requireMessage: String?
    /// Whether the row is hidden: hidden rows are absent from the payload and not validated.
    public var hidden: Condition = .never
    /// Whether the row is disabled: disabled rows keep the server's value and are not validated.
    public var disabled: Condition = .never
    /// Checks run on the row's value, in order.
    public var validators: [ValidatorSpec] = []
    /// The choices of a selector row.
    public var options: [Option] = []
    /// The `OptionSource` a selector's options come from instead of `options`: searched as the reader
    /// types, each submitted value confirmed by it (`optionsFrom`).
    public var optionsFrom: String?
    /// What a selector shows when nothing is chosen.
    public var noValueDisplayText: String?
    /// Help text shown with the control.
    public var help: String?
    /// The smallest value for numbers, dates and times (also the control's `min`).
    public var min: FormValue?
    /// The largest value for numbers, dates and times (also the control's `max`).
    public var max: FormValue?
    /// The step of number, slider and step-counter controls.
    public var step: FormValue?
    /// The most characters a text row accepts, checked on the server too.
    public var maxLength: Int?
    /// Whether a store keeps the row's value (`store: false`: a card number a handler forwards, a
    /// one-time code). A password's value is never kept, unless `storeHashed`.
    public var store = true
    /// Whether a store keeps a salted hash of the row's value in its place (`store: hash`), so a
    /// password can be checked later without being kept.
    public var storeHashed = false
    /// For `button` rows: where the button leads. For `upload` rows: accepted media types.
    public var url: String?
    /// For `upload` rows: the accepted media types or extensions (HTML's `accept`).
    public var accept: [String] = []

    /// A row of `type` with `tag`; every other setting at its default (a custom type's options included).
    public init(_ type: RowType, tag: String?, title: String? = nil) {
        self.type = type
        self.tag = tag
        self.title = title
        options = type.custom?.options ?? []
    }

    /// The title, or the tag when untitled: what messages call the row.
    public var displayName: String { title ?? tag ?? type.name }
}
