/// The control a page shows for a row, said once per row type (`RowType.control`): the HTML layer
/// writes it, and the model checks read it (which controls show a placeholder or take `autocomplete`).
///
/// The strings are HTML's own keywords, given as literals so a page writes them without copying.
public enum RowControl: Sendable {
    /// An `<input>` of `type`, with the `autocomplete` and `inputmode` the type implies; `step` is
    /// written when the row gives none.
    case input(type: StaticString, autocomplete: StaticString?, inputMode: StaticString?, step: StaticString?)
    /// A `<textarea>`.
    case textArea
    /// One check box; a switch carries `role=switch` (WAI-ARIA 1.2 "switch" role).
    case checkbox(isSwitch: Bool)
    /// A boolean as a `<select>` of No and Yes, posting `false` or `true`: an item of a multivalued
    /// section, which must post a value even when it is false.
    case yesNo
    /// A `<select>`; an inline picker shows its options as a list box (`size` > 1).
    case select(inline: Bool)
    /// One radio button per option, in a fieldset, one under the other: a choice among a few.
    case radios
    /// One radio button per option, in a fieldset, drawn side by side as a segmented control.
    case segmented
    /// One check box per option, in a fieldset.
    case checkboxes
    /// A range input with a live `<output>`.
    case range
    /// A selector whose options come from an `OptionSource`: a search field, a button that searches
    /// without a script, and the matches as a select; the page script makes it a combobox.
    case search
    /// A number input with − and + buttons beside it (shown by the page script; without it the
    /// browser's own number input steps).
    case stepper
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

    /// A text input with nothing more said: the control of `text` rows.
    public static let textInput = RowControl.input(type: "text", autocomplete: nil, inputMode: nil, step: nil)

    /// Whether the control shows a `placeholder`: HTML gives one to text, search, url, tel, email,
    /// password and number inputs and to text areas (§4.10.5.3.10), and a duration is a text input
    /// here. Check boxes, selects, radio and check-box groups, date and time inputs, ranges and files
    /// have none.
    public var showsPlaceholder: Bool {
        switch self {
        case .textArea, .duration, .stepper: true
        case .input(let type, _, _, _):
            ["text", "search", "url", "tel", "email", "password", "number"].contains(type.description)
        default: false
        }
    }

    /// Whether the control may carry `autocomplete`: HTML gives none to check boxes, radio buttons and
    /// file inputs, and display and action rows have no control that posts.
    public var takesAutocomplete: Bool {
        switch self {
        case .input, .textArea, .select, .range, .stepper, .duration, .yesNo, .search: true
        case .checkbox, .radios, .segmented, .checkboxes, .file, .output, .paragraph, .action: false
        }
    }

    /// Whether the control is a `<select>`, whose empty choice shows `noValueDisplayText`.
    public var isSelect: Bool {
        if case .select = self { return true }
        return false
    }

    /// Whether the control is an action: a link or a button, which needs a `url` to do anything.
    public var isAction: Bool {
        if case .action = self { return true }
        return false
    }
}
