import FormModel

/// The HTML control a row type becomes. Chosen once per row when a page is built.
enum Control: Sendable {
    /// An `<input>` of `type`; `step` is written when the row gives none.
    case input(type: StaticString, autocomplete: StaticString?, inputMode: StaticString?, step: StaticString?)
    /// A `<textarea>`.
    case textArea
    /// One check box; a switch carries `role=switch` (WAI-ARIA 1.2 "switch" role).
    case checkbox(isSwitch: Bool)
    /// A boolean as a `<select>` of No and Yes, posting `false` or `true`: an item of a multivalued
    /// section, which must post a value even when it is false (see `init(item:)`).
    case yesNo
    /// A `<select>`; an inline picker shows its options as a list box (`size` > 1).
    case select(inline: Bool)
    /// One radio button per option, in a fieldset.
    case radios
    /// One check box per option, in a fieldset.
    case checkboxes
    /// A range input with a live `<output>`.
    case range
    /// `H:MM:SS` typed as text: there is no duration input in HTML.
    case duration
    /// A file input.
    case file
    /// A read-only value: `<output>`, labelable like a control.
    case output
    /// A paragraph of text.
    case paragraph
    /// A link (when the row has a safe `url`) or a button.
    case action

    /// The control for `type`.
    init(_ type: RowType) {
        switch type {
        case .text, .twitter: self = .input(type: "text", autocomplete: nil, inputMode: nil, step: nil)
        case .name: self = .input(type: "text", autocomplete: "name", inputMode: nil, step: nil)
        case .account: self = .input(type: "text", autocomplete: "username", inputMode: nil, step: nil)
        case .zipCode: self = .input(type: "text", autocomplete: "postal-code", inputMode: nil, step: nil)
        case .email: self = .input(type: "email", autocomplete: "email", inputMode: nil, step: nil)
        case .url: self = .input(type: "url", autocomplete: "url", inputMode: nil, step: nil)
        case .phone: self = .input(type: "tel", autocomplete: "tel", inputMode: nil, step: nil)
        case .password: self = .input(type: "password", autocomplete: "current-password", inputMode: nil, step: nil)
        case .textView: self = .textArea
        // `step=any`: the default step of 1 would make a browser reject 9.99 (HTML spec §4.10.5.3.7 "step").
        case .number, .decimal: self = .input(type: "number", autocomplete: nil, inputMode: "decimal", step: "any")
        case .integer: self = .input(type: "number", autocomplete: nil, inputMode: "numeric", step: "1")
        case .stepCounter: self = .input(type: "number", autocomplete: nil, inputMode: "decimal", step: "1")
        case .date, .dateInline: self = .input(type: "date", autocomplete: nil, inputMode: nil, step: nil)
        case .time, .timeInline: self = .input(type: "time", autocomplete: nil, inputMode: nil, step: nil)
        case .datetime, .datetimeInline:
            self = .input(type: "datetime-local", autocomplete: nil, inputMode: nil, step: nil)
        case .countDownTimer, .countDownTimerInline: self = .duration
        case .booleanCheck: self = .checkbox(isSwitch: false)
        case .booleanSwitch: self = .checkbox(isSwitch: true)
        case .slider: self = .range
        case .selectorPush, .selectorPopover, .selectorActionSheet, .selectorAlertView, .selectorPickerView,
            .selectorLeftRight:
            self = .select(inline: false)
        case .selectorPickerViewInline: self = .select(inline: true)
        case .selectorSegmentedControl: self = .radios
        case .multipleSelector, .multipleSelectorPopover: self = .checkboxes
        case .upload: self = .file
        case .info: self = .output
        case .label: self = .paragraph
        case .button: self = .action
        }
    }

    /// The control of an item of a multivalued section. The server reads items by position in the
    /// values posted under one name, so every item is one control that always posts exactly one value:
    /// radios sharing that name would be one group across all items (one choice in the whole list), an
    /// unchecked box posts nothing (HTML §4.10.21.4, "constructing the entry list"), and a list box
    /// with nothing selected posts nothing. Single selectors become drop-down `<select>`s and booleans
    /// `yesNo`. (A multiple selector, which posts a set, is refused as an item at load.)
    init(item type: RowType) {
        switch Control(type) {
        case .radios, .select: self = .select(inline: false)
        case .checkbox: self = .yesNo
        case let control: self = control
        }
    }

    /// Whether the row is a group of inputs labelled by a `<legend>` rather than a `<label>`.
    var isGroup: Bool {
        switch self {
        case .radios, .checkboxes: true
        default: false
        }
    }
}
